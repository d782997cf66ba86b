package io.sparkrca.inspector;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares two builds of a job's code by ranged reads: for archives, the central directories'
 * names and CRC-32s tell added, removed and changed entries apart without reading them; only the
 * changed classes (at most {@value #MAX_CLASSES_READ}) are read, and their string constants
 * compared. Two class files are compared by their constants; two scripts or sources by their
 * lines.
 */
final class CodeDiffer {
  static final int MAX_CLASSES_READ = 100;
  private static final long MAX_SOURCE_BYTES = 4L << 20;

  private final InspectorLimits limits;

  CodeDiffer(InspectorLimits limits) {
    this.limits = limits;
  }

  CodeDiff diff(ByteSource baseline, ByteSource candidate) {
    String b = Redactor.redactUri(baseline.name());
    String c = Redactor.redactUri(candidate.name());
    try {
      byte[] headB = baseline.read(0, 4);
      byte[] headC = candidate.read(0, 4);
      boolean zipB = ZipArchive.hasZipMagic(headB);
      boolean zipC = ZipArchive.hasZipMagic(headC);
      if (zipB && zipC) {
        return archives(baseline, candidate, b, c);
      }
      if (isClass(headB) && isClass(headC)) {
        byte[] x = readWhole(baseline, b);
        byte[] y = readWhole(candidate, c);
        List<CodeDiff.ChangedEntry> changed = java.util.Arrays.equals(x, y) ? List.of()
            : List.of(strings(fileName(c), ConstantPoolScanner.scan(x).strings(), ConstantPoolScanner.scan(y).strings()));
        return new CodeDiff(b, c, List.of(), List.of(), changed, changed.isEmpty() ? 1 : 0, List.of());
      }
      if (zipB != zipC || isClass(headB) != isClass(headC)) {
        return new CodeDiff(b, c, List.of(fileName(c)), List.of(fileName(b)), List.of(), 0,
            List.of("the two are different kinds of code (" + kind(zipB, headB) + " and " + kind(zipC, headC)
                + "), compared as wholes"));
      }
      String x = new String(readWhole(baseline, b), StandardCharsets.UTF_8);
      String y = new String(readWhole(candidate, c), StandardCharsets.UTF_8);
      List<CodeDiff.ChangedEntry> changed = x.equals(y) ? List.of()
          : List.of(strings(fileName(c), x.lines().map(String::strip).filter(l -> !l.isEmpty()).toList(),
              y.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()));
      return new CodeDiff(b, c, List.of(), List.of(), changed, changed.isEmpty() ? 1 : 0, List.of());
    } catch (IOException e) {
      throw new SparkRcaException("the code could not be compared (" + b + ", " + c + "): " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new SparkRcaException("the code could not be compared (" + b + ", " + c + "): " + e.getCause().getMessage(),
          e);
    }
  }

  private CodeDiff archives(ByteSource baseline, ByteSource candidate, String b, String c) throws IOException {
    ZipArchive za = ZipArchive.open(baseline, new ReadContext(limits));
    ZipArchive zb = ZipArchive.open(candidate, new ReadContext(limits));
    Map<String, ZipEntryInfo> before = index(za);
    Map<String, ZipEntryInfo> after = index(zb);
    List<String> notes = new ArrayList<>();
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<CodeDiff.ChangedEntry> changed = new ArrayList<>();
    int unchanged = 0;
    int addedCount = 0;
    int removedCount = 0;
    int changedCount = 0;
    int read = 0;
    for (Map.Entry<String, ZipEntryInfo> e : after.entrySet()) {
      ZipEntryInfo old = before.get(e.getKey());
      if (old == null) {
        if (addedCount++ < CodeDiff.MAX_ENTRIES) {
          added.add(e.getKey());
        }
        continue;
      }
      if (old.crc() == e.getValue().crc() && old.size() == e.getValue().size()) {
        unchanged++;
        continue;
      }
      changedCount++;
      if (changed.size() >= CodeDiff.MAX_ENTRIES) {
        continue;
      }
      if (e.getValue().isClass() && read < MAX_CLASSES_READ) {
        read++;
        try {
          byte[] x = za.readAll(old, limits.maxEntryBytes());
          byte[] y = zb.readAll(e.getValue(), limits.maxEntryBytes());
          changed.add(strings(e.getKey(), ConstantPoolScanner.scan(x).strings(), ConstantPoolScanner.scan(y).strings()));
        } catch (CorruptInputException | IOException ex) {
          notes.add(e.getKey() + " could not be read: " + ex.getMessage());
          changed.add(new CodeDiff.ChangedEntry(e.getKey(), List.of(), List.of()));
        }
      } else {
        changed.add(new CodeDiff.ChangedEntry(e.getKey(), List.of(), List.of()));
      }
    }
    for (String name : before.keySet()) {
      if (!after.containsKey(name) && removedCount++ < CodeDiff.MAX_ENTRIES) {
        removed.add(name);
      }
    }
    removedCount = (int) before.keySet().stream().filter(n -> !after.containsKey(n)).count();
    if (addedCount > added.size()) {
      notes.add((addedCount - added.size()) + " more added entries not listed");
    }
    if (removedCount > removed.size()) {
      notes.add((removedCount - removed.size()) + " more removed entries not listed");
    }
    if (changedCount > changed.size()) {
      notes.add((changedCount - changed.size()) + " more changed entries not listed");
    }
    if (read >= MAX_CLASSES_READ && changedCount > read) {
      notes.add("the string constants of the first " + MAX_CLASSES_READ + " changed classes were compared");
    }
    notes.addAll(za.notes);
    notes.addAll(zb.notes);
    return new CodeDiff(b, c, added, removed, changed, unchanged, notes);
  }

  private static Map<String, ZipEntryInfo> index(ZipArchive z) {
    Map<String, ZipEntryInfo> m = new LinkedHashMap<>();
    for (ZipEntryInfo e : z.entries) {
      if (!e.isDirectory()) {
        m.putIfAbsent(e.name(), e);
      }
    }
    return m;
  }

  private static CodeDiff.ChangedEntry strings(String name, List<String> before, List<String> after) {
    Set<String> b = new LinkedHashSet<>(before);
    Set<String> a = new LinkedHashSet<>(after);
    List<String> added = a.stream().filter(s -> !b.contains(s)).limit(CodeDiff.MAX_STRINGS)
        .map(s -> Redactor.standard().redactText(s)).toList();
    List<String> removed = b.stream().filter(s -> !a.contains(s)).limit(CodeDiff.MAX_STRINGS)
        .map(s -> Redactor.standard().redactText(s)).toList();
    return new CodeDiff.ChangedEntry(name, added, removed);
  }

  private byte[] readWhole(ByteSource s, String display) throws IOException {
    long size = s.size().orElse(-1L);
    // A source that cannot tell its size is read up to the cap.
    long cap = Math.min(MAX_SOURCE_BYTES, limits.maxEntryBytes());
    if (size > cap) {
      throw new CorruptInputException(display + " is " + Texts.bytes(size) + ", more than the " + Texts.bytes(cap)
          + " compared as a whole; compare archives instead");
    }
    return s.read(0, (int) (size < 0 ? cap : size));
  }

  private static boolean isClass(byte[] head) {
    return head.length >= 4 && (head[0] & 0xFF) == 0xCA && (head[1] & 0xFF) == 0xFE && (head[2] & 0xFF) == 0xBA
        && (head[3] & 0xFF) == 0xBE;
  }

  private static String kind(boolean zip, byte[] head) {
    return zip ? "an archive" : isClass(head) ? "a class file" : "a source file";
  }

  private static String fileName(String uri) {
    int slash = Math.max(uri.lastIndexOf('/'), uri.lastIndexOf('\\'));
    return slash >= 0 ? uri.substring(slash + 1) : uri;
  }
}

package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.inspector.ArchiveOverview.ClassVersion;
import io.sparkrca.inspector.ArchiveOverview.EntrySize;
import io.sparkrca.inspector.ArchiveOverview.NestedArchive;
import io.sparkrca.inspector.ArchiveOverview.PackageCount;
import io.sparkrca.inspector.ArchiveOverview.Relocation;
import io.sparkrca.inspector.ClassView.Call;
import io.sparkrca.inspector.ClassView.CallKind;
import io.sparkrca.inspector.ClassView.ClassDetail;
import io.sparkrca.inspector.ClassView.MethodSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The text renderings of the {@link Inspection} kinds. */
final class TextRender {
  static final int MAX_PACKAGES = 50;
  private static final int MAX_NESTED_SHOWN = 30;
  private static final int MAX_STRINGS_SHOWN = 40;
  private static final int MAX_CALLS_SHOWN = 40;

  private TextRender() {}

  static String overview(ArchiveOverview o, Function<? super Remedy, String> words) {
    List<String> out = new ArrayList<>();
    sizeLines(out, o);
    out.add("");
    manifestLines(out, o);
    out.add("");
    packageLines(out, o, words);
    contentLines(out, o);
    notes(out, o.notes(), words);
    out.add("");
    out.add(words.apply(o.drillIn()));
    return String.join("\n", out) + "\n";
  }

  /** The title, the sampling caveat, and the size and entry counts. */
  private static void sizeLines(List<String> out, ArchiveOverview o) {
    out.add("=== JAR Archive Overview: " + o.source() + " ===");
    o.sample().ifPresent(s -> out.add("SAMPLED, COUNTS ARE ESTIMATES: only "
        + String.format(Locale.ROOT, "%.1f%%", 100 * s.fractionRead()) + " of the central "
        + "directory was read (" + Texts.count(s.entriesRead()) + " of "
        + Texts.count(s.declaredEntries()) + " entries); totals marked ~ are estimated, package "
        + "counts are lower bounds (the classes seen), and what lies only in the unread parts is "
        + "missing. Inspect without sampling for exact counts and complete warnings."));
    if (o.estimated()) {
      out.add("Size: " + o.sizeBytes() + " bytes (" + Texts.bytes(o.sizeBytes()) + "); "
          + Texts.plural(o.declaredEntries(), "entry") + " (from the end record): ~"
          + Texts.plural(o.files(), "file") + " (~" + Texts.plural(o.classes(), "class")
          + "), ~" + Texts.plural(o.directories(), "directory") + "; ~"
          + Texts.bytes(o.uncompressedBytes()) + " uncompressed");
    } else {
      out.add("Size: " + o.sizeBytes() + " bytes (" + Texts.bytes(o.sizeBytes()) + "); "
          + Texts.plural(o.entries(), "entry") + ": " + Texts.plural(o.files(), "file") + " ("
          + Texts.plural(o.classes(), "class") + "), " + Texts.plural(o.directories(), "directory")
          + "; " + Texts.bytes(o.uncompressedBytes()) + " uncompressed");
    }
  }

  /** The Main-Class, the manifest's build attributes, the class file versions and the Scala version. */
  private static void manifestLines(List<String> out, ArchiveOverview o) {
    boolean manifestSeen = o.keyEntries().stream()
        .anyMatch(k -> k.equalsIgnoreCase("META-INF/MANIFEST.MF"));
    out.add(o.mainClass().map(m -> "Main-Class (from MANIFEST.MF): " + m)
        .orElse(o.estimated() && !manifestSeen
            ? "Main-Class: unknown (META-INF/MANIFEST.MF is not in the sampled entries)"
            : "Main-Class: Not specified in MANIFEST.MF"));
    String start = o.manifest().get("Start-Class");
    if (start != null) {
      out.add("Start-Class (spring-boot application class): " + start);
    }
    for (String k : List.of("Created-By", "Build-Jdk-Spec", "Implementation-Title",
        "Implementation-Version", "Spring-Boot-Version", "Multi-Release")) {
      String v = o.manifest().get(k);
      if (v != null) {
        out.add(k + ": " + v);
      }
    }
    if (!o.classVersions().isEmpty()) {
      List<String> parts = new ArrayList<>();
      int total = 0;
      for (ClassVersion v : o.classVersions()) {
        total += v.sampled();
      }
      for (ClassVersion v : o.classVersions()) {
        parts.add(v.java() + " (class file " + v.major() + ") for " + v.sampled() + " of "
            + total);
      }
      out.add("Classes target: " + String.join("; ", parts) + " sampled classes");
    }
    o.scala().ifPresent(s -> out.add("Scala: " + s.version() + " (from " + s.evidence() + ")"));
  }

  /** The largest packages with their class and source counts, the application's marked. */
  private static void packageLines(List<String> out, ArchiveOverview o, Function<? super Remedy, String> words) {
    String atLeast = o.estimated() ? "at least " : "";
    int shown = Math.min(MAX_PACKAGES, o.packages().size());
    if (o.estimated()) {
      out.add("Packages & Class Counts (sampled: " + Texts.plural(o.packages().size(), "package")
          + " seen, with the classes seen in each; ~" + Texts.plural(o.classes(), "class")
          + " in all, estimated" + (o.packages().size() > shown ? "; the " + shown + " largest"
              : "") + "):");
    } else {
      out.add("Packages & Class Counts (" + Texts.plural(o.packages().size(), "package") + ", "
          + Texts.plural(o.classes(), "class") + (o.packages().size() > shown
              ? "; the " + shown + " largest" : "") + "):");
    }
    String main = o.manifest().getOrDefault("Start-Class", o.mainClass().orElse(""));
    String mainPkg = main.contains(".") ? main.substring(0, main.lastIndexOf('.')) : "";
    for (int i = 0; i < shown; i++) {
      PackageCount p = o.packages().get(i);
      StringBuilder b = new StringBuilder("  - ").append(p.name()).append(" (").append(atLeast)
          .append(Texts.plural(p.classes(), "class"));
      if (p.sources() > 0) {
        b.append(", ").append(Texts.plural(p.sources(), "source file"));
      }
      b.append(')');
      if (!mainPkg.isEmpty() && p.name().equals(mainPkg)) {
        b.append("  [application]");
      }
      out.add(b.toString());
    }
    if (o.packages().size() > shown) {
      out.add("  ... (showing " + shown + " packages out of " + Texts.count(o.packages().size())
          + "; " + words.apply(InspectorRemedies.JSON_LISTS_THEM) + " all)");
    }
    o.sample().filter(s -> s.unreadClasses() > 0).ifPresent(s -> out.add("  ... and ~"
        + Texts.plural(s.unreadClasses(), "class") + " in the unread parts of the directory"));
  }

  /** Nested archives, relocations, bundled artifacts, key and largest entries, and packaging warnings. */
  private static void contentLines(List<String> out, ArchiveOverview o) {
    String atLeast = o.estimated() ? "at least " : "";
    String inSample = o.estimated() ? ", in the sample" : "";
    if (!o.nestedArchives().isEmpty()) {
      long total = 0;
      for (NestedArchive n : o.nestedArchives()) {
        total += n.sizeBytes();
      }
      out.add("");
      out.add("Nested archives (" + Texts.count(o.nestedArchives().size()) + ", "
          + Texts.bytes(total) + inSample + "):");
      for (int i = 0; i < Math.min(MAX_NESTED_SHOWN, o.nestedArchives().size()); i++) {
        NestedArchive n = o.nestedArchives().get(i);
        out.add("  - " + n.name() + " (" + Texts.bytes(n.sizeBytes()) + (n.stored() ? ", stored"
            : ", compressed") + ")");
      }
      if (o.nestedArchives().size() > MAX_NESTED_SHOWN) {
        out.add("  ... (" + Texts.count(o.nestedArchives().size() - MAX_NESTED_SHOWN) + " more)");
      }
    }
    if (!o.relocations().isEmpty()) {
      out.add("");
      out.add("Relocated (shaded) packages" + (o.estimated() ? " (in the sample)" : "") + ":");
      for (Relocation r : o.relocations()) {
        out.add("  - " + r.original() + " under " + r.prefix() + " (" + atLeast
            + Texts.plural(r.classes(), "class") + ")");
      }
    }
    if (!o.bundledArtifacts().isEmpty()) {
      out.add("");
      List<String> list = o.bundledArtifacts();
      out.add("Bundled Maven artifacts (" + Texts.count(list.size()) + ", from META-INF/maven"
          + inSample + "): "
          + String.join(", ", list.subList(0, Math.min(15, list.size())))
          + (list.size() > 15 ? ", ..." : ""));
    }
    out.add("");
    out.add("Top-level / Key Entries (Total " + (o.estimated() ? "~" : "")
        + Texts.count(o.files()) + " files; " + Texts.count(o.keyEntriesTotal()) + " key entries"
        + inSample + (o.keyEntriesTotal()
            > o.keyEntries().size() ? ", first " + o.keyEntries().size() + " shown" : "") + "):");
    for (String k : o.keyEntries()) {
      out.add("  - " + k);
    }
    if (!o.largestEntries().isEmpty()) {
      out.add("");
      out.add("Largest entries" + (o.estimated() ? " (in the sample)" : "") + ":");
      for (EntrySize e : o.largestEntries()) {
        out.add("  - " + e.name() + " (" + Texts.bytes(e.sizeBytes()) + ", "
            + Texts.bytes(e.compressedBytes()) + " compressed)");
      }
    }
    if (!o.warnings().isEmpty()) {
      out.add("");
      out.add("Packaging warnings" + (o.estimated() ? " (from the sample only: a clash in the "
          + "unread parts is not reported)" : "") + ":");
      for (String w : o.warnings()) {
        out.add("  ! " + w);
      }
    }
  }

  /** The notes; the one that ends in advice (the manifest of a sampled archive) says it in {@code words}' words. */
  private static void notes(List<String> out, List<String> notes, Function<? super Remedy, String> words) {
    if (!notes.isEmpty()) {
      out.add("");
      out.add("Notes:");
      for (String n : notes) {
        out.add("  - " + InspectorRemedies.MANIFEST_ENTRY.in(n, words));
      }
    }
  }

  static void findings(List<String> out, List<Finding> findings, int omitted) {
    out.add("Spark anti-patterns (" + (omitted == 0 ? String.valueOf(findings.size())
        : Texts.count(findings.size() + omitted) + "; the first " + findings.size() + " shown")
        + "):");
    if (findings.isEmpty() && omitted == 0) {
      out.add("  (none found)");
    }
    for (Finding f : findings) {
      out.add("  ! [" + f.pattern().id() + "] " + f.location());
      out.add("      " + f.evidence());
      out.add("      fix: " + f.remediation());
    }
    if (omitted > 0) {
      out.add("  ... " + FindingCap.describe(findings.size(), omitted));
    }
  }

  /** Collects lines under a budget and remembers where it cut. */
  private static final class Budget {
    final int max;
    final List<String> out = new ArrayList<>();
    int dropped;
    String cutAt;
    String where = "";

    Budget(int max) {
      this.max = max;
    }

    void add(String line) {
      if (out.size() < max) {
        out.add(line);
      } else {
        if (cutAt == null) {
          cutAt = where;
        }
        dropped++;
      }
    }
  }

  static String classView(ClassView v, Function<? super Remedy, String> words) {
    Budget b = new Budget(v.lineBudget());
    ClassDetail first = v.classes().isEmpty() ? null : v.classes().get(0);
    b.where = "the summary";
    if (!v.findings().isEmpty() || v.findingsOmitted() > 0) {
      List<String> f = new ArrayList<>();
      findings(f, v.findings(), v.findingsOmitted());
      f.forEach(b::add);
      b.add("");
    }
    for (ClassDetail c : v.classes()) {
      b.where = "the summary of " + c.name();
      String because = c == first ? "" : " [" + c.followedBecause() + "]";
      b.add("=== Class Structure: " + c.entry() + because + " ===");
      b.add("class " + c.name() + ": class file " + c.majorVersion() + "." + c.minorVersion()
          + " (" + c.java() + ")" + c.sourceFile().map(s -> ", compiled from \"" + s + "\"")
              .orElse("") + (c.scala() ? ", Scala (ScalaSignature present)" : "")
          + ", " + Texts.plural(c.fields().size(), "field") + ", "
          + Texts.plural(c.methods().size(), "method"));
      if (c.malformed().isPresent()) {
        b.add("// Failed to parse bytecode for " + c.entry() + ": " + c.malformed().get());
      }
      stringConstants(b, c, words);
      callGraph(b, c, words);
      disassembly(b, c);
    }
    if (!v.omittedClasses().isEmpty()) {
      b.where = "the list of classes not followed";
      b.add("[" + v.omittedClasses().size() + " additional companion classes omitted: "
          + String.join(", ", v.omittedClasses().subList(0, Math.min(10,
              v.omittedClasses().size()))) + (v.omittedClasses().size() > 10 ? ", ..." : "")
          + ". " + words.apply(InspectorRemedies.NAME_A_COMPANION) + "]");
    }
    List<String> out = new ArrayList<>(b.out);
    if (b.dropped > 0) {
      out.add("");
      out.add("[Output cut at the line budget of " + Texts.count(b.max) + " lines, in "
          + b.cutAt + "; " + Texts.count(b.dropped) + " more lines not shown. "
          + words.apply(InspectorRemedies.LINE_BUDGET) + "]");
    }
    notes(out, v.notes(), words);
    return String.join("\n", out) + "\n";
  }

  /** The class's string constants, most interesting first, and how many low-interest ones were left out. */
  private static void stringConstants(Budget b, ClassDetail c, Function<? super Remedy, String> words) {
    if (!c.strings().isEmpty()) {
      b.add("");
      b.add("String constants (table names, paths, SQL, config keys; most interesting first):");
      int n = 0;
      for (StringConstant s : c.strings()) {
        if (n++ >= MAX_STRINGS_SHOWN) {
          b.add("  ... (" + (c.strings().size() - MAX_STRINGS_SHOWN) + " more; "
              + words.apply(InspectorRemedies.JSON_LISTS_THEM) + ")");
          break;
        }
        b.add("  - [" + s.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + "] "
            + Texts.quote(s.value(), 300) + "  (" + s.method() + s.line().stream()
                .mapToObj(l -> ", line " + l).findFirst().orElse("")
            + s.usedBy().map(u -> ", passed to " + u).orElse("")
            + (s.occurrences() > 1 ? ", " + s.occurrences() + " uses" : "") + ")");
      }
    }
    if (c.lowInterestStrings() > 0) {
      b.add("  (" + Texts.plural(c.lowInterestStrings(), "low-interest literal")
          + " not shown: identifiers, descriptors, format fragments)");
    }
  }

  /** Per method of the class: the calls it makes (up to a bound) and the fields it reads and writes. */
  private static void callGraph(Budget b, ClassDetail c, Function<? super Remedy, String> words) {
    boolean anyCalls = c.methods().stream().anyMatch(m -> !m.calls().isEmpty());
    if (anyCalls) {
      b.add("");
      b.add("Call graph (per method; -> call, => lambda body, ~> invokedynamic, "
          + "r/w field access):");
      for (MethodSummary m : c.methods()) {
        if (m.calls().isEmpty()) {
          continue;
        }
        b.where = "the call graph of " + c.name() + "." + m.name();
        b.add("  " + m.declaration() + m.firstLine().stream().mapToObj(l -> "  [line " + l + "]")
            .findFirst().orElse(""));
        int n = 0;
        for (Call call : m.calls()) {
          if (call.kind() == CallKind.FIELD_READ || call.kind() == CallKind.FIELD_WRITE) {
            continue;
          }
          if (n++ >= MAX_CALLS_SHOWN) {
            b.add("      ... (more calls; " + words.apply(InspectorRemedies.JSON_LISTS_THEM) + ")");
            break;
          }
          b.add("    " + arrow(call.kind()) + " " + call.target()
              + call.line().stream().mapToObj(l -> "  [" + l + "]").findFirst().orElse("")
              + call.spark().map(s -> "  (" + s + ")").orElse(""));
        }
        List<String> fields = new ArrayList<>();
        for (Call call : m.calls()) {
          if (call.kind() == CallKind.FIELD_READ || call.kind() == CallKind.FIELD_WRITE) {
            fields.add((call.kind() == CallKind.FIELD_READ ? "r " : "w ") + call.target());
          }
        }
        if (!fields.isEmpty()) {
          b.add("    fields: " + String.join(", ", fields.subList(0, Math.min(12, fields.size())))
              + (fields.size() > 12 ? ", ..." : ""));
        }
      }
    }
  }

  /** The class's disassembly, each line charged to the method it belongs to. */
  private static void disassembly(Budget b, ClassDetail c) {
    b.add("");
    b.add("Disassembly (javap -c -p style, from ASM):");
    String method = "";
    for (String line : c.listing()) {
      if (line.startsWith("  ") && !line.startsWith("   ") && line.endsWith(";")) {
        method = line.strip();
      }
      b.where = "the disassembly of " + c.name() + (method.isEmpty() ? "" : ", at " + method);
      b.add(line);
    }
    b.add("");
  }

  private static String arrow(CallKind k) {
    return switch (k) {
      case INVOKE -> "->";
      case LAMBDA -> "=>";
      case DYNAMIC -> "~>";
      default -> "..";
    };
  }

  static String source(SourceView s, Function<? super Remedy, String> words) {
    List<String> out = new ArrayList<>();
    out.add(s.entry() ? "=== Inspecting Entry '" + entryName(s.source()) + "' in "
        + archiveName(s.source()) + " ===" : "=== Source Code: " + s.source() + " ===");
    int n = s.firstLine();
    for (String line : s.lines()) {
      out.add(String.format(Locale.ROOT, "%4d | %s", n++, line));
    }
    if (s.truncated()) {
      out.add("");
      if (s.firstLine() == 1) {
        out.add("[Truncated at " + s.lines().size() + " lines. Total lines: " + s.totalLines()
            + (s.totalLinesExact() ? "" : "+") + "]");
      } else {
        out.add("[Showing lines " + s.firstLine() + "-" + (s.firstLine() + s.lines().size() - 1)
            + ". Total lines: " + s.totalLines() + (s.totalLinesExact() ? "" : "+") + "]");
      }
    }
    if (!s.language().equals("text") || !s.findings().isEmpty()) {
      out.add("");
      findings(out, s.findings(), s.findingsOmitted());
    }
    notes(out, s.notes(), words);
    return String.join("\n", out) + "\n";
  }

  static String entryName(String source) {
    int bang = source.lastIndexOf("!/");
    return bang >= 0 ? source.substring(bang + 2) : source;
  }

  static String archiveName(String source) {
    int bang = source.lastIndexOf("!/");
    return bang >= 0 ? source.substring(0, bang) : source;
  }

  static String findings(FindingsReport r, Function<? super Remedy, String> words) {
    List<String> out = new ArrayList<>();
    out.add("=== Spark anti-patterns: " + r.source() + " ===");
    out.add("Scanned " + Texts.plural(r.classesScanned(), "class") + " and "
        + Texts.plural(r.sourcesScanned(), "source file") + ".");
    out.add("");
    findings(out, r.findings(), r.findingsOmitted());
    notes(out, r.notes(), words);
    return String.join("\n", out) + "\n";
  }
}

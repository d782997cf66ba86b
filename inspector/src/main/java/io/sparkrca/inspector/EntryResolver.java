package io.sparkrca.inspector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the archive entry a user means: by archive path, by fully qualified class name, by bare
 * class name, then case-insensitively. Several matches are an {@link AmbiguousEntryException},
 * none an {@link EntryNotFoundException} with the nearest names.
 */
final class EntryResolver {
  private static final List<String> CLASS_ROOTS = List.of("", "BOOT-INF/classes/",
      "WEB-INF/classes/");

  private EntryResolver() {}

  /** How an entry was found. */
  record Resolved(ZipEntryInfo entry, Optional<String> note) {}

  /** {@code \\com\\x\\Main.class} to {@code com/x/Main.class}. */
  static String normalize(String entry) {
    String n = entry.strip().replace('\\', '/');
    if (n.startsWith("/")) {
      n = n.substring(1);
    }
    return n;
  }

  static List<String> candidates(String n) {
    Set<String> c = new LinkedHashSet<>();
    c.add(n);
    String stem = n.endsWith(".class") ? n.substring(0, n.length() - 6) : n;
    boolean classLike = n.endsWith(".class") || !hasResourceExtension(n);
    if (classLike) {
      for (String root : CLASS_ROOTS) {
        c.add(root + stem + ".class");
        if (!stem.contains("/")) {
          c.add(root + stem.replace('.', '/') + ".class");
        }
      }
    }
    return new ArrayList<>(c);
  }

  private static boolean hasResourceExtension(String n) {
    String last = n.substring(n.lastIndexOf('/') + 1);
    int dot = last.lastIndexOf('.');
    if (dot < 0) {
      return false;
    }
    String original = last.substring(dot + 1);
    if (!original.isEmpty() && Character.isUpperCase(original.charAt(0))
        && !List.of("MF", "SF", "RSA", "DSA", "EC").contains(original)) {
      return false; // com.example.Json: a class name, not a .json file
    }
    String ext = original.toLowerCase(Locale.ROOT);
    return List.of("mf", "properties", "xml", "conf", "sql", "py", "scala", "java", "json", "yaml",
        "yml", "txt", "jar", "zip", "md", "csv", "sh", "hql", "html", "list", "factories",
        "kotlin_module", "tasty", "sf", "rsa", "dsa", "proto", "thrift", "avsc", "jks", "so",
        "dll", "dylib", "png", "gif", "jpg", "css", "js", "ini", "cfg", "toml", "log", "idx",
        "gz", "war", "whl", "egg")
        .contains(ext);
  }

  static Resolved resolve(ZipArchive zip, String requested) {
    String n = normalize(requested);
    if (n.isEmpty()) {
      throw new EntryNotFoundException(zip.name(), requested, List.of());
    }
    List<String> candidates = candidates(n);
    for (String c : candidates) {
      Optional<ZipEntryInfo> e = zip.get(c);
      if (e.isPresent() && !e.get().isDirectory()) {
        return new Resolved(e.get(), Optional.empty());
      }
    }
    // Case-insensitively.
    Set<String> lower = new LinkedHashSet<>();
    for (String c : candidates) {
      lower.add(c.toLowerCase(Locale.ROOT));
    }
    List<ZipEntryInfo> hits = new ArrayList<>();
    for (ZipEntryInfo e : zip.entries) {
      if (!e.isDirectory() && lower.contains(e.name().toLowerCase(Locale.ROOT))) {
        hits.add(e);
      }
    }
    if (hits.size() == 1) {
      return new Resolved(hits.get(0), Optional.of("'" + requested + "' matched "
          + hits.get(0).name() + " case-insensitively"));
    }
    if (hits.size() > 1) {
      throw new AmbiguousEntryException(zip.name(), requested, names(hits));
    }
    // A bare name: no package, no directory.
    String stem = n.endsWith(".class") ? n.substring(0, n.length() - 6) : n;
    boolean bare = !stem.contains("/") && (!stem.contains(".") || hasResourceExtension(n));
    if (bare) {
      String target = hasResourceExtension(n) ? n : stem + ".class";
      List<ZipEntryInfo> exact = new ArrayList<>();
      List<ZipEntryInfo> folded = new ArrayList<>();
      for (ZipEntryInfo e : zip.entries) {
        if (e.isDirectory()) {
          continue;
        }
        String simple = e.simpleName();
        if (simple.equals(target)) {
          exact.add(e);
        } else if (simple.equalsIgnoreCase(target)) {
          folded.add(e);
        }
      }
      List<ZipEntryInfo> found = exact.isEmpty() ? folded : exact;
      if (found.size() == 1) {
        return new Resolved(found.get(0), Optional.of("bare name '" + requested + "' resolved to "
            + found.get(0).name()));
      }
      if (found.size() > 1) {
        throw new AmbiguousEntryException(zip.name(), requested, names(found));
      }
    }
    throw new EntryNotFoundException(zip.name(), requested, nearest(zip, n));
  }

  private static List<String> names(List<ZipEntryInfo> entries) {
    List<String> out = new ArrayList<>();
    for (ZipEntryInfo e : entries) {
      out.add(Texts.safe(e.name()));
    }
    return out;
  }

  /** The closest entry names to {@code n}: by edit distance of the simple names, then substring. */
  static List<String> nearest(ZipArchive zip, String n) {
    String want = simple(n).toLowerCase(Locale.ROOT);
    if (want.isEmpty()) {
      return List.of();
    }
    int max = Math.max(2, want.length() / 3);
    record Scored(ZipEntryInfo e, int score) {}
    List<Scored> scored = new ArrayList<>();
    for (ZipEntryInfo e : zip.entries) {
      if (e.isDirectory()) {
        continue;
      }
      String have = simple(e.name()).toLowerCase(Locale.ROOT);
      int d;
      if (have.equals(want)) {
        d = 0;
      } else if (have.contains(want) || want.contains(have) && have.length() >= 3) {
        d = 1 + Math.abs(have.length() - want.length()) / 4;
      } else if (Math.abs(have.length() - want.length()) > max) {
        continue;
      } else {
        d = distance(have, want, max + 1);
        if (d > max) {
          continue;
        }
      }
      scored.add(new Scored(e, d));
    }
    scored.sort(Comparator.comparingInt(Scored::score).thenComparing(s -> s.e().name()));
    List<String> out = new ArrayList<>();
    for (Scored s : scored) {
      if (out.size() >= 5) {
        break;
      }
      String name = s.e().isClass() ? ClassAnalyzer.entryClassName(s.e().name()) : s.e().name();
      out.add(Texts.safe(name));
    }
    return out;
  }

  private static String simple(String n) {
    String s = n.substring(n.lastIndexOf('/') + 1);
    if (s.endsWith(".class")) {
      s = s.substring(0, s.length() - 6);
    } else if (!n.contains("/") && !hasResourceExtension(n) && s.contains(".")) {
      s = s.substring(s.lastIndexOf('.') + 1); // com.example.Main -> Main
    }
    return s;
  }

  /** Levenshtein distance, giving up (returning {@code limit}) once it exceeds the limit. */
  static int distance(String a, String b, int limit) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      int rowMin = cur[0];
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
        rowMin = Math.min(rowMin, cur[j]);
      }
      if (rowMin >= limit) {
        return limit;
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}

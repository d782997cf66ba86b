package io.sparkrca.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The structure of the whole tree's main sources: which module holds each {@code io.sparkrca}
 * package, and which packages each one uses (through imports and fully qualified names in code;
 * comments and string literals do not count). The architecture's rules read it: no cycle between
 * packages or modules, no module using another's {@code internal} package, no package split
 * across modules.
 *
 * <pre>{@code
 * Architecture tree = Architecture.of(Path.of(".."));
 * assertThat(tree.packageCycles()).isEmpty();
 * }</pre>
 */
public final class Architecture {
  private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+(io\\.sparkrca(?:\\.[a-z0-9_]+)*)\\s*;", Pattern.MULTILINE);
  /** A qualified use: the package segments (lower case) before a type name (upper case). */
  private static final Pattern USE = Pattern.compile("\\b(io\\.sparkrca(?:\\.[a-z0-9_]+)*)\\.[A-Z]");

  private final Map<String, String> moduleOf;
  private final Map<String, Set<String>> uses;

  private Architecture(Map<String, String> moduleOf, Map<String, Set<String>> uses) {
    this.moduleOf = moduleOf;
    this.uses = uses;
  }

  /** The main sources of every module under {@code root} (every {@code src/main/java} below it). */
  public static Architecture of(Path root) {
    Map<String, String> moduleOf = new TreeMap<>();
    Map<String, Set<String>> uses = new TreeMap<>();
    Map<String, Set<String>> modulesOfPackage = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      List<Path> sources = all.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().replace('\\', '/').contains("/src/main/java/"))
          .filter(p -> !p.toString().replace('\\', '/').contains("/target/"))
          .sorted().toList();
      for (Path f : sources) {
        String rel = root.relativize(f).toString().replace('\\', '/');
        String module = rel.substring(0, rel.indexOf("/src/main/java/"));
        String code = ErrorPolicy.codeOnly(Files.readString(f, StandardCharsets.UTF_8));
        Matcher p = PACKAGE.matcher(code);
        if (!p.find()) {
          continue;
        }
        String pkg = p.group(1);
        modulesOfPackage.computeIfAbsent(pkg, k -> new TreeSet<>()).add(module);
        moduleOf.put(pkg, module);
        Set<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
        Matcher u = USE.matcher(code.substring(p.end()));
        while (u.find()) {
          if (!u.group(1).equals(pkg)) {
            used.add(u.group(1));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    modulesOfPackage.forEach((pkg, modules) -> {
      if (modules.size() > 1) {
        moduleOf.put(pkg, String.join(" and ", modules));
      }
    });
    return new Architecture(moduleOf, uses);
  }

  /** Every package and the module (folder) that holds it; "a and b" for a package split across two. */
  public Map<String, String> modules() {
    return moduleOf;
  }

  /** Packages held by more than one module. */
  public List<String> splitPackages() {
    return moduleOf.entrySet().stream().filter(e -> e.getValue().contains(" and "))
        .map(e -> e.getKey() + " is in " + e.getValue()).toList();
  }

  /** Uses of another module's {@code internal} package, as "module: package uses package". */
  public List<String> foreignInternalUses() {
    List<String> out = new ArrayList<>();
    uses.forEach((pkg, used) -> {
      for (String u : used) {
        boolean internal = (u + ".").contains(".internal.");
        String owner = moduleOf.get(u);
        if (internal && owner != null && !owner.equals(moduleOf.get(pkg))) {
          out.add(moduleOf.get(pkg) + ": " + pkg + " uses " + u + " of " + owner);
        }
      }
    });
    return out;
  }

  /**
   * The cycles between packages: each strongly connected group of more than one package. A
   * package's {@code internal} packages are its implementation and count as part of it (the
   * public types delegate to them, and they build the public values), so {@code a.b} and {@code
   * a.b.internal} may use each other; anything else that does is a cycle.
   */
  public List<Set<String>> packageCycles() {
    Map<String, Set<String>> graph = new TreeMap<>();
    uses.forEach((pkg, used) -> {
      Set<String> to = graph.computeIfAbsent(unit(pkg), k -> new TreeSet<>());
      used.stream().filter(moduleOf::containsKey).map(Architecture::unit).filter(u -> !u.equals(unit(pkg))).forEach(to::add);
    });
    return cycles(graph);
  }

  /** The package an {@code internal} package implements (the part before {@code .internal}), or the package itself. */
  private static String unit(String pkg) {
    int i = (pkg + ".").indexOf(".internal.");
    return i < 0 ? pkg : pkg.substring(0, i);
  }

  /** The cycles between modules. */
  public List<Set<String>> moduleCycles() {
    Map<String, Set<String>> graph = new TreeMap<>();
    uses.forEach((pkg, used) -> {
      Set<String> to = graph.computeIfAbsent(moduleOf.get(pkg), k -> new TreeSet<>());
      for (String u : used) {
        String m = moduleOf.get(u);
        if (m != null && !m.equals(moduleOf.get(pkg))) {
          to.add(m);
        }
      }
    });
    return cycles(graph);
  }

  /** Tarjan's strongly connected components of more than one node. */
  private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new java.util.HashSet<>();
    List<Set<String>> out = new ArrayList<>();
    int[] next = {0};
    for (String v : graph.keySet()) {
      if (!index.containsKey(v)) {
        connect(v, graph, index, low, stack, onStack, out, next);
      }
    }
    return out;
  }

  private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out, int[] next) {
    index.put(v, next[0]);
    low.put(v, next[0]);
    next[0]++;
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, out, next);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        out.add(component);
      }
    }
  }
}

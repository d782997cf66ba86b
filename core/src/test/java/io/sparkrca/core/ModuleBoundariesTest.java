package io.sparkrca.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The contracts between modules are their public packages: no module's main code names another
 * module's {@code internal} package (a module may use its own). Scans every module of the
 * checkout this test runs in; a failure names the file and the package. Within core, the
 * sources package ({@code SparkSources}) names none of the sources it opens: they register.
 */
class ModuleBoundariesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern INTERNAL = Pattern.compile("\\bio\\.sparkrca(?:\\.[a-z0-9_]+)*?\\.internal(?![\\w])");

  @Test
  void noModuleNamesAnotherModulesInternalPackage() throws IOException {
    List<Path> modules = mainSourceRoots();
    assumeTrue(modules.size() > 1, "not in a checkout of every module: skipped");

    List<String> violations = new ArrayList<>();
    for (Path sources : modules) {
      Set<String> own = packages(sources);
      for (Path f : javaFiles(sources)) {
        Matcher m = INTERNAL.matcher(Files.readString(f, StandardCharsets.UTF_8));
        while (m.find()) {
          if (!own.contains(m.group())) {
            violations.add(ROOT.relativize(f) + " names " + m.group() + ", another module's internal package");
          }
        }
      }
    }

    assertThat(modules).anyMatch(p -> p.startsWith(ROOT.resolve("gcp")));
    assertThat(violations).isEmpty();
  }

  @Test
  void theSourcesPackageNamesNoSourceItOpens() throws IOException {
    Path source = Path.of("src/main/java/io/sparkrca/core/source");
    assumeTrue(Files.isDirectory(source), "not run from core: skipped");

    for (Path f : javaFiles(source)) {
      assertThat(Files.readString(f, StandardCharsets.UTF_8)).as(f.toString()).doesNotContain("io.sparkrca.core.eventlog");
    }
  }

  /** Every module's {@code src/main/java}. */
  private static List<Path> mainSourceRoots() throws IOException {
    try (Stream<Path> s = Files.walk(ROOT, 6)) {
      return s.filter(p -> p.endsWith(Path.of("src", "main", "java")) && Files.isDirectory(p))
          .filter(p -> !ROOT.relativize(p).toString().contains("target"))
          .sorted().toList();
    }
  }

  private static List<Path> javaFiles(Path sources) throws IOException {
    try (Stream<Path> s = Files.walk(sources)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  private static Set<String> packages(Path sources) throws IOException {
    Set<String> out = new TreeSet<>();
    for (Path f : javaFiles(sources)) {
      Matcher m = PACKAGE.matcher(Files.readString(f, StandardCharsets.UTF_8));
      if (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }
}

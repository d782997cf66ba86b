package io.sparkrca.testkit.scenarios;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles a few Java sources with the JDK's compiler and packs the classes into a jar: how
 * {@code Workload.DEPENDENCY_CONFLICT} makes two versions of a library and an application built
 * against the newer one, without committing any binary.
 */
final class LibraryJars {
  private LibraryJars() {}

  /**
   * Writes {@code sources} (relative path to text) under {@code dir/src}, compiles them against
   * {@code classPath} into {@code dir/classes} and packs those classes into {@code jar}.
   */
  static Path build(Path dir, Map<String, String> sources, List<Path> classPath, Path jar) throws IOException {
    Path src = dir.resolve("src");
    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--release", "17"));
    if (!classPath.isEmpty()) {
      args.add("-cp");
      args.add(String.join(java.io.File.pathSeparator, classPath.stream().map(Path::toString).toList()));
    }
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path f = src.resolve(e.getKey());
      Files.createDirectories(f.getParent());
      Files.writeString(f, e.getValue(), StandardCharsets.UTF_8);
      args.add(f.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no Java compiler in " + System.getProperty("java.home")
          + ": run the scenario on a JDK, not a JRE");
    }
    int rc = javac.run(null, null, null, args.toArray(String[]::new));
    if (rc != 0) {
      throw new IllegalStateException("compiling " + sources.keySet() + " failed with " + rc);
    }
    Files.createDirectories(jar.getParent());
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path c : files.filter(Files::isRegularFile).sorted().toList()) {
        j.putNextEntry(new JarEntry(classes.relativize(c).toString().replace('\\', '/')));
        Files.copy(c, j);
        j.closeEntry();
      }
    }
    return jar;
  }
}

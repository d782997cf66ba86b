package io.sparkrca.inspector;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Builds real test inputs: compiles Java sources in memory with {@link JavaCompiler}, writes jars
 * and zips with java.util.jar/zip, and finds real Spark and Scala jars in the local Maven
 * repository.
 */
final class TestJars {
  private TestJars() {}

  static final Path M2 = Path.of(System.getProperty("user.home"), ".m2", "repository");

  /** Compiles {@code sources} (class name to source text) to class files (entry name to bytes). */
  static Map<String, byte[]> compile(Map<String, String> sources, List<Path> classpath,
      String... options) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no system Java compiler (run the tests on a JDK)");
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
    Map<String, ByteArrayOutputStream> out = new LinkedHashMap<>();
    JavaFileManager fm = new ForwardingJavaFileManager<>(std) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className,
          JavaFileObject.Kind kind, FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/')
            + kind.extension), kind) {
          @Override
          public OutputStream openOutputStream() {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            out.put(className.replace('.', '/') + ".class", b);
            return b;
          }
        };
      }
    };
    List<JavaFileObject> units = new ArrayList<>();
    sources.forEach((name, text) -> units.add(new SimpleJavaFileObject(
        URI.create("string:///" + name.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return text;
      }
    }));
    List<String> opts = new ArrayList<>(List.of("-g", "-proc:none", "-nowarn", "-Xlint:none"));
    if (!classpath.isEmpty()) {
      opts.add("-classpath");
      opts.add(String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()));
    }
    opts.addAll(List.of(options));
    boolean ok = javac.getTask(null, fm, diagnostics, opts, null, units).call();
    if (!ok) {
      throw new IllegalStateException("compilation failed: " + diagnostics.getDiagnostics());
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    out.forEach((k, v) -> classes.put(k, v.toByteArray()));
    return classes;
  }

  /** A jar with a manifest (Main-Class when given) and the entries, deflated. */
  static byte[] jar(Optional<String> mainClass, Map<String, byte[]> entries) {
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mainClass.ifPresent(m -> mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, m));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(b, mf)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        jar.putNextEntry(new ZipEntry(e.getKey()));
        jar.write(e.getValue());
        jar.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  /** A zip whose entries are stored (uncompressed) or deflated, as asked; names used verbatim. */
  static byte[] zip(Map<String, byte[]> entries, boolean stored) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(b)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        ZipEntry z = new ZipEntry(e.getKey());
        if (stored) {
          z.setMethod(ZipEntry.STORED);
          z.setSize(e.getValue().length);
          z.setCompressedSize(e.getValue().length);
          CRC32 crc = new CRC32();
          crc.update(e.getValue());
          z.setCrc(crc.getValue());
        }
        zip.putNextEntry(z);
        zip.write(e.getValue());
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  /**
   * A fat jar as the remote-read tests use it: a manifest naming {@code com.example.SparkJob}, that
   * class, and 40 stored nested jars of 256 KiB random (incompressible) bytes, about 10 MiB.
   */
  static byte[] fatJar() {
    Random random = new Random(7);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("META-INF/MANIFEST.MF",
        "Manifest-Version: 1.0\nMain-Class: com.example.SparkJob\n\n".getBytes(StandardCharsets.UTF_8));
    entries.putAll(Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    for (int i = 0; i < 40; i++) {
      byte[] junk = new byte[256 * 1024];
      random.nextBytes(junk);
      entries.put("lib/dep-" + i + ".jar", zip(entries("blob.bin", junk), true));
    }
    return zip(entries, true);
  }

  /**
   * A spring-boot layout: {@code com.example.SparkJob} sits in a stored nested jar padded to 2 MiB,
   * beside another nested jar of the same padding; about 4 MiB.
   */
  static byte[] bootJar() {
    Map<String, byte[]> lib = new LinkedHashMap<>(
        Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    byte[] padding = new byte[2 << 20];
    new Random(1).nextBytes(padding);
    lib.put("padding.bin", padding);
    return zip(entries(
        "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: "
            + "org.springframework.boot.loader.launch.JarLauncher\nStart-Class: com.example.SparkJob\n\n",
        "BOOT-INF/lib/lib.jar", zip(lib, false),
        "BOOT-INF/lib/other.jar", zip(entries("x.bin", padding), true)), true);
  }

  static Map<String, byte[]> entries(Object... nameThenContent) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < nameThenContent.length; i += 2) {
      Object v = nameThenContent[i + 1];
      m.put((String) nameThenContent[i], v instanceof byte[] b ? b
          : v.toString().getBytes(StandardCharsets.UTF_8));
    }
    return m;
  }

  static Path write(Path dir, String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
    return p;
  }

  /** A jar from the local Maven repository, e.g. ("org/apache/spark", "spark-core_2.13", "3.5.9"). */
  static Optional<Path> m2Jar(String groupPath, String artifact, String version) {
    Path p = M2.resolve(groupPath).resolve(artifact).resolve(version)
        .resolve(artifact + "-" + version + ".jar");
    return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
  }

  /** The newest scala-library 2.13 jar in the local Maven repository. */
  static Optional<Path> scalaLibrary() {
    Path dir = M2.resolve("org/scala-lang/scala-library");
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(dir)) {
      return versions.map(v -> v.resolve("scala-library-" + v.getFileName() + ".jar"))
          .filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().startsWith("scala-library-2.13"))
          .max(Path::compareTo);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Spark 3.5 and Scala jars to compile Spark jobs against; empty when any is missing. */
  static Optional<List<Path>> sparkClasspath() {
    List<Path> cp = new ArrayList<>();
    for (String a : List.of("spark-sql_2.13", "spark-core_2.13", "spark-catalyst_2.13",
        "spark-sql-api_2.13", "spark-common-utils_2.13", "spark-unsafe_2.13")) {
      Optional<Path> p = m2Jar("org/apache/spark", a, "3.5.9");
      if (p.isEmpty()) {
        return Optional.empty();
      }
      cp.add(p.get());
    }
    Optional<Path> scala = scalaLibrary();
    if (scala.isEmpty()) {
      return Optional.empty();
    }
    cp.add(scala.get());
    return Optional.of(cp);
  }
}

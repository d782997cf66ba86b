package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.CountingByteSource;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveOverviewTest {
  @TempDir Path dir;

  private final ClassInspector inspector = ClassInspector.create();

  private Path sparkJobJarFile() throws Exception {
    return TestJars.write(dir, "app.jar", TestJars.jar(Optional.of("com.example.SparkJob"),
        TestJars.entries("com/example/SparkJob.class", Fixtures.STUB,
            "com/example/Helper.class", Fixtures.STUB,
            "com/example/util/Io.class", Fixtures.STUB)));
  }

  @Test
  void overviewShowsMainClassPackageCountsAndManifest() throws Exception {
    String text = inspector.inspect(sparkJobJarFile().toString()).toText();

    assertThat(text).contains("JAR Archive Overview")
        .contains("Main-Class (from MANIFEST.MF): com.example.SparkJob")
        .contains("com.example (2 classes)")
        .contains("com.example.util (1 class)")
        .contains("META-INF/MANIFEST.MF");
  }

  @Test
  void overviewEndsWithHowToDrillIn() throws Exception {
    String text = inspector.inspect(sparkJobJarFile().toString()).toText().strip();

    assertThat(text.lines().reduce((a, b) -> b).orElseThrow())
        .contains("name it as the entry").contains("com.example.SparkJob").contains("!/")
        .doesNotContainPattern("--[a-z]");
  }

  @Test
  void theDrillInAdviceIsDataACallerSaysInItsOwnWords() throws Exception {
    ArchiveOverview o = (ArchiveOverview) inspector.inspect(sparkJobJarFile().toString());

    assertThat(o.drillIn().id()).isEqualTo(InspectorRemedies.DRILL_IN);
    assertThat(o.drillIn().values()).containsExactly("com.example.SparkJob", "com/example/SparkJob.class");
    assertThat(o.toText(r -> "open " + r.values().get(0)).strip()).endsWith("open com.example.SparkJob");
  }

  @Test
  void aMainClassWrappedOverManifestContinuationLinesIsJoined() throws Exception {
    String longName = "com.example.very.long.pkg.name.that.goes.past.seventy.two.bytes.SparkJobEntryPoint";
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, longName);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(b, mf)) {
      jar.putNextEntry(new ZipEntry(longName.replace('.', '/') + ".class"));
      jar.write(Fixtures.STUB);
    }
    String raw = new String(b.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1);
    Path jar = TestJars.write(dir, "long.jar", b.toByteArray());

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.mainClass()).contains(longName);
    assertThat(o.toText()).contains("Main-Class (from MANIFEST.MF): " + longName);
    assertThat(raw).doesNotContain(longName); // the manifest really was wrapped
  }

  @Test
  void jsonCarriesClassCountsPerPackageAndInTotal() throws Exception {
    JsonNode json = new ObjectMapper().readTree(inspector.inspect(sparkJobJarFile().toString()).toJson());

    assertThat(json.get("kind").asText()).isEqualTo("archive");
    assertThat(json.get("classes").asInt()).isEqualTo(3);
    assertThat(json.get("mainClass").asText()).isEqualTo("com.example.SparkJob");
    assertThat(json.get("packages").get(0).get("name").asText()).isEqualTo("com.example");
    assertThat(json.get("packages").get(0).get("classes").asInt()).isEqualTo(2);
    assertThat(json.get("packageCount").asInt()).isEqualTo(2);
    assertThat(json.get("drillIn").asText()).contains("name it as the entry");
  }

  @Test
  void packagesAreSortedByClassCountAndCappedAtFiftyInText() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    for (int p = 0; p < 60; p++) {
      for (int c = 0; c <= p % 3; c++) {
        entries.put("pkg" + p + "/C" + c + ".class", Fixtures.STUB);
      }
    }
    Path jar = TestJars.write(dir, "many.jar", TestJars.jar(Optional.empty(), entries));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.packages()).hasSize(60);
    assertThat(o.packages().get(0).classes()).isEqualTo(3);
    assertThat(o.packages().get(59).classes()).isEqualTo(1);
    assertThat(o.toText()).contains("showing 50 packages out of 60")
        .contains("the manifest names no Main-Class");
  }

  @Test
  void springBootLayoutListsNestedJarsStartClassAndScalaVersion() throws Exception {
    byte[] lib = TestJars.jar(Optional.empty(), TestJars.entries("com/lib/Util.class", Fixtures.STUB));
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.springframework.boot.loader.JarLauncher");
    mf.getMainAttributes().putValue("Start-Class", "com.example.App");
    mf.getMainAttributes().putValue("Spring-Boot-Version", "3.2.0");
    ByteArrayOutputStream manifest = new ByteArrayOutputStream();
    mf.write(manifest);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("META-INF/MANIFEST.MF", manifest.toByteArray());
    entries.put("BOOT-INF/classes/com/example/App.class", Fixtures.STUB);
    entries.put("BOOT-INF/classes/application.conf", "spark.app.name=x".getBytes());
    entries.put("BOOT-INF/lib/scala-library-2.13.16.jar", lib);
    entries.put("BOOT-INF/lib/util-1.0.jar", lib);
    Path jar = TestJars.write(dir, "boot.jar", TestJars.zip(entries, true));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.manifest()).containsEntry("Start-Class", "com.example.App");
    assertThat(o.nestedArchives()).extracting(ArchiveOverview.NestedArchive::name)
        .containsExactly("BOOT-INF/lib/scala-library-2.13.16.jar", "BOOT-INF/lib/util-1.0.jar");
    assertThat(o.nestedArchives()).allMatch(ArchiveOverview.NestedArchive::stored);
    assertThat(o.scala()).hasValueSatisfying(s -> assertThat(s.version()).isEqualTo("2.13.16"));
    assertThat(o.packages().get(0).name()).isEqualTo("com.example");
    assertThat(o.keyEntries()).contains("BOOT-INF/classes/application.conf");
    assertThat(o.toText()).contains("Start-Class (spring-boot application class): com.example.App")
        .contains("Nested archives (2");
  }

  @Test
  void relocatedLibrariesAreNoticed() throws Exception {
    Path jar = TestJars.write(dir, "shaded.jar", TestJars.jar(Optional.empty(), TestJars.entries(
        "org/apache/hadoop/shaded/com/google/common/base/Strings.class", Fixtures.STUB,
        "org/apache/hadoop/shaded/com/google/common/collect/Lists.class", Fixtures.STUB,
        "myapp/shaded/netty/Channel.class", Fixtures.STUB)));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.relocations()).containsExactly(
        new ArchiveOverview.Relocation("org.apache.hadoop.shaded", "com.google.common", 2),
        new ArchiveOverview.Relocation("myapp.shaded", "io.netty", 1));
  }

  @Test
  void anApplicationJarThatBundlesSparkScalaAndGuavaGetsPackagingWarnings() throws Exception {
    Path jar = TestJars.write(dir, "fat.jar", TestJars.jar(Optional.of("com.acme.Job"),
        TestJars.entries("com/acme/Job.class", Fixtures.STUB,
            "org/apache/spark/SparkContext.class", Fixtures.STUB,
            "scala/Option.class", Fixtures.STUB,
            "com/google/common/base/Strings.class", Fixtures.STUB,
            "META-INF/maven/org.scala-lang/scala-library/pom.properties",
            "groupId=org.scala-lang\nartifactId=scala-library\nversion=2.12.18\n")));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.warnings()).anySatisfy(w -> assertThat(w).contains("bundles Spark itself")
        .contains("provided"));
    assertThat(o.warnings()).anySatisfy(w -> assertThat(w).contains("Scala library 2.12.18"));
    assertThat(o.warnings()).anySatisfy(w -> assertThat(w).contains("Guava").contains("relocate"));
    assertThat(o.scala()).hasValueSatisfying(s -> assertThat(s.version()).isEqualTo("2.12.18"));
    assertThat(o.bundledArtifacts()).contains("org.scala-lang:scala-library:2.12.18");
  }

  @Test
  void theClassFileVersionOfSampledClassesIsReported() throws Exception {
    Map<String, byte[]> classes = TestJars.compile(Map.of("com.example.SparkJob", Fixtures.SPARK_JOB),
        List.of(), "--release", "11");
    Path jar = TestJars.write(dir, "j11.jar", TestJars.jar(Optional.of("com.example.SparkJob"), classes));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(jar.toString());

    assertThat(o.classVersions()).containsExactly(new ArchiveOverview.ClassVersion(55, "Java 11", 1));
    assertThat(o.toText()).contains("Classes target: Java 11 (class file 55)");
  }

  @Test
  void aRealSparkJarOverviewReadsLittleMoreThanItsCentralDirectory() throws Exception {
    Optional<Path> core = TestJars.m2Jar("org/apache/spark", "spark-core_2.13", "3.5.9");
    Assumptions.assumeTrue(core.isPresent(), "spark-core_2.13-3.5.9.jar is not in ~/.m2; skipped");
    CountingByteSource src = new CountingByteSource(ByteSource.of(core.get()));

    ArchiveOverview o = (ArchiveOverview) inspector.inspect(src, Optional.empty());

    ZipArchive zip = ZipArchive.open(ByteSource.of(core.get()), new ReadContext(InspectorLimits.defaults()));
    assertThat(o.classes()).isGreaterThan(4_000);
    assertThat(o.scala()).hasValueSatisfying(s -> assertThat(s.version()).isEqualTo("2.13"));
    assertThat(o.relocations()).extracting(ArchiveOverview.Relocation::original)
        .contains("org.eclipse.jetty", "com.google.protobuf");
    // The central directory plus a few kilobytes of manifest, pom.properties and class headers.
    assertThat(src.bytesRead()).isLessThan(zip.centralDirectoryBytes + 64 * 1024);
    assertThat(src.requests()).isLessThan(20);
  }
}

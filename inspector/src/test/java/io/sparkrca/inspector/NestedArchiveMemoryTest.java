package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.io.ByteSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compressed nested jar bigger than memory should hold: it is inflated to a temporary file that
 * the inspection deletes, never into a heap-sized array (which ended the CLI with an
 * OutOfMemoryError).
 */
class NestedArchiveMemoryTest {
  private static final String INNER = "BOOT-INF/lib/inner.jar";

  @TempDir Path dir;

  /**
   * A jar of stored entries: {@code com.example.SparkJob} and {@code size} bytes of data that
   * deflates about 3:1, so the outer jar's deflated copy of it stays under the zip-bomb ratio.
   */
  private static byte[] innerJar(long size) {
    Map<String, byte[]> entries = new LinkedHashMap<>(
        Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    byte[] data = new byte[(int) size];
    Random random = new Random(3);
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + random.nextInt(4));
    }
    entries.put("data.bin", data);
    return TestJars.zip(entries, true);
  }

  /** An outer jar holding {@code inner} deflated, as a build tool that recompresses jars does. */
  private static byte[] outerJar(byte[] inner) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(inner.length / 2);
    try (ZipOutputStream zip = new ZipOutputStream(b)) {
      zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
      zip.write("Manifest-Version: 1.0\n\n".getBytes(StandardCharsets.UTF_8));
      ZipEntry e = new ZipEntry(INNER);
      e.setMethod(ZipEntry.DEFLATED);
      zip.putNextEntry(e);
      zip.write(inner);
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  /** The temporary files a nested archive is inflated into, with their sizes. */
  private static Map<String, Long> nestedTemporaryFiles() throws IOException {
    Map<String, Long> found = new HashMap<>();
    try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      s.filter(p -> p.getFileName().toString().startsWith("sparkrca-nested-"))
          .forEach(p -> found.put(p.getFileName().toString(), p.toFile().length()));
    }
    return found;
  }

  @Test
  void aCompressedNestedJarOverTheMemoryThresholdIsInflatedToATemporaryFileDeletedOnClose()
      throws Exception {
    byte[] inner = innerJar(ZipArchive.inMemoryNestedBytes() + (1 << 20));
    byte[] outer = outerJar(inner);
    Map<String, Long> before = nestedTemporaryFiles();

    Map<String, Long> during;
    try (ReadContext ctx = new ReadContext(InspectorLimits.defaults())) {
      ZipArchive zip = ZipArchive.open(ByteSource.of("outer.jar", outer), ctx);
      ByteSource nested = zip.nested(zip.get(INNER).orElseThrow());

      assertThat(nested.name()).isEqualTo("outer.jar!/" + INNER);
      assertThat(nested.size()).hasValue(inner.length);
      assertThat(nested.read(inner.length - 100, 100))
          .isEqualTo(Arrays.copyOfRange(inner, inner.length - 100, inner.length));
      during = nestedTemporaryFiles();
      during.keySet().removeAll(before.keySet());
    }

    assertThat(during).hasSize(1).containsValue((long) inner.length);
    assertThat(nestedTemporaryFiles()).isEqualTo(before);
  }

  @Test
  void aClassInsideALargeCompressedNestedJarIsInspectedAndNoTemporaryFileOutlivesIt()
      throws Exception {
    Path outer = TestJars.write(dir, "big.jar",
        outerJar(innerJar(ZipArchive.inMemoryNestedBytes() + (1 << 20))));
    Map<String, Long> before = nestedTemporaryFiles();

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(outer + "!/" + INNER + "!/com/example/SparkJob.class");

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(v.source()).endsWith("big.jar!/" + INNER + "!/com/example/SparkJob.class");
    assertThat(nestedTemporaryFiles()).isEqualTo(before);
  }

  @Test
  void aSmallCompressedNestedJarIsStillReadInMemory() throws Exception {
    byte[] inner = innerJar(64 << 10);
    Map<String, Long> before = nestedTemporaryFiles();

    ClassView v = (ClassView) ClassInspector.create().inspect(ByteSource.of("small.jar",
        outerJar(inner)), Optional.of(INNER + "!/com/example/SparkJob.class"));

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(nestedTemporaryFiles()).isEqualTo(before);
  }

  @Test
  void aCompressedNestedJarOverTheNestedCapGetsAnErrorThatSaysWhatToDo() {
    byte[] outer = outerJar(innerJar(2 << 20));
    ClassInspector tight = ClassInspector.builder()
        .limits(InspectorLimits.defaults().withMaxNestedArchiveBytes(1 << 20)).build();

    assertThatThrownBy(() -> tight.inspect(ByteSource.of("capped.jar", outer), Optional.of(INNER)))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("capped.jar!/" + INNER)
        .hasMessageContaining("extract it")
        .hasMessageContaining("maxNestedArchiveBytes");
  }

  /**
   * The auditor's case, scaled down: a JVM with a 64 MiB heap inspects a class in a 48 MiB jar
   * deflated inside another; inflating it into memory needed about twice its size.
   */
  @Test
  void aNestedJarLargerThanTheHeapIsReadFromATemporaryFileNotMemory() throws Exception {
    Path outer = TestJars.write(dir, "bignest.jar", outerJar(innerJar(48L << 20)));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx64m", "-cp",
        System.getProperty("java.class.path"), Probe.class.getName(),
        outer + "!/" + INNER + "!/com/example/SparkJob.class");
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("probe.out").toFile());

    int exit = assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
      Process p = pb.start();
      if (!p.waitFor(170, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the probe JVM hung");
      }
      return p.exitValue();
    });

    String out = Files.readString(dir.resolve("probe.out"));
    assertThat(out).doesNotContain("OutOfMemoryError").contains("class com.example.SparkJob");
    assertThat(exit).as(out).isZero();
  }

  /** Inspects its argument in a JVM of its own, printing the text or the failure. */
  static final class Probe {
    public static void main(String[] args) {
      try {
        System.out.println(ClassInspector.create().inspect(args[0]).toText());
      } catch (Throwable t) {
        System.out.println(t);
        System.exit(1);
      }
    }
  }
}

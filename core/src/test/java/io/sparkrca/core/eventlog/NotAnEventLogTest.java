package io.sparkrca.core.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import io.sparkrca.core.eventlog.replay.NotAnEventLogException;
import io.sparkrca.core.eventlog.replay.ReplayOptions;
import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.io.BinaryFormat;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.CountingByteSource;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JAR, class or data file handed to replay is named for what it is after its first bytes. */
class NotAnEventLogTest {
  /** A real JAR: the one Jackson's core classes are loaded from. */
  private static Path jar() throws URISyntaxException {
    Path p = Path.of(JsonFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(p.getFileName().toString()).endsWith(".jar");
    return p;
  }

  /** A real class file: this test's own. */
  private static Path classFile() throws URISyntaxException {
    return Path.of(NotAnEventLogTest.class.getResource("NotAnEventLogTest.class").toURI());
  }

  @Test
  void aJarIsRefusedAsAJarNotReadAsLines() throws Exception {
    Path jar = jar();
    assertThatThrownBy(() -> EventLogs.replay(jar))
        .isInstanceOfSatisfying(NotAnEventLogException.class, e -> {
          assertThat(e.format()).isEqualTo(BinaryFormat.JAR);
          assertThat(e.format().category()).isEqualTo(BinaryFormat.Category.CODE);
        })
        .hasMessageStartingWith(jar + " is a JAR (ZIP archive), not a Spark event log")
        .hasMessageContaining("ClassInspector")
        .hasMessageNotContaining("not a driver log");
  }

  @Test
  void aClassFileIsRefusedAsAClassFile() throws Exception {
    assertThatThrownBy(() -> EventLogs.replay(classFile()))
        .isInstanceOfSatisfying(NotAnEventLogException.class, e -> assertThat(e.format()).isEqualTo(BinaryFormat.JAVA_CLASS))
        .hasMessageContaining("is a Java class file, not a Spark event log");
  }

  @Test
  void aParquetFileIsRefusedAsData(@TempDir Path dir) throws Exception {
    byte[] parquet = new byte[64 * 1024];
    System.arraycopy("PAR1".getBytes(), 0, parquet, 0, 4);
    System.arraycopy("PAR1".getBytes(), 0, parquet, parquet.length - 4, 4);
    Path file = Files.write(dir.resolve("part-00000.snappy.parquet"), parquet);
    assertThatThrownBy(() -> EventLogs.replay(file))
        .isInstanceOfSatisfying(NotAnEventLogException.class, e -> assertThat(e.format()).isEqualTo(BinaryFormat.PARQUET))
        .hasMessageContaining("is a Parquet data file, not a Spark event log");
  }

  @Test
  void refusingAJarReadsOnlyItsFirstBytes() throws Exception {
    CountingByteSource counted = new CountingByteSource(ByteSource.of(jar()));
    assertThatThrownBy(() -> new Replayer(ReplayOptions.DEFAULTS).read(counted, false))
        .isInstanceOf(NotAnEventLogException.class);
    assertThat(counted.bytesRead()).isLessThanOrEqualTo(4096);
    assertThat(counted.size().getAsLong()).isGreaterThan(100_000);
  }

  @Test
  void magicBytesTellTheFormatsApartAndLeaveEventLogsAlone() throws Exception {
    assertThat(BinaryFormat.detect("lib.zip", bytes('P', 'K', 3, 4, 20, 0))).contains(BinaryFormat.ZIP);
    assertThat(BinaryFormat.detect("app.jar", bytes('P', 'K', 3, 4, 20, 0))).contains(BinaryFormat.JAR);
    assertThat(BinaryFormat.detect("x", bytes('B', 'Z', 'h', '9', 0x31, 0x41, 0x59, 0x26, 0x53, 0x59))).contains(BinaryFormat.BZIP2);
    assertThat(BinaryFormat.detect("x", bytes(0xFD, '7', 'z', 'X', 'Z', 0))).contains(BinaryFormat.XZ);
    assertThat(BinaryFormat.detect("x", bytes('O', 'R', 'C', 0x0a))).contains(BinaryFormat.ORC);
    assertThat(BinaryFormat.detect("x", bytes('O', 'b', 'j', 1, 4))).contains(BinaryFormat.AVRO);
    // A Mach-O universal binary shares the class magic but has no class file version.
    assertThat(BinaryFormat.detect("tool", bytes(0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2))).isEmpty();
    assertThat(BinaryFormat.detect("app.jar", new byte[0])).isEmpty();
    for (TestkitFixtures.Fixture f : TestkitFixtures.forVersion("3.5.9")) {
      Path log = f.eventLog();
      if (Files.isRegularFile(log)) {
        byte[] head = Arrays.copyOf(Files.readAllBytes(log), BinaryFormat.MAGIC_LENGTH);
        assertThat(BinaryFormat.detect(log.getFileName().toString(), head)).as(f.scenario()).isEmpty();
      }
    }
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }
}

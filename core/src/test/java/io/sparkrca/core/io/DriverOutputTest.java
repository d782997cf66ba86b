package io.sparkrca.core.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverOutputTest {
  @TempDir Path dir;

  @Test
  void recognisesOnlyTheDriveroutputSegment() {
    assertThat(DriverOutput.isPrefix("gs://b/jobs/j1/driveroutput")).isTrue();
    assertThat(DriverOutput.isPrefix("gs://b/jobs/j1/driveroutput/")).isTrue();
    assertThat(DriverOutput.isPrefix("driveroutput")).isTrue();
    assertThat(DriverOutput.isPrefix("gs://b/jobs/j1/mydriveroutput")).isFalse();
    assertThat(DriverOutput.isPrefix("gs://b/jobs/j1/driveroutput.000000000")).isFalse();
  }

  @Test
  void resolvesExactlyTheNumberedPartsInNumericOrder() throws IOException {
    Files.writeString(dir.resolve("driveroutput.000000010"), "ten\n");
    Files.writeString(dir.resolve("driveroutput.000000002"), "two\n");
    Files.writeString(dir.resolve("driveroutput.000000000"), "zero\n");
    Files.writeString(dir.resolve("driveroutput_old"), "old\n");
    Files.writeString(dir.resolve("driveroutput.000000001.bak"), "bak\n");
    Files.writeString(dir.resolve("driveroutput.old"), "old\n");
    Files.createDirectory(dir.resolve("driveroutput.000000003"));

    List<SourceEntry> parts = DriverOutput.parts(ByteSources.defaults(), dir.resolve("driveroutput").toString());

    assertThat(parts).extracting(SourceEntry::name)
        .containsExactly("driveroutput.000000000", "driveroutput.000000002", "driveroutput.000000010");
  }

  @Test
  void readsAllPartsAsOneLogIncludingEmptyTrailingShards() throws IOException {
    Files.writeString(dir.resolve("driveroutput.000000000"), "first\nsecond ");
    Files.writeString(dir.resolve("driveroutput.000000001"), "half\nthird\n");
    Files.writeString(dir.resolve("driveroutput.000000002"), "");
    ByteSource whole = DriverOutput.open(ByteSources.defaults(), dir.resolve("driveroutput") + "/").orElseThrow();

    assertThat(whole.size()).isEqualTo(OptionalLong.of(24));
    try (InputStream in = whole.openStream()) {
      assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("first\nsecond half\nthird\n");
    }
    try (InputStream in = whole.openStream(8)) {
      assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("cond half\nthird\n");
    }
    assertThat(new String(whole.read(10, 8), UTF_8)).isEqualTo("nd half\n");
    assertThat(whole.read(30, 8)).isEmpty();
    assertThat(whole.name()).endsWith("driveroutput");
  }

  @Test
  void aPrefixWithoutPartsIsLeftAlone() throws IOException {
    // The Python log reader's test_driveroutput_prefix_is_left_alone_for_local_paths: /tmp/driveroutput stays as is.
    assertThat(DriverOutput.open(ByteSources.defaults(), dir.resolve("driveroutput").toString())).isEmpty();
    assertThat(DriverOutput.parts(ByteSources.defaults(), "/nonexistent-dir/driveroutput")).isEmpty();
  }
}

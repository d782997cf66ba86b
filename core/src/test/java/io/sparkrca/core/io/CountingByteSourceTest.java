package io.sparkrca.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CountingByteSourceTest {
  private final ByteSource inner =
      ByteSource.of("logs/app.log", "0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

  @Test
  void countsRangedReadsAndStreamedBytesAsRequests() throws IOException {
    CountingByteSource counted = new CountingByteSource(inner);

    assertThat(counted.read(10, 100)).hasSize(6);
    try (InputStream in = counted.openStream(4)) {
      assertThat(in.read()).isEqualTo('4');
      assertThat(in.read(new byte[3], 0, 3)).isEqualTo(3);
    }

    assertThat(counted.requests()).isEqualTo(2);
    assertThat(counted.bytesRead()).isEqualTo(6 + 1 + 3);
  }

  @Test
  void endOfStreamAddsNothing() throws IOException {
    CountingByteSource counted = new CountingByteSource(inner);
    try (InputStream in = counted.openStream(16)) {
      assertThat(in.read()).isEqualTo(-1);
      assertThat(in.read(new byte[8], 0, 8)).isEqualTo(-1);
    }
    assertThat(counted.bytesRead()).isZero();
    assertThat(counted.requests()).isEqualTo(1);
  }

  @Test
  void describesItselfAsTheSourceItCounts() throws IOException {
    CountingByteSource counted = new CountingByteSource(inner);
    assertThat(counted.name()).isEqualTo("logs/app.log");
    assertThat(counted.fileName()).isEqualTo("app.log");
    assertThat(counted.size()).hasValue(16);
  }
}

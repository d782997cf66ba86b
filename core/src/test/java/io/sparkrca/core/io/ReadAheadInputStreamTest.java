package io.sparkrca.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReadAheadInputStreamTest {

  @Test
  void deliversTheSameBytesInOrder() throws IOException {
    byte[] data = new byte[1_000_003];
    new Random(1).nextBytes(data);
    try (InputStream in = new ReadAheadInputStream(new LineReaderTest.Trickle(data, 7777), 4096, 3)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void rethrowsTheProducersFailureWithItsOriginalType() {
    InputStream failing = new InputStream() {
      int n;

      @Override
      public int read() {
        if (n++ < 10_000) {
          return 'x';
        }
        throw new CorruptInputException("app.zstd: cannot decode the zstd stream");
      }
    };
    assertThatThrownBy(() -> {
      try (InputStream in = new ReadAheadInputStream(failing, 1024, 2)) {
        in.readAllBytes();
      }
    }).isInstanceOf(CorruptInputException.class).hasMessageContaining("cannot decode");
  }

  @Test
  void closingEarlyClosesTheSourceAndStopsReading() throws Exception {
    boolean[] closed = {false};
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 'y';
      }

      @Override
      public void close() {
        closed[0] = true;
      }
    };
    ReadAheadInputStream in = new ReadAheadInputStream(endless, 1024, 2);
    assertThat(in.read()).isEqualTo('y');
    in.close();
    assertThat(closed[0]).isTrue();
    assertThatThrownBy(in::read).isInstanceOf(IOException.class);
  }

  @Test
  void emptySourceEndsAtOnce() throws IOException {
    try (InputStream in = new ReadAheadInputStream(new ByteArrayInputStream(new byte[0]), 1024, 2)) {
      assertThat(in.read()).isEqualTo(-1);
    }
  }
}

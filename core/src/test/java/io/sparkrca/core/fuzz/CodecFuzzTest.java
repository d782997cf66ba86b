package io.sparkrca.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import java.io.InputStream;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Each codec's decoder on mutated compressed bytes of a real event log (zstd, gz, snappy, lz4,
 * lzf as Spark wrote them): the decoded stream delivers bytes or fails with the library's own
 * exception naming the file, in strict and in tolerant (in-progress) mode, within a time bound and
 * without decoding without end.
 */
class CodecFuzzTest {
  private static final String[][] LOGS = {
    {"flaky-task", "eventlog/local-1795962701117.zstd"},
    {"gc-pressure", "eventlog/local-1795962859128.gz"},
    {"task-not-serializable", "eventlog/local-1796159063511.snappy"},
    {"result-too-large", "eventlog/local-1796679512677.lz4"},
    {"underpartitioned", "eventlog/local-1795964612946.lzf"},
  };
  /** More than any fixture decodes to: a mutated stream that decodes past it is unbounded. */
  private static final long MAX_DECODED = 64L << 20;
  private static final int SNAPPY = 2;
  private static final int LZF = 4;
  private static byte[][] stored;

  @BeforeContainer
  static void readFixtures() {
    stored = new byte[LOGS.length][];
    for (int i = 0; i < LOGS.length; i++) {
      stored[i] = Fuzz.fixture(LOGS[i][0], LOGS[i][1]);
    }
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void aDamagedCompressedStreamDecodesOrFailsWithTheLibrarysException(@ForAll long seed,
      @ForAll @IntRange(min = 0, max = 4) int codec, @ForAll boolean tolerateTruncation) {
    Random r = new Random(seed);
    Mutations[] binary = {Mutations.TRUNCATE, Mutations.BIT_FLIP, Mutations.RANDOM_BYTES};
    Mutations mutation = binary[r.nextInt(binary.length)];
    byte[] damaged = mutation.apply(stored[codec], r);
    String name = LOGS[codec][1].substring("eventlog/".length());
    String input = mutation + " of " + name + " (seed " + seed + ", tolerant " + tolerateTruncation + ")";
    Fuzz.holdsContract(input, () -> {
      long total = 0;
      try (InputStream in = DecodedStream.open(ByteSource.of(name, damaged), tolerateTruncation)) {
        byte[] buf = new byte[64 * 1024];
        for (int n; (n = in.read(buf)) >= 0; ) {
          total += n;
          if (total > MAX_DECODED) {
            throw new AssertionError("decoded more than " + MAX_DECODED + " bytes from " + input);
          }
        }
      }
      return total;
    });
  }

  /**
   * Was a known violation (issue 44 section 1): a corrupt lzf stream made compress-lzf throw an
   * ArrayIndexOutOfBoundsException that DecodedStream let through raw; it is now the clear decoding
   * error naming the file.
   */
  @Example
  void aCorruptLzfStreamIsTheDecodingErrorNamingTheFile() {
    assertThat(decode(LZF, -32384, false)).isInstanceOf(io.sparkrca.core.error.SparkRcaException.class)
        .hasMessageContaining(LOGS[LZF][1].substring("eventlog/".length()));
  }

  /**
   * Was a known violation: a corrupt snappy chunk header made snappy-java throw SnappyError, a
   * java.lang.Error, through DecodedStream; it is now the clear decoding error naming the file.
   */
  @Example
  void aCorruptSnappyChunkIsTheDecodingErrorNamingTheFile() {
    assertThat(decode(SNAPPY, -107050, true)).isInstanceOf(io.sparkrca.core.error.SparkRcaException.class)
        .hasMessageContaining(LOGS[SNAPPY][1].substring("eventlog/".length()));
  }

  private static Throwable decode(int codec, long seed, boolean tolerateTruncation) {
    Random r = new Random(seed);
    Mutations[] binary = {Mutations.TRUNCATE, Mutations.BIT_FLIP, Mutations.RANDOM_BYTES};
    Mutations mutation = binary[r.nextInt(binary.length)];
    byte[] damaged = mutation.apply(stored[codec], r);
    String name = LOGS[codec][1].substring("eventlog/".length());
    return catchThrowable(() -> {
      try (InputStream in = DecodedStream.open(ByteSource.of(name, damaged), tolerateTruncation)) {
        in.readAllBytes();
      }
    });
  }
}

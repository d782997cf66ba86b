package io.sparkrca.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.testing.Codecs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class DecodedStreamTest {
  private static final byte[] TEXT = lines(5000);

  private static byte[] lines(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("{\"Event\":\"SparkListenerTaskEnd\",\"n\":").append(i).append("}\n");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] readAll(DecodedStream in) throws IOException {
    try (InputStream s = in) {
      return s.readAllBytes();
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void decodesEveryCodecFromItsExtension(Compression codec) throws IOException {
    ByteSource src = ByteSource.of("app-1" + Codecs.extension(codec), Codecs.compress(codec, TEXT));
    DecodedStream in = DecodedStream.open(src, false);
    assertThat(in.compression()).isEqualTo(codec);
    assertThat(readAll(in)).isEqualTo(TEXT);
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void detectsEveryCodecFromMagicBytesWhenTheNameHasNoExtension(Compression codec) throws IOException {
    ByteSource src = ByteSource.of("application_1700000000000_0001", Codecs.compress(codec, TEXT));
    DecodedStream in = DecodedStream.open(src, false);
    assertThat(in.compression()).isEqualTo(codec);
    assertThat(in.notes()).isEmpty();
    assertThat(readAll(in)).isEqualTo(TEXT);
  }

  @Test
  void magicBytesWinOverAWrongExtensionAndSaySo() throws IOException {
    ByteSource src = ByteSource.of("app-1.lz4", Codecs.compress(Compression.ZSTD, TEXT));
    DecodedStream in = DecodedStream.open(src, false);
    assertThat(in.compression()).isEqualTo(Compression.ZSTD);
    assertThat(in.notes()).singleElement().asString().contains("named as lz4 but holds zstd");
    assertThat(readAll(in)).isEqualTo(TEXT);
  }

  @Test
  void aCompressedNameOnPlainTextIsReadAsTextWithANote() throws IOException {
    DecodedStream in = DecodedStream.open(ByteSource.of("app-1.gz", TEXT), false);
    assertThat(in.compression()).isEqualTo(Compression.NONE);
    assertThat(in.notes()).singleElement().asString().contains("is not compressed");
    assertThat(readAll(in)).isEqualTo(TEXT);
  }

  @Test
  void binaryContentUnderACodecNameIsCorruptAndNamed() {
    byte[] junk = new byte[64];
    Arrays.fill(junk, (byte) 0x01);
    assertThatThrownBy(() -> DecodedStream.open(ByteSource.of("app-1.zstd", junk), false))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("app-1.zstd")
        .hasMessageContaining("does not start with zstd magic bytes");
  }

  @Test
  void formatsSparkNeverWritesAreRejectedWithAnInstruction() {
    assertThatThrownBy(() -> DecodedStream.open(ByteSource.of("app-1.bz2", TEXT), false))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("'bz2' is not a format Spark writes")
        .hasMessageContaining("decompress it first");
  }

  @Test
  void theLz4FrameFormatIsToldApartFromSparksBlockFormat() {
    byte[] frame = {0x04, 0x22, 0x4d, 0x18, 0, 0, 0, 0};
    assertThatThrownBy(() -> DecodedStream.open(ByteSource.of("app-1", frame), false))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("LZ4 frame format");
  }

  @ParameterizedTest
  @EnumSource(value = Compression.class, names = {"GZIP", "ZSTD", "LZ4", "SNAPPY", "LZF"})
  void aTruncatedStreamIsAnErrorThatSaysTruncated(Compression codec) {
    byte[] whole = Codecs.compress(codec, TEXT);
    byte[] cut = Arrays.copyOf(whole, whole.length / 2);
    assertThatThrownBy(() -> readAll(DecodedStream.open(ByteSource.of("app-1" + Codecs.extension(codec), cut), false)))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("app-1");
  }

  @ParameterizedTest
  @EnumSource(value = Compression.class, names = {"GZIP", "ZSTD", "LZ4", "SNAPPY", "LZF"})
  void aTruncatedStreamIsReadUpToTheCutWhenTolerated(Compression codec) throws IOException {
    byte[] whole = Codecs.compress(codec, TEXT);
    byte[] cut = Arrays.copyOf(whole, whole.length / 2);
    DecodedStream in = DecodedStream.open(ByteSource.of("app-1" + Codecs.extension(codec) + ".inprogress", cut), true);
    byte[] got = readAll(in);
    assertThat(in.truncated()).isTrue();
    assertThat(got.length).isLessThan(TEXT.length);
    assertThat(Arrays.copyOf(TEXT, got.length)).isEqualTo(got);
  }

  @Test
  void aCutOffZstdLogReadInLargeRequestsLosesAtMostOneSmallChunkAtTheCut() throws IOException {
    // Flushed as Spark's event logger flushes, so the cut leaves whole blocks to decode; 1 MiB
    // requests span many of the decoder's chunks, and the ones decoded before the cut must arrive.
    byte[] text = lines(200_000);
    byte[] whole = Codecs.compressFlushing(Compression.ZSTD, text, 500);
    byte[] cut = Arrays.copyOf(whole, whole.length * 2 / 3);
    byte[] decodable;
    try (InputStream continuous =
        new com.github.luben.zstd.ZstdInputStream(new java.io.ByteArrayInputStream(cut)).setContinuous(true)) {
      decodable = continuous.readAllBytes(); // everything before the cut, as far as zstd can tell
    }
    DecodedStream in = DecodedStream.open(ByteSource.of("app-1.zstd.inprogress", cut), true);
    java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
    byte[] buffer = new byte[1 << 20];
    for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
      got.write(buffer, 0, n);
    }
    assertThat(in.truncated()).isTrue();
    assertThat(in.notes()).anySatisfy(n -> assertThat(n).contains("ends early"));
    assertThat(got.size()).isGreaterThanOrEqualTo(decodable.length - 16 * 1024).isLessThan(text.length);
    assertThat(got.toByteArray()).isEqualTo(Arrays.copyOf(text, got.size()));
  }

  @Test
  void anEmptySourceIsReportedEmpty() throws IOException {
    DecodedStream in = DecodedStream.open(ByteSource.of("app-1.zstd", new byte[0]), false);
    assertThat(in.isEmpty()).isTrue();
    assertThat(readAll(in)).isEmpty();
  }
}

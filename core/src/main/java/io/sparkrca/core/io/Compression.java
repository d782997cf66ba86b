package io.sparkrca.core.io;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.ning.compress.lzf.LZFInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4BlockInputStream;
import org.xerial.snappy.SnappyFramedInputStream;
import org.xerial.snappy.SnappyInputStream;

/**
 * The compression formats of Spark event logs and driver logs: Spark's own codecs (lz4 block
 * format, snappy-java's stream format, lzf, zstd) and gzip, which people apply after the fact.
 * Detection looks at the file extension and at the magic bytes; the bytes win when they disagree,
 * because Dataproc and copy tools write compressed logs without (or with wrong) extensions.
 *
 * <pre>{@code
 * Compression c = Compression.fromMagic(source.read(0, 16)).orElse(Compression.NONE);
 * try (InputStream in = c.decompress(source.openStream())) { ... }
 * }</pre>
 */
public enum Compression {
  NONE("", new String[0]),
  GZIP("gzip", new String[] {"gz", "gzip"}),
  ZSTD("zstd", new String[] {"zstd", "zst"}),
  LZ4("lz4", new String[] {"lz4"}),
  SNAPPY("snappy", new String[] {"snappy"}),
  LZF("lzf", new String[] {"lzf"});

  /** How many leading bytes {@link #fromMagic(byte[])} needs to decide. */
  public static final int MAGIC_LENGTH = 16;

  private static final byte[] LZ4_BLOCK_MAGIC = ascii("LZ4Block");
  private static final byte[] SNAPPY_JAVA_MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
  private static final byte[] SNAPPY_FRAMED_MAGIC = {(byte) 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p', 'Y'};
  private static final String[] NOT_SPARK_FORMATS = {"bz2", "xz", "lzma", "br", "7z", "zip", "deflate", "lzo"};

  private final String codecName;
  private final String[] extensions;

  Compression(String codecName, String[] extensions) {
    this.codecName = codecName;
    this.extensions = extensions;
  }

  /** The name Spark uses for this codec ({@code spark.io.compression.codec}), or "" for none. */
  public String codecName() {
    return codecName;
  }

  /** Whether this is a real compression format (not {@link #NONE}). */
  public boolean isCompressed() {
    return this != NONE;
  }

  /**
   * The codec a file name declares, after removing {@code .inprogress}. Empty when the name has no
   * known compression extension (which says nothing: Dataproc writes compressed logs without one).
   *
   * @throws io.sparkrca.core.error.UnsupportedInputException for formats Spark never writes, such
   *     as {@code .bz2} or {@code .xz}
   */
  public static Optional<Compression> fromExtension(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".compact")) {
      name = name.substring(0, name.length() - ".compact".length());
    }
    if (name.endsWith(".inprogress")) {
      name = name.substring(0, name.length() - ".inprogress".length());
    }
    int dot = name.lastIndexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    String ext = name.substring(dot + 1);
    for (Compression c : values()) {
      for (String e : c.extensions) {
        if (e.equals(ext)) {
          return Optional.of(c);
        }
      }
    }
    for (String unsupported : NOT_SPARK_FORMATS) {
      if (unsupported.equals(ext)) {
        throw new io.sparkrca.core.error.UnsupportedInputException(
            fileName + ": compression '" + ext + "' is not a format Spark writes; decompress it "
                + "first (sparkrca reads plain, gzip, zstd, lz4, snappy and lzf)");
      }
    }
    return Optional.empty();
  }

  /** The codec whose magic bytes start {@code head}, if any. */
  public static Optional<Compression> fromMagic(byte[] head) {
    if (startsWith(head, new byte[] {0x1f, (byte) 0x8b})) {
      return Optional.of(GZIP);
    }
    if (startsWith(head, new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd})) {
      return Optional.of(ZSTD);
    }
    if (startsWith(head, LZ4_BLOCK_MAGIC)) {
      return Optional.of(LZ4);
    }
    if (startsWith(head, SNAPPY_JAVA_MAGIC) || startsWith(head, SNAPPY_FRAMED_MAGIC)) {
      return Optional.of(SNAPPY);
    }
    if (head.length >= 3 && head[0] == 'Z' && head[1] == 'V' && (head[2] == 0 || head[2] == 1)) {
      return Optional.of(LZF);
    }
    return Optional.empty();
  }

  /**
   * Wraps {@code in} in this codec's decompressor; {@link #NONE} returns {@code in}. The head of
   * the stream is peeked for snappy, which has two stream formats.
   */
  public InputStream decompress(InputStream in) throws IOException {
    switch (this) {
      case NONE:
        return in;
      case GZIP:
        return new GZIPInputStream(in, 64 * 1024);
      case ZSTD:
        return new ZstdInputStreamNoFinalizer(in);
      case LZ4:
        // Not stopping at the first empty block also reads concatenated lz4 streams.
        return new LZ4BlockInputStream(in, false);
      case SNAPPY:
        java.io.BufferedInputStream buffered = new java.io.BufferedInputStream(in, 64 * 1024);
        buffered.mark(SNAPPY_FRAMED_MAGIC.length);
        byte[] head = buffered.readNBytes(SNAPPY_FRAMED_MAGIC.length);
        buffered.reset();
        return startsWith(head, SNAPPY_FRAMED_MAGIC)
            ? new SnappyFramedInputStream(buffered)
            : new SnappyInputStream(buffered);
      case LZF:
        return new LZFInputStream(in);
      default:
        throw new AssertionError(this);
    }
  }

  private static boolean startsWith(byte[] head, byte[] magic) {
    if (head.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if (head[i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}

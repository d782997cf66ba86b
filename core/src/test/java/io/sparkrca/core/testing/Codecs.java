package io.sparkrca.core.testing;

import com.github.luben.zstd.ZstdOutputStream;
import com.ning.compress.lzf.LZFOutputStream;
import io.sparkrca.core.io.Compression;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/** Compresses test data with the real codec libraries, in the stream formats Spark writes. */
public final class Codecs {
  private Codecs() {}

  public static byte[] compress(Compression codec, byte[] data) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = wrap(codec, bytes)) {
      out.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Compresses line by line, flushing every {@code linesPerFlush} lines, as Spark's event logger
   * flushes while an application runs (so a copy cut mid-stream still decodes up to the cut).
   */
  public static byte[] compressFlushing(Compression codec, byte[] data, int linesPerFlush) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = wrap(codec, bytes)) {
      int lines = 0;
      int start = 0;
      for (int i = 0; i < data.length; i++) {
        if (data[i] == '\n') {
          out.write(data, start, i + 1 - start);
          start = i + 1;
          if (++lines % linesPerFlush == 0) {
            out.flush();
          }
        }
      }
      out.write(data, start, data.length - start);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static OutputStream wrap(Compression codec, OutputStream out) throws IOException {
    switch (codec) {
      case NONE:
        return out;
      case GZIP:
        return new GZIPOutputStream(out);
      case ZSTD:
        return new ZstdOutputStream(out);
      case LZ4:
        return new LZ4BlockOutputStream(out, 32 * 1024);
      case SNAPPY:
        return new SnappyOutputStream(out, 32 * 1024);
      case LZF:
        return new LZFOutputStream(out);
      default:
        throw new AssertionError(codec);
    }
  }

  /** The file extension Spark uses for the codec ("" for none). */
  public static String extension(Compression codec) {
    return codec == Compression.NONE ? "" : codec == Compression.GZIP ? ".gz" : "." + codec.codecName();
  }
}

package io.sparkrca.core.io;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.UnsupportedInputException;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The decompressed content of a {@link ByteSource}, with the codec detected from the name and the
 * magic bytes (one request: the head is peeked from the same stream). Decoding failures become
 * {@link CorruptInputException}s that name the source; a stream that simply ends early can be
 * tolerated (an in-progress log), in which case {@link #truncated()} reports it.
 *
 * <pre>{@code
 * try (DecodedStream in = DecodedStream.open(ByteSource.of(path), true)) {
 *   ... read lines ...
 *   if (in.truncated()) warn("the log ends mid-stream");
 * }
 * }</pre>
 */
public final class DecodedStream extends FilterInputStream {
  /**
   * What the error about a stream cut off says to do: copy it again, or, for an application still
   * running, read it as in progress (tolerating the cut). A command line may say it with its own option.
   */
  public static final Remedy TRUNCATED = Remedy.of("read.truncated",
      "copy the file again, or if the application is still running read it as in progress");

  private static final int ZSTD_CHUNK = 16 * 1024;
  private final ByteSource source;
  private final Compression compression;
  private final List<String> notes;
  private final boolean tolerateTruncation;
  private final boolean empty;
  private final byte[] head;
  private boolean truncated;
  private long bytesRead;
  /** A failure met after some bytes were decoded: reported by the next read. */
  private IOException pending;

  private DecodedStream(
      InputStream decoded,
      ByteSource source,
      Compression compression,
      List<String> notes,
      boolean tolerateTruncation,
      byte[] head) {
    super(decoded);
    this.source = source;
    this.compression = compression;
    this.notes = notes;
    this.tolerateTruncation = tolerateTruncation;
    this.empty = head.length == 0;
    this.head = head;
  }

  /**
   * Opens and decodes {@code source}.
   *
   * @param tolerateTruncation whether a compressed stream that ends early is read up to where it
   *     ends (true, for logs still being written) or is an error (false)
   */
  public static DecodedStream open(ByteSource source, boolean tolerateTruncation)
      throws IOException {
    Optional<Compression> byName = Compression.fromExtension(source.fileName());
    InputStream raw = new SourceFailureMarker(source.openStream());
    try {
      byte[] head = raw.readNBytes(Compression.MAGIC_LENGTH);
      List<String> notes = new ArrayList<>();
      Compression codec = choose(source, byName, head, notes);
      InputStream whole = new SequenceInputStream(new ByteArrayInputStream(head), raw);
      InputStream decoded = head.length == 0 ? whole : codec.decompress(whole);
      return new DecodedStream(decoded, source, codec, notes, tolerateTruncation, head);
    } catch (IOException | RuntimeException | org.xerial.snappy.SnappyError e) {
      raw.close();
      if (e instanceof SourceIOException s) {
        throw s.original();
      }
      if (e instanceof IOException io) {
        throw decodeError(source, byName.orElse(Compression.NONE), io);
      }
      if (e instanceof io.sparkrca.core.error.SparkRcaException r) {
        throw r;
      }
      // A decoder that fails on the first bytes with its own exception: the header is corrupt.
      throw decodeError(source, byName.orElse(Compression.NONE),
          new IOException("corrupt header: " + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e));
    }
  }

  /**
   * The codec of {@code source}, decided as {@link #open} decides it (extension and magic bytes,
   * the bytes winning) from one small ranged read of its first bytes, without opening a stream.
   *
   * <pre>{@code
   * DecodedStream.Detection d = DecodedStream.detect(source);
   * if (!d.compression().isCompressed()) { ... ranged reads are byte offsets into the text ... }
   * }</pre>
   */
  public static Detection detect(ByteSource source) throws IOException {
    Optional<Compression> byName = Compression.fromExtension(source.fileName());
    byte[] head = source.read(0, Compression.MAGIC_LENGTH);
    List<String> notes = new ArrayList<>();
    Compression codec = choose(source, byName, head, notes);
    return new Detection(codec, List.copyOf(notes), head.length == 0);
  }

  /**
   * What {@link #detect(ByteSource)} found.
   *
   * <pre>{@code
   * Detection d = DecodedStream.detect(ByteSource.of(Path.of("application_1700000000000_0001")));
   * d.compression();  // GZIP, found from the magic bytes although the name has no extension
   * }</pre>
   *
   * @param compression the codec to decode with ({@link Compression#NONE} for plain text)
   * @param notes observations, e.g. a name that disagrees with the content
   * @param empty whether the source holds no bytes at all
   */
  public record Detection(Compression compression, List<String> notes, boolean empty) {
    public Detection {
      java.util.Objects.requireNonNull(compression, "compression");
      notes = List.copyOf(notes);
    }
  }

  private static Compression choose(
      ByteSource source, Optional<Compression> byName, byte[] head, List<String> notes) {
    if (head.length == 0) {
      return byName.orElse(Compression.NONE);
    }
    Optional<Compression> byMagic = Compression.fromMagic(head);
    if (byMagic.isPresent()) {
      if (byName.isPresent() && byName.get() != byMagic.get()) {
        notes.add(
            source.fileName() + " is named as " + byName.get().codecName() + " but holds "
                + byMagic.get().codecName() + " data; read it as " + byMagic.get().codecName());
      }
      return byMagic.get();
    }
    if (head.length >= 4
        && head[0] == 0x04 && head[1] == 0x22 && head[2] == 0x4d && head[3] == 0x18) {
      throw new UnsupportedInputException(
          source.name() + " is in the LZ4 frame format, not the lz4 block format Spark writes; "
              + "decompress it with the lz4 tool first");
    }
    if (byName.isPresent() && byName.get().isCompressed()) {
      if (looksLikeText(head)) {
        notes.add(
            source.fileName() + " is named as " + byName.get().codecName()
                + " but is not compressed; read it as plain text");
        return Compression.NONE;
      }
      throw new CorruptInputException(
          source.name() + ": named as " + byName.get().codecName() + " but it does not start with "
              + byName.get().codecName() + " magic bytes (starts with " + hex(head) + "); the file is "
              + "corrupt or in another format. Check how it was copied");
    }
    return Compression.NONE;
  }

  static boolean looksLikeText(byte[] head) {
    for (byte b : head) {
      int c = b & 0xff;
      if (c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b) || c == 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte[] head) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(8, head.length); i++) {
      sb.append(String.format(Locale.ROOT, "%02x", head[i] & 0xff));
    }
    return sb.toString();
  }

  /**
   * The first bytes of the source as stored, before decoding (at most
   * {@link Compression#MAGIC_LENGTH}), which decided the codec: enough to tell what else a file is
   * ({@link BinaryFormat#detect}) without reading further.
   */
  public byte[] head() {
    return head.clone();
  }

  /** The codec the content was decoded with. */
  public Compression compression() {
    return compression;
  }

  /** Observations made while opening, e.g. a name that disagreed with the content. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** Whether the source held no bytes at all. */
  public boolean isEmpty() {
    return empty;
  }

  /** Whether a compressed stream ended early and the rest was given up (tolerated mode only). */
  public boolean truncated() {
    return truncated;
  }

  /** Decompressed bytes delivered so far. */
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  public int read() throws IOException {
    return SingleByteRead.from(this);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (truncated) {
      return -1;
    }
    if (pending != null) {
      IOException e = pending;
      pending = null;
      return fail(e);
    }
    if (compression == Compression.ZSTD) {
      return readZstd(b, off, len);
    }
    try {
      int n = in.read(b, off, len);
      if (n > 0) {
        bytesRead += n;
      }
      return n;
    } catch (IOException e) {
      return fail(e);
    } catch (RuntimeException | org.xerial.snappy.SnappyError e) {
      return fail(decoderFailure(e));
    }
  }

  /**
   * A decoder's own exception on corrupt input (compress-lzf, for one, indexes out of its buffers
   * on damaged chunk headers, snappy-java throws an {@code Error}) as the decoding error it is;
   * anything else is not the decoder's.
   */
  private IOException decoderFailure(Throwable e) {
    if (!compression.isCompressed()) {
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw (Error) e;
    }
    return new IOException("corrupt data: the " + compression.codecName() + " decoder failed with "
        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")")
        + " after " + bytesRead + " decompressed bytes", e);
  }

  /**
   * zstd-jni fills a whole request before returning and throws away what it decoded when the
   * source then ends early, so it is asked for small chunks (the loss at a cut-off end is at most
   * one chunk), as many as fit the caller's request (a line reader then gets large reads, which
   * costs it less than one small read at a time: about 0.3 CPU s less for a 3.5 GB log). A failure
   * after some chunks is reported on the next read, after the bytes decoded before it.
   */
  private int readZstd(byte[] b, int off, int len) throws IOException {
    int n = 0;
    while (n < len) {
      int r;
      try {
        try {
          r = in.read(b, off + n, Math.min(len - n, ZSTD_CHUNK));
        } catch (RuntimeException | org.xerial.snappy.SnappyError e) {
          throw decoderFailure(e);
        }
      } catch (IOException e) {
        if (n == 0) {
          return fail(e);
        }
        pending = e;
        break;
      }
      if (r < 0) {
        break;
      }
      n += r;
      bytesRead += r;
    }
    return n == 0 && len > 0 ? -1 : n;
  }

  /** What a read failure becomes: the end of a tolerated truncation, or an exception. */
  private int fail(IOException e) throws IOException {
    if (e instanceof SourceIOException s) {
      throw s.original();
    }
    if (isTruncation(e) && tolerateTruncation) {
      truncated = true;
      notes.add(
          source.fileName() + ": the " + compression.codecName() + " stream ends early after "
              + bytesRead + " decompressed bytes; read up to there");
      return -1;
    }
    throw decodeError(source, compression, e);
  }

  private static CorruptInputException decodeError(
      ByteSource source, Compression compression, IOException e) {
    String codec = compression.isCompressed() ? compression.codecName() : "input";
    if (isTruncation(e)) {
      return new CorruptInputException(
          source.name() + ": the " + codec + " stream is cut off (truncated: " + e.getMessage() + "); ", TRUNCATED, e);
    }
    return new CorruptInputException(
        source.name() + ": cannot decode the " + codec + " stream (" + e.getMessage() + "); the "
            + "file is corrupt or not " + codec + " data",
        e);
  }

  private static boolean isTruncation(IOException e) {
    if (e instanceof EOFException) {
      return true;
    }
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    return m.contains("truncated")
        || m.contains("unexpected end")
        || m.contains("premature")
        || m.contains("ended prematurely")
        || m.contains("end of stream")
        || m.contains("eof")
        || m.contains("failed to read chunk");
  }

  /** Marks failures of the underlying source so they are not mistaken for decoding errors. */
  private static final class SourceFailureMarker extends FilterInputStream {
    SourceFailureMarker(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return in.read();
      } catch (IOException e) {
        throw new SourceIOException(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return in.read(b, off, len);
      } catch (IOException e) {
        throw new SourceIOException(e);
      }
    }
  }

  private static final class SourceIOException extends IOException {
    private static final long serialVersionUID = 1L;

    SourceIOException(IOException cause) {
      super(cause.getMessage(), cause);
    }

    IOException original() {
      return (IOException) getCause();
    }
  }
}

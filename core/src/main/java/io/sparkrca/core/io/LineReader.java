package io.sparkrca.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Splits a byte stream into lines without creating an object per line: the current line is a
 * window into a reused buffer. {@code \n}, {@code \r\n} and a lone {@code \r} each end a line.
 *
 * <p>Memory is bounded by {@code maxLineBytes}: a longer line is cut at that length, its remainder
 * is skipped without being buffered, and {@link #lineTruncated()} says so.
 *
 * <pre>{@code
 * try (LineReader lines = new LineReader(in, 1 << 20)) {
 *   while (lines.next()) {
 *     parse(lines.buffer(), lines.start(), lines.length());
 *   }
 * }
 * }</pre>
 */
public final class LineReader implements Closeable {
  private static final int MIN_BUFFER = 64 * 1024;

  private final InputStream in;
  private final int maxLineBytes;
  private byte[] buf;
  private int pos; // next byte to scan
  private int limit; // end of valid data in buf
  private long bufOffset; // stream offset of buf[0]
  private boolean eof;

  private byte[] lineBuf;
  private int lineStart;
  private int lineLength;
  private long lineNumber;
  private long lineOffset;
  private long fullLength;
  private boolean truncated;
  private byte[] overflow; // holds the kept head of a line longer than the buffer allows

  /**
   * @param in the stream to split; closed by {@link #close()}
   * @param maxLineBytes the longest line kept whole; longer lines are cut to this length
   */
  public LineReader(InputStream in, int maxLineBytes) {
    this.in = Objects.requireNonNull(in, "in");
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive");
    }
    this.maxLineBytes = maxLineBytes;
    this.buf = new byte[Math.min(MIN_BUFFER, Math.max(4096, maxLineBytes + 1))];
  }

  /** Advances to the next line; false at the end of the stream. */
  public boolean next() throws IOException {
    int start = pos;
    int scan = pos;
    while (true) {
      // Scan for a terminator within the buffered data.
      for (int i = scan; i < limit; i++) {
        byte b = buf[i];
        if (b == '\n' || b == '\r') {
          if (i - start > maxLineBytes) {
            // The line grew past the cap while we were filling: deliver its head only.
            return deliverTruncated(start, i - start, i);
          }
          return deliver(start, i - start, i);
        }
      }
      scan = limit;
      if (limit - start > maxLineBytes) {
        return skipOverlongLine(start);
      }
      if (eof) {
        if (start < limit) {
          setLine(buf, start, limit - start, start, limit - start, false);
          pos = limit;
          return true;
        }
        return false;
      }
      // Make room: move the partial line to the front, grow if it fills the buffer.
      if (start > 0) {
        System.arraycopy(buf, start, buf, 0, limit - start);
        bufOffset += start;
        scan -= start;
        limit -= start;
        start = 0;
      }
      if (limit == buf.length) {
        buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, (long) maxLineBytes + MIN_BUFFER));
      }
      fill();
    }
  }

  private boolean deliver(int start, int length, int terminatorAt) throws IOException {
    setLine(buf, start, length, start, length, false);
    pos = consumeTerminator(terminatorAt);
    return true;
  }

  private boolean deliverTruncated(int start, int fullLen, int terminatorAt) throws IOException {
    setLine(buf, start, maxLineBytes, start, fullLen, true);
    pos = consumeTerminator(terminatorAt);
    return true;
  }

  /** Keeps the first maxLineBytes of the line, then discards the rest up to its terminator. */
  private boolean skipOverlongLine(int start) throws IOException {
    if (overflow == null) {
      overflow = new byte[maxLineBytes];
    }
    System.arraycopy(buf, start, overflow, 0, maxLineBytes);
    long startOffset = bufOffset + start;
    long length = limit - start;
    pos = limit;
    while (true) {
      if (pos == limit) {
        bufOffset += limit;
        pos = 0;
        limit = 0;
        if (eof) {
          break;
        }
        fill();
        if (limit == 0) {
          break;
        }
      }
      byte b = buf[pos];
      if (b == '\n' || b == '\r') {
        lineNumber++;
        applyLine(overflow, 0, maxLineBytes, startOffset, length, true);
        pos = consumeTerminator(pos);
        return true;
      }
      pos++;
      length++;
    }
    lineNumber++;
    applyLine(overflow, 0, maxLineBytes, startOffset, length, true);
    return true;
  }

  /** Returns the index after the terminator at {@code i}, treating CR LF as one. */
  private int consumeTerminator(int i) throws IOException {
    if (buf[i] == '\r') {
      if (i + 1 == limit && !eof) {
        // Need one more byte to know whether this CR starts a CR LF pair. The current line may
        // live in buf, so copy it out before the buffer is reused (rare: only at a buffer edge).
        if (lineBuf == buf) {
          lineBuf = Arrays.copyOfRange(buf, lineStart, lineStart + lineLength);
          lineStart = 0;
        }
        buf[0] = '\r';
        bufOffset += i;
        limit = 1;
        fill();
        i = 0;
      }
      if (i + 1 < limit && buf[i + 1] == '\n') {
        return i + 2;
      }
    }
    return i + 1;
  }

  private void setLine(byte[] b, int start, int length, int offsetInBuf, long full, boolean cut) {
    lineNumber++;
    applyLine(b, start, length, bufOffset + offsetInBuf, full, cut);
  }

  private void applyLine(byte[] b, int start, int length, long offset, long full, boolean cut) {
    lineBuf = b;
    lineStart = start;
    lineLength = length;
    lineOffset = offset;
    fullLength = full;
    truncated = cut;
  }

  private void fill() throws IOException {
    while (limit < buf.length) {
      int n = in.read(buf, limit, buf.length - limit);
      if (n < 0) {
        eof = true;
        return;
      }
      limit += n;
      if (n > 0) {
        return;
      }
    }
  }

  /** The buffer holding the current line; valid until the next call to {@link #next()}. */
  public byte[] buffer() {
    return lineBuf;
  }

  /** Where the current line starts in {@link #buffer()}. */
  public int start() {
    return lineStart;
  }

  /** The number of bytes of the current line kept in {@link #buffer()} (terminator excluded). */
  public int length() {
    return lineLength;
  }

  /** The 1-based number of the current line. */
  public long lineNumber() {
    return lineNumber;
  }

  /** The offset of the current line's first byte in the (decompressed) stream. */
  public long byteOffset() {
    return lineOffset;
  }

  /** Whether the current line was longer than the cap and was cut. */
  public boolean lineTruncated() {
    return truncated;
  }

  /** The current line's real length in bytes, even when it was cut. */
  public long fullLength() {
    return fullLength;
  }

  /** The current line decoded as UTF-8. */
  public String lineAsString() {
    return new String(lineBuf, lineStart, lineLength, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}

package io.sparkrca.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Splits a byte stream into lines without creating an object per line: the current line is a
 * window into a reused buffer. {@code \n}, {@code \r\n} and a lone {@code \r} each end a line (as
 * {@link java.io.BufferedReader#readLine()} does); a {@code \r\n} split across two reads is still
 * one terminator.
 *
 * <p>Memory is bounded by {@code maxLineBytes}: a longer line is cut at that length, its remainder
 * is skipped without being buffered, and {@link #lineTruncated()} says so. Terminators are found
 * eight bytes at a time, so splitting runs at several GB/s.
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
  /** The largest accepted line cap (256 MiB), so that buffers stay far from array limits. */
  public static final int MAX_LINE_CAP = 256 * 1024 * 1024;

  private static final int MIN_BUFFER = 64 * 1024;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long LFS = 0x0A0A0A0A0A0A0A0AL;
  private static final long CRS = 0x0D0D0D0D0D0D0D0DL;

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
   * @param maxLineBytes the longest line kept whole (1 to {@link #MAX_LINE_CAP}); longer lines are
   *     cut to this length
   */
  public LineReader(InputStream in, int maxLineBytes) {
    this(in, maxLineBytes, MIN_BUFFER);
  }

  /**
   * @param in the stream to split; closed by {@link #close()}
   * @param maxLineBytes the longest line kept whole (1 to {@link #MAX_LINE_CAP})
   * @param bufferBytes the initial read buffer size, 4 KiB to 16 MiB (it grows up to about
   *     {@code maxLineBytes} only while a line longer than the buffer is being read)
   */
  public LineReader(InputStream in, int maxLineBytes, int bufferBytes) {
    this.in = Objects.requireNonNull(in, "in");
    if (maxLineBytes < 1 || maxLineBytes > MAX_LINE_CAP) {
      throw new IllegalArgumentException(
          "maxLineBytes must be between 1 and " + MAX_LINE_CAP + ", was " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
    this.buf = new byte[Math.max(4096, Math.min(bufferBytes, 16 * 1024 * 1024))];
  }

  /** Advances to the next line; false at the end of the stream. */
  public boolean next() throws IOException {
    int start = pos;
    int scan = pos;
    while (true) {
      int t = indexOfTerminator(buf, scan, limit);
      if (t >= 0) {
        int length = t - start;
        if (length > maxLineBytes) {
          // The whole over-long line happened to be buffered: deliver its head only.
          setLine(buf, start, maxLineBytes, start, length, true);
        } else {
          setLine(buf, start, length, start, length, false);
        }
        pos = consumeTerminator(t);
        return true;
      }
      scan = limit;
      if (limit - start > maxLineBytes) {
        return skipOverlongLine(start);
      }
      if (eof) {
        pos = limit;
        if (start < limit) {
          setLine(buf, start, limit - start, start, limit - start, false);
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
        long grown = Math.min((long) buf.length * 2, (long) maxLineBytes + MIN_BUFFER);
        buf = Arrays.copyOf(buf, (int) grown);
      }
      fill();
    }
  }

  /**
   * Keeps the first maxLineBytes of the line at {@code start} (all of which are buffered), then
   * discards the rest up to its terminator, refilling the buffer as needed.
   */
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
      int t = indexOfTerminator(buf, pos, limit);
      if (t >= 0) {
        length += t - pos;
        lineNumber++;
        applyLine(overflow, 0, maxLineBytes, startOffset, length, true);
        pos = consumeTerminator(t);
        return true;
      }
      length += limit - pos;
      pos = limit;
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

  /**
   * The index of the first {@code \n} or {@code \r} in {@code b[from, to)}, or -1. Words of eight
   * bytes are tested at once (the classic "has a zero byte" bit trick on {@code w ^ 0x0A..} and
   * {@code w ^ 0x0D..}); the lowest flagged byte is always a real hit.
   */
  static int indexOfTerminator(byte[] b, int from, int to) {
    int i = from;
    for (int end = to - 8; i <= end; i += 8) {
      long w = (long) LONGS.get(b, i);
      long x = w ^ LFS;
      long y = w ^ CRS;
      long hit = ((x - ONES) & ~x | (y - ONES) & ~y) & HIGHS;
      if (hit != 0) {
        return i + (Long.numberOfTrailingZeros(hit) >>> 3);
      }
    }
    for (; i < to; i++) {
      byte c = b[i];
      if (c == '\n' || c == '\r') {
        return i;
      }
    }
    return -1;
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

  /** The 1-based number of the current line; 0 before the first call to {@link #next()}. */
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

  /** The current line's real length in bytes (terminator excluded), even when it was cut. */
  public long fullLength() {
    return fullLength;
  }

  /** The line cap this reader was created with. */
  public int maxLineBytes() {
    return maxLineBytes;
  }

  /** The current capacity of the read buffer; for tests that check memory stays bounded. */
  int bufferCapacity() {
    return buf.length;
  }

  /** The current line decoded as UTF-8 (malformed bytes become U+FFFD). */
  public String lineAsString() {
    return new String(lineBuf, lineStart, lineLength, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}

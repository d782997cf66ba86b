package io.sparkrca.core.io;

import io.sparkrca.core.error.Remedy;
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
  /** What a strict reader's error about a line over the cap says to do. A command line may say it with its own option. */
  public static final Remedy RAISE_LINE_CAP = Remedy.of("read.line-cap", "raise the line cap to read it whole");

  /** The largest accepted line cap (256 MiB), so that buffers stay far from array limits. */
  public static final int MAX_LINE_CAP = 256 * 1024 * 1024;

  private static final int MIN_BUFFER = 64 * 1024;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long LFS = 0x0A0A0A0A0A0A0A0AL;
  private static final long CRS = 0x0D0D0D0D0D0D0D0DL;
  /** Each byte one above CR: {@code (w - BELOW_CR) & ~w} flags bytes below 0x0E. */
  private static final long BELOW_CR = 0x0E0E0E0E0E0E0E0EL;

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
  private boolean unterminated; // the current line ended with the stream, without a terminator
  private String strictSource; // non-null: a cut or unterminated line is an error naming this source

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
      throw new io.sparkrca.core.error.InvalidRequestException(
          "maxLineBytes must be between 1 and " + MAX_LINE_CAP + ", was " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
    this.buf = new byte[Math.max(4096, Math.min(bufferBytes, 16 * 1024 * 1024))];
  }

  /**
   * Makes a damaged line an error instead of a flag: a line cut at {@code maxLineBytes}, or a last
   * line that ends with the stream without a terminator (a log cut off or still being written).
   * Strict reading splits every line (no whole-buffer skipping), so it is slower.
   *
   * @param sourceName the input named in the error
   */
  public LineReader strict(String sourceName) {
    this.strictSource = Objects.requireNonNull(sourceName, "sourceName");
    return this;
  }

  /** Advances to the next line; false at the end of the stream. */
  public boolean next() throws IOException {
    boolean found = nextLine();
    if (found && strictSource != null) {
      if (truncated) {
        throw new io.sparkrca.core.error.CorruptInputException(strictSource + ": line " + lineNumber + " is "
            + fullLength + " bytes, longer than the " + maxLineBytes + "-byte line cap, and was cut; ", RAISE_LINE_CAP);
      }
      if (unterminated) {
        throw new io.sparkrca.core.error.CorruptInputException(strictSource + ": the log ends in the middle of line "
            + lineNumber + " (no line end after it): it was cut off, or is still being written");
      }
    }
    return found;
  }

  /** Whether the line just read ended with the stream, without a line terminator. */
  public boolean lineUnterminated() {
    return unterminated;
  }

  private boolean nextLine() throws IOException {
    unterminated = false;
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
          unterminated = true;
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
   * Finds where a match may be: the first position in {@code b[from, to)} at which a line could
   * match, or -1 when none can. It may report false candidates, never miss a real one.
   *
   * <pre>{@code
   * LineReader.Candidates errors = (b, from, to) -> indexOf(b, from, to, "ERROR");
   * }</pre>
   */
  @FunctionalInterface
  public interface Candidates {
    int indexOf(byte[] b, int from, int to);
  }

  /**
   * Receives lines that {@link #skipUntil} skipped.
   *
   * <pre>{@code
   * LineReader.SkippedLine keep = (b, start, len, number, offset, cut, full) -> ring.add(b, start, len);
   * }</pre>
   */
  @FunctionalInterface
  public interface SkippedLine {
    /**
     * @param b the buffer holding the line (valid during the call only)
     * @param start where the line starts in {@code b}
     * @param length the bytes kept (at most the cap)
     * @param number its 1-based number
     * @param offset its byte offset in the stream
     * @param truncated whether it was cut at the cap
     * @param fullLength its real length
     */
    void line(byte[] b, int start, int length, long number, long offset, boolean truncated, long fullLength);
  }

  /**
   * Skips, without delivering them, the complete lines already buffered that come before the first
   * position {@code candidates} reports in the buffered data (all of them when it reports none).
   * {@link #lineNumber()} stays exact. The next {@link #next()} delivers the line holding the
   * candidate, or reads on. This lets a search test whole buffers for a required literal instead
   * of testing every line.
   *
   * <pre>{@code
   * while (true) {
   *   lines.skipUntil(finder, 0, null);
   *   if (!lines.next()) break;
   *   if (matches(lines)) ...
   * }
   * }</pre>
   *
   * @param keepLast how many of the skipped lines, the last ones, to hand to {@code sink} (a
   *     search's before-context)
   * @return the number of lines skipped
   */
  public long skipUntil(Candidates candidates, int keepLast, SkippedLine sink) {
    if (pos >= limit || strictSource != null) {
      return 0; // strict reading checks every line in next()
    }
    int c = candidates.indexOf(buf, pos, limit);
    // The skipped region ends where the line holding the candidate (or the partial last line) starts.
    int end = lineStartBefore(c >= 0 ? c : limit);
    if (end > pos && end < limit && buf[end - 1] == '\r' && buf[end] == '\n') {
      end++; // CR LF is one terminator
    }
    if (end == limit && end > pos && buf[end - 1] == '\r' && !eof) {
      // A CR at the very end may be the first half of a CR LF: leave its line for next().
      end = lineStartBefore(end - 1);
    }
    if (end <= pos) {
      return 0;
    }
    long skipped = countTerminators(buf, pos, end);
    if (keepLast > 0 && sink != null && skipped > 0) {
      deliverLast(pos, end, (int) Math.min(keepLast, skipped), sink);
    }
    lineNumber += skipped;
    pos = end;
    return skipped;
  }

  /** The start of the line holding index {@code i}: just after the last terminator before it. */
  private int lineStartBefore(int i) {
    for (int k = i - 1; k >= pos; k--) {
      byte b = buf[k];
      if (b == '\n' || b == '\r') {
        return k + 1;
      }
    }
    return pos;
  }

  /** Hands the last {@code n} complete lines of {@code buf[from, end)} to the sink, oldest first. */
  private void deliverLast(int from, int end, int n, SkippedLine sink) {
    int[] starts = new int[n];
    int[] ends = new int[n];
    int k = end; // just after a terminator
    for (int found = 0; found < n; found++) {
      int lineEnd = k - 1; // the terminator
      if (buf[lineEnd] == '\n' && lineEnd - 1 >= from && buf[lineEnd - 1] == '\r') {
        lineEnd--;
      }
      int s = lineEnd;
      while (s > from && buf[s - 1] != '\n' && buf[s - 1] != '\r') {
        s--;
      }
      starts[n - 1 - found] = s;
      ends[n - 1 - found] = lineEnd;
      k = s;
    }
    long first = lineNumber + countTerminators(buf, from, starts[0]) + 1;
    for (int i = 0; i < n; i++) {
      int len = ends[i] - starts[i];
      boolean cut = len > maxLineBytes;
      sink.line(buf, starts[i], cut ? maxLineBytes : len, first + i, bufOffset + starts[i], cut, len);
    }
  }

  /** The number of line terminators in {@code b[from, to)}: LF, lone CR, and CR LF as one. */
  static long countTerminators(byte[] b, int from, int to) {
    long lfs = 0;
    long crs = 0;
    long pairs = 0; // CR immediately followed by LF
    boolean prevCr = false;
    int i = from;
    for (int end = to - 8; i <= end; i += 8) {
      long w = (long) LONGS.get(b, i);
      long x = w ^ LFS;
      long y = w ^ CRS;
      if ((((x - ONES) & ~x | (y - ONES) & ~y) & HIGHS) == 0) {
        prevCr = false; // most words hold no terminator at all
        continue;
      }
      long lf = exactZeros(x);
      long cr = exactZeros(y);
      lfs += Long.bitCount(lf);
      if (cr != 0 || prevCr) {
        crs += Long.bitCount(cr);
        pairs += Long.bitCount((cr << 8) & lf);
        if (prevCr && (lf & 0x80L) != 0) {
          pairs++;
        }
      }
      prevCr = (cr & 0x8000000000000000L) != 0;
    }
    for (; i < to; i++) {
      byte c = b[i];
      if (c == '\n') {
        lfs++;
        if (prevCr) {
          pairs++;
        }
        prevCr = false;
      } else {
        if (c == '\r') {
          crs++;
        }
        prevCr = c == '\r';
      }
    }
    return lfs + crs - pairs;
  }

  /** Bit 7 of each byte of the result is set exactly where {@code t} has a zero byte. */
  private static long exactZeros(long t) {
    return ~(((t & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | t | 0x7F7F7F7F7F7F7F7FL);
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
    unterminated = true;
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
   * bytes are tested at once with a single comparison, "has a byte below 0x0E" (the classic bit
   * trick: the lowest flagged byte is always a real one); only a flagged word is then looked at
   * byte by byte, since the flag also catches the other control bytes up to CR, which text lines
   * (and JSON, which escapes them) hardly ever hold. Twice as fast as testing for LF and CR
   * separately, which made splitting a large share of the reading thread's time.
   */
  static int indexOfTerminator(byte[] b, int from, int to) {
    int i = from;
    for (int end = to - 8; i <= end; i += 8) {
      long w = (long) LONGS.get(b, i);
      long low = (w - BELOW_CR) & ~w & HIGHS;
      if (low != 0) {
        for (int j = i + (Long.numberOfTrailingZeros(low) >>> 3), stop = i + 8; j < stop; j++) {
          byte c = b[j];
          if (c == '\n' || c == '\r') {
            return j;
          }
        }
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

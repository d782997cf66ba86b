package io.sparkrca.core.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  /** One line as the reader reports it. */
  record Line(String text, long number, long offset, long fullLength, boolean truncated) {}

  @Test
  void splitsOnLfCrLfAndLoneCr() throws IOException {
    List<Line> lines = read("a\nb\r\nc\rd", 100);
    assertThat(lines).extracting(Line::text).containsExactly("a", "b", "c", "d");
    assertThat(lines).extracting(Line::number).containsExactly(1L, 2L, 3L, 4L);
    assertThat(lines).extracting(Line::offset).containsExactly(0L, 2L, 5L, 7L);
  }

  @Test
  void keepsEmptyLinesAndDropsNothingAtTheEnd() throws IOException {
    assertThat(read("", 10)).isEmpty();
    assertThat(read("\n", 10)).extracting(Line::text).containsExactly("");
    assertThat(read("\n\n", 10)).extracting(Line::text).containsExactly("", "");
    assertThat(read("\r\n", 10)).extracting(Line::text).containsExactly("");
    assertThat(read("\r\r\n", 10)).extracting(Line::text).containsExactly("", "");
    assertThat(read("\n\r", 10)).extracting(Line::text).containsExactly("", "");
    assertThat(read("x", 10)).extracting(Line::text).containsExactly("x");
    assertThat(read("x\n", 10)).extracting(Line::text).containsExactly("x");
  }

  @Test
  void crLfSplitAcrossReadsIsOneTerminator() throws IOException {
    // One byte per read puts every CR at a buffer edge.
    List<Line> lines = readAll(new Trickle("one\r\ntwo\r\nthree\r".getBytes(UTF_8), 1), 100, 4096);
    assertThat(lines).extracting(Line::text).containsExactly("one", "two", "three");
    assertThat(lines).extracting(Line::offset).containsExactly(0L, 5L, 10L);
  }

  @Test
  void crAtTheEdgeOfAFullBufferKeepsTheLineIntact() throws IOException {
    // A 4096-byte buffer: the CR lands exactly at index 4095 after the first fill.
    byte[] line = new byte[4095];
    Arrays.fill(line, (byte) 'x');
    String text = new String(line, UTF_8) + "\r\nnext\n";
    List<Line> lines = readAll(new Trickle(text.getBytes(UTF_8), 4096), 10_000, 4096);
    assertThat(lines).extracting(Line::text).containsExactly(new String(line, UTF_8), "next");
    assertThat(lines.get(1).offset()).isEqualTo(4097);
  }

  @Test
  void lineExactlyAtTheCapIsNotCut() throws IOException {
    List<Line> lines = read("abcde\nabcdef\n", 5);
    assertThat(lines.get(0)).isEqualTo(new Line("abcde", 1, 0, 5, false));
    assertThat(lines.get(1)).isEqualTo(new Line("abcde", 2, 6, 6, true));
  }

  @Test
  void overlongLineIsCutAndTheRestSkippedWithoutBufferingIt() throws IOException {
    int cap = 1024;
    long huge = 50L * 1024 * 1024;
    InputStream in =
        new java.io.SequenceInputStream(
            new Repeat((byte) 'a', huge), new ByteArrayInputStream("\r\nafter\n".getBytes(UTF_8)));
    try (LineReader r = new LineReader(in, cap)) {
      assertThat(r.next()).isTrue();
      assertThat(r.lineTruncated()).isTrue();
      assertThat(r.length()).isEqualTo(cap);
      assertThat(r.fullLength()).isEqualTo(huge);
      assertThat(r.byteOffset()).isZero();
      assertThat(r.bufferCapacity()).isLessThanOrEqualTo(cap + 64 * 1024);
      assertThat(r.next()).isTrue();
      assertThat(r.lineAsString()).isEqualTo("after");
      assertThat(r.lineNumber()).isEqualTo(2);
      assertThat(r.byteOffset()).isEqualTo(huge + 2);
      assertThat(r.lineTruncated()).isFalse();
      assertThat(r.next()).isFalse();
    }
  }

  @Test
  void overlongLineAtEndOfStreamWithoutTerminator() throws IOException {
    List<Line> lines = readAll(new Trickle(("ok\n" + "z".repeat(10_000)).getBytes(UTF_8), 333), 100, 4096);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).isEqualTo(new Line("z".repeat(100), 2, 3, 10_000, true));
  }

  @Test
  void bufferGrowsForLongLinesUpToTheCapOnly() throws IOException {
    String longLine = "y".repeat(200_000);
    try (LineReader r = new LineReader(new ByteArrayInputStream((longLine + "\nshort").getBytes(UTF_8)), 300_000)) {
      assertThat(r.next()).isTrue();
      assertThat(r.lineAsString()).isEqualTo(longLine);
      assertThat(r.lineTruncated()).isFalse();
      assertThat(r.bufferCapacity()).isLessThanOrEqualTo(300_000 + 64 * 1024);
      assertThat(r.next()).isTrue();
      assertThat(r.lineAsString()).isEqualTo("short");
    }
  }

  @Test
  void rejectsCapsOutsideTheSupportedRange() {
    InputStream empty = new ByteArrayInputStream(new byte[0]);
    assertThatThrownBy(() -> new LineReader(empty, 0))
        .isInstanceOf(io.sparkrca.core.error.InvalidRequestException.class);
    assertThatThrownBy(() -> new LineReader(empty, Integer.MAX_VALUE))
        .isInstanceOf(io.sparkrca.core.error.InvalidRequestException.class)
        .hasMessageContaining("maxLineBytes");
  }

  @Test
  void multibyteUtf8IsDecodedAndBadBytesBecomeReplacementCharacters() throws IOException {
    byte[] bytes = {(byte) 0xc3, (byte) 0xa9, '\n', (byte) 0xff, 'x'};
    assertThat(readAll(new ByteArrayInputStream(bytes), 100, 4096))
        .extracting(Line::text)
        .containsExactly("\u00e9", "\ufffdx");
  }

  @Test
  void terminatorScanFindsEveryPositionInAWord() {
    for (int len = 0; len < 40; len++) {
      for (int at = 0; at < len; at++) {
        for (byte t : new byte[] {'\n', '\r'}) {
          byte[] b = new byte[len];
          Arrays.fill(b, (byte) 'q');
          b[at] = t;
          assertThat(LineReader.indexOfTerminator(b, 0, len)).isEqualTo(at);
          assertThat(LineReader.indexOfTerminator(b, Math.min(at + 1, len), len)).isEqualTo(-1);
        }
      }
    }
    // Bytes that differ from LF or CR by one bit must not be taken for them.
    byte[] near = {0x0b, 0x0c, 0x0e, 0x08, 0x1a, 0x1d, (byte) 0x8a, (byte) 0x8d, 0x09, 0x0f, 0x4a};
    assertThat(LineReader.indexOfTerminator(near, 0, near.length)).isEqualTo(-1);
    // Other control bytes below CR (flagged by the word test too) before, around and after a
    // terminator, in the same word and the next: the terminator is still found exactly.
    Random random = new Random(7);
    byte[] controls = {0x00, 0x01, 0x08, 0x09, 0x0b, 0x0c, (byte) 0x80, (byte) 0xff};
    for (int round = 0; round < 5_000; round++) {
      int len = 1 + random.nextInt(40);
      byte[] b = new byte[len];
      for (int i = 0; i < len; i++) {
        b[i] = random.nextInt(3) == 0 ? controls[random.nextInt(controls.length)] : (byte) 'q';
      }
      int expected = -1;
      if (random.nextBoolean()) {
        expected = random.nextInt(len);
        b[expected] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
        for (int i = 0; i < expected; i++) {
          if (b[i] == '\n' || b[i] == '\r') {
            expected = i;
          }
        }
      }
      int from = expected < 0 ? 0 : random.nextInt(expected + 1);
      assertThat(LineReader.indexOfTerminator(b, from, len)).as(Arrays.toString(b)).isEqualTo(expected);
    }
  }

  @Test
  void randomInputsMatchAReferenceSplitter() throws IOException {
    Random random = new Random(42);
    byte[] alphabet = {'a', 'b', '\n', '\r', ' ', (byte) 0xc3, (byte) 0xa9, 'z'};
    for (int round = 0; round < 400; round++) {
      int n = random.nextInt(round < 200 ? 60 : 20_000);
      byte[] data = new byte[n];
      for (int i = 0; i < n; i++) {
        data[i] = random.nextInt(4) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) 'a';
      }
      int cap = 1 + random.nextInt(round % 3 == 0 ? 5 : 3000);
      int chunk = 1 + random.nextInt(round % 2 == 0 ? 7 : 9000);
      List<Line> expected = reference(data, cap);
      List<Line> actual = readAll(new Trickle(data, chunk), cap, 4096);
      assertThat(actual).as("round %d (cap %d, chunk %d)", round, cap, chunk).isEqualTo(expected);
    }
  }

  @Test
  void terminatorCountMatchesTheLineSplitter() {
    Random random = new Random(5);
    for (int round = 0; round < 3000; round++) {
      byte[] data = new byte[random.nextInt(70)];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) "ab\r\n".charAt(random.nextInt(4));
      }
      long expected = 0;
      for (int i = 0; i < data.length; i++) {
        if (data[i] == '\n' || (data[i] == '\r' && (i + 1 == data.length || data[i + 1] != '\n'))) {
          expected++;
        }
      }
      assertThat(LineReader.countTerminators(data, 0, data.length)).as(Arrays.toString(data)).isEqualTo(expected);
    }
  }

  @Test
  void skippingToCandidatesSeesTheSameMatchesNumbersAndContextAsReadingEveryLine() throws IOException {
    Random random = new Random(99);
    byte[] alphabet = {'a', 'b', 'X', 'Y', '\n', '\n', '\r', ' '};
    for (int round = 0; round < 800; round++) {
      int n = random.nextInt(round < 400 ? 200 : 20_000);
      byte[] data = new byte[n];
      for (int i = 0; i < n; i++) {
        data[i] = random.nextInt(3) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) 'a';
      }
      byte[] needle = random.nextBoolean() ? new byte[] {'X', 'Y'} : new byte[] {'X'};
      int cap = 1 + random.nextInt(round % 4 == 0 ? 6 : 5000);
      int chunk = 1 + random.nextInt(round % 2 == 0 ? 9 : 20_000);
      int keep = random.nextInt(4);
      LineReader.Candidates finder = (b, from, to) -> indexOf(b, from, to, needle);

      // Reference: every line, keeping the last `keep` non-matching lines before each match.
      List<String> expected = new ArrayList<>();
      long expectedLines;
      try (LineReader r = new LineReader(new Trickle(data, chunk), cap, 4096)) {
        java.util.ArrayDeque<String> before = new java.util.ArrayDeque<>();
        while (r.next()) {
          String line = r.lineNumber() + "@" + r.byteOffset() + ":" + r.lineAsString() + (r.lineTruncated() ? "~" + r.fullLength() : "");
          if (indexOf(r.buffer(), r.start(), r.start() + r.length(), needle) >= 0) {
            expected.add("before " + before);
            expected.add("match " + line);
            before.clear();
          } else if (keep > 0) {
            before.addLast(line);
            if (before.size() > keep) {
              before.removeFirst();
            }
          }
        }
        expectedLines = r.lineNumber();
      }

      List<String> actual = new ArrayList<>();
      long actualLines;
      try (LineReader r = new LineReader(new Trickle(data, chunk), cap, 4096)) {
        java.util.ArrayDeque<String> before = new java.util.ArrayDeque<>();
        LineReader.SkippedLine sink = (b, st, len, num, off, cut, full) -> {
          before.addLast(num + "@" + off + ":" + new String(b, st, len, UTF_8) + (cut ? "~" + full : ""));
          if (before.size() > keep) {
            before.removeFirst();
          }
        };
        while (true) {
          r.skipUntil(finder, keep, sink);
          if (!r.next()) {
            break;
          }
          String line = r.lineNumber() + "@" + r.byteOffset() + ":" + r.lineAsString() + (r.lineTruncated() ? "~" + r.fullLength() : "");
          if (indexOf(r.buffer(), r.start(), r.start() + r.length(), needle) >= 0) {
            actual.add("before " + before);
            actual.add("match " + line);
            before.clear();
          } else if (keep > 0) {
            before.addLast(line);
            if (before.size() > keep) {
              before.removeFirst();
            }
          }
        }
        actualLines = r.lineNumber();
      }
      assertThat(actual).as("round %d cap %d chunk %d keep %d", round, cap, chunk, keep).isEqualTo(expected);
      assertThat(actualLines).isEqualTo(expectedLines);
    }
  }

  private static int indexOf(byte[] b, int from, int to, byte[] needle) {
    outer:
    for (int i = from; i + needle.length <= to; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (b[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** Splits the slow, obvious way. */
  private static List<Line> reference(byte[] data, int cap) {
    List<Line> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    long number = 0;
    while (i <= data.length) {
      boolean end = i == data.length;
      if (end || data[i] == '\n' || data[i] == '\r') {
        if (end && start == data.length) {
          break;
        }
        int len = i - start;
        int kept = Math.min(len, cap);
        out.add(new Line(new String(data, start, kept, UTF_8), ++number, start, len, len > cap));
        if (end) {
          break;
        }
        if (data[i] == '\r' && i + 1 < data.length && data[i + 1] == '\n') {
          i++;
        }
        start = i + 1;
      }
      i++;
    }
    return out;
  }

  private static List<Line> read(String text, int cap) throws IOException {
    return readAll(new ByteArrayInputStream(text.getBytes(UTF_8)), cap, 4096);
  }

  private static List<Line> readAll(InputStream in, int cap, int buffer) throws IOException {
    List<Line> lines = new ArrayList<>();
    try (LineReader r = new LineReader(in, cap, buffer)) {
      while (r.next()) {
        lines.add(new Line(r.lineAsString(), r.lineNumber(), r.byteOffset(), r.fullLength(), r.lineTruncated()));
      }
      assertThat(r.next()).isFalse();
    }
    return lines;
  }

  /** Returns at most {@code chunk} bytes per read, to put terminators at every buffer position. */
  static final class Trickle extends InputStream {
    private final byte[] data;
    private final int chunk;
    private int pos;

    Trickle(byte[] data, int chunk) {
      this.data = data;
      this.chunk = chunk;
    }

    @Override
    public int read() {
      return pos < data.length ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, chunk), data.length - pos);
      System.arraycopy(data, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  /** {@code count} copies of one byte, generated on the fly. */
  static final class Repeat extends InputStream {
    private final byte value;
    private long left;

    Repeat(byte value, long count) {
      this.value = value;
      this.left = count;
    }

    @Override
    public int read() {
      if (left == 0) {
        return -1;
      }
      left--;
      return value & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      Arrays.fill(b, off, off + n, value);
      left -= n;
      return n;
    }
  }
}

package io.sparkrca.core.logs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.re2j.Pattern;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.io.ByteSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counting a local uncompressed log over byte ranges on several threads ({@link RangeCount}) gives
 * exactly the counts of one pass, wherever the ranges are cut: inside a CR LF, next to a lone CR,
 * inside a multi-byte UTF-8 character, inside a line longer than the line cap, at the unterminated
 * last line; and the counts with the literal prefilter agree with a regex run on every line.
 */
class LogStreamRangeCountTest {
  @TempDir Path dir;

  /** Queries whose prefilters differ: literal sets from alternations, classes, folding, anchors. */
  private static final List<SearchQuery> QUERIES = List.of(
      SearchQuery.literal("killed"),
      SearchQuery.literal("CONTAINER").withIgnoreCase(true),
      SearchQuery.literal("été").withIgnoreCase(true),
      SearchQuery.regex("OutOfMemoryError|Container killed"),
      SearchQuery.regex("Container (killed|exited) [0-9]+"),
      SearchQuery.regex("[Ee]xit code 1[0-9]{2}"),
      SearchQuery.regex("(?i)outofmemory"),
      SearchQuery.regex("outofmemoryerror|container KILLED").withIgnoreCase(true),
      SearchQuery.regex("^ERROR"),
      SearchQuery.regex("killed$"),
      SearchQuery.regex("^$"),
      SearchQuery.regex("k[a-z]+ed"),
      SearchQuery.regex("(?i)kelvin"),
      SearchQuery.regex("日本|été"),
      SearchQuery.regex("x?"));

  private static final String[] WORDS = {
    "INFO", "ERROR", "OutOfMemoryError", "Container killed", "container KILLED", "Container exited 137",
    "Exit code 143", "exit code 1x", "\u212Aelvin", "kelvin", "été", "日本語", "🚀", "killed", "x", " ", "\t"
  };
  private static final String[] ENDS = {"\n", "\r\n", "\r", "\n", "\n\n", "\r\r\n"};

  /** A random log: short and over-long lines, every kind of line end, multi-byte text, maybe no final line end. */
  private static byte[] randomLog(Random random, int lines) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      if (random.nextInt(20) == 0) {
        b.append("x".repeat(20 + random.nextInt(80))).append(WORDS[random.nextInt(WORDS.length)]);
      }
      int words = random.nextInt(5);
      for (int w = 0; w < words; w++) {
        b.append(WORDS[random.nextInt(WORDS.length)]);
        if (random.nextBoolean()) {
          b.append(' ');
        }
      }
      if (i + 1 < lines || random.nextBoolean()) {
        b.append(ENDS[random.nextInt(ENDS.length)]);
      }
    }
    return b.toString().getBytes(UTF_8);
  }

  private static LogStream onePass(ByteSource source, int cap) {
    return LogStream.builder().maxLineBytes(cap).countSplit(Long.MAX_VALUE, 1).build(source);
  }

  private static LogStream split(ByteSource source, int cap, int parts) {
    return LogStream.builder().maxLineBytes(cap).countSplit(1, parts).build(source);
  }

  @Test
  void rangesCountTheSameLinesAndMatchesAsOnePassWhereverTheyAreCut() throws IOException {
    Random random = new Random(17);
    for (int round = 0; round < 25; round++) {
      byte[] log = randomLog(random, 1 + random.nextInt(60));
      int cap = 16 + random.nextInt(48);
      Path file = Files.write(dir.resolve("log-" + round + ".txt"), log);
      ByteSource[] sources = {ByteSource.of(file), ByteSource.of("memory-" + round, log)};
      for (ByteSource source : sources) {
        CountResult expected = onePass(source, cap).count();
        for (int parts = 2; parts <= 7; parts++) {
          CountResult got = split(source, cap, parts).count();
          assertThat(got.lines()).as("lines of round %d in %d ranges, cap %d", round, parts, cap)
              .isEqualTo(expected.lines());
          assertThat(got.notes()).isEqualTo(expected.notes());
        }
        for (SearchQuery q : QUERIES) {
          CountResult want = onePass(source, cap).count(q);
          for (int parts = 2; parts <= 5; parts++) {
            CountResult got = split(source, cap, parts).count(q);
            assertThat(got.matchingLines())
                .as("'%s' (ignore case %s) in round %d, %d ranges, cap %d", q.pattern(), q.ignoreCase(), round, parts, cap)
                .isEqualTo(want.matchingLines());
            assertThat(got.lines()).isEqualTo(want.lines());
            assertThat(got.query()).contains(q);
          }
        }
      }
    }
  }

  @Test
  void everySplitPointMovesToTheFirstLineStartAtOrAfterIt() throws IOException {
    byte[] log = "a\r\nbb\rc\n\n\r\r\nd日本\r".getBytes(UTF_8);
    ByteSource source = ByteSource.of("tricky", log);
    TreeSet<Long> lineStarts = new TreeSet<>(referenceLineStarts(log));
    for (long p = 1; p < log.length; p++) {
      long[] starts = RangeCount.boundaries(source, log.length, new long[] {p});
      Long expected = lineStarts.ceiling(p);
      if (expected == null || expected >= log.length) {
        assertThat(starts).as("split at %d", p).containsExactly(0, log.length);
      } else {
        assertThat(starts).as("split at %d", p).containsExactly(0, expected, log.length);
      }
    }
  }

  /** Line starts by definition: 0 and after every LF, and after every CR that no LF follows. */
  private static List<Long> referenceLineStarts(byte[] b) {
    List<Long> starts = new ArrayList<>();
    starts.add(0L);
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '\n' || (b[i] == '\r' && (i + 1 == b.length || b[i + 1] != '\n'))) {
        starts.add((long) i + 1);
      }
    }
    return starts;
  }

  @Test
  void aLineLongerThanSeveralRangesIsOneLine() throws IOException {
    byte[] log = ("first\n" + "Container killed ".repeat(400) + "\nlast Container killed").getBytes(UTF_8);
    ByteSource source = ByteSource.of(Files.write(dir.resolve("long.log"), log));
    CountResult got = split(source, 64, 7).count(SearchQuery.literal("Container killed"));
    assertThat(got.lines()).isEqualTo(3);
    assertThat(got.matchingLines()).isEqualTo(2);
  }

  @Test
  void prefilteredCountsAgreeWithTheRegexRunOnEveryLine() throws IOException {
    Random random = new Random(5);
    byte[] log = randomLog(random, 3000);
    ByteSource source = ByteSource.of(Files.write(dir.resolve("ref.log"), log));
    List<String> lines = referenceLines(new String(log, UTF_8));
    for (SearchQuery q : QUERIES) {
      Pattern p = q.regex()
          ? Pattern.compile(q.pattern(), q.ignoreCase() ? Pattern.CASE_INSENSITIVE : 0)
          : Pattern.compile(Pattern.quote(q.pattern()), q.ignoreCase() ? Pattern.CASE_INSENSITIVE : 0);
      long expected = lines.stream().filter(l -> p.matcher(l).find()).count();
      // Literal queries fold ASCII case only, on bytes: the reference must do the same.
      if (!q.regex() && q.ignoreCase() && q.pattern().chars().allMatch(c -> c < 0x80)) {
        String needle = q.pattern().toLowerCase(java.util.Locale.ROOT);
        expected = lines.stream().filter(l -> asciiLower(l).contains(needle)).count();
      }
      for (LogStream log2 : List.of(onePass(source, 1 << 20), split(source, 1 << 20, 3))) {
        CountResult got = log2.count(q);
        assertThat(got.matchingLines()).as("'%s' ignore case %s", q.pattern(), q.ignoreCase()).isEqualTo(expected);
        assertThat(got.lines()).isEqualTo(lines.size());
      }
    }
  }

  private static String asciiLower(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
    }
    return b.toString();
  }

  /** Lines as BufferedReader splits them (LF, CR LF, lone CR), without a final empty one. */
  private static List<String> referenceLines(String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.StringReader(text))) {
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        out.add(l);
      }
    }
    return out;
  }

  @Test
  void strictReadingIsNeverSplitAndStillFailsOnACutOffLastLine() throws IOException {
    byte[] log = "one\ntwo\nthree".getBytes(UTF_8);
    ByteSource source = ByteSource.of(Files.write(dir.resolve("cut.log"), log));
    LogStream strict = LogStream.builder().strict(true).countSplit(1, 3).build(source);
    assertThatThrownBy(strict::count).isInstanceOf(CorruptInputException.class).hasMessageContaining("line 3");
    assertThatThrownBy(() -> strict.count(SearchQuery.literal("one")))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining("line 3");
  }

  @Test
  void aCompressedLogIsCountedInOnePassWithTheSameAnswer() throws IOException {
    byte[] log = randomLog(new Random(9), 500);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(log);
    }
    ByteSource plain = ByteSource.of(Files.write(dir.resolve("plain.log"), log));
    ByteSource zipped = ByteSource.of(Files.write(dir.resolve("zipped.log.gz"), gz.toByteArray()));
    SearchQuery q = SearchQuery.regex("OutOfMemoryError|Container killed");
    CountResult fromGzip = split(zipped, 1 << 20, 4).count(q);
    CountResult fromPlain = split(plain, 1 << 20, 4).count(q);
    assertThat(fromGzip.lines()).isEqualTo(fromPlain.lines());
    assertThat(fromGzip.matchingLines()).isEqualTo(fromPlain.matchingLines()).isPositive();
  }

  @Test
  void aBinaryFileIsRefusedAsInOnePass() throws IOException {
    byte[] bin = new byte[20000];
    new Random(1).nextBytes(bin);
    ByteSource source = ByteSource.of(Files.write(dir.resolve("blob.bin"), bin));
    assertThatThrownBy(() -> split(source, 1 << 20, 2).count()).isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("is binary");
  }

  @Test
  void onlyLogsLargeEnoughAreCutAndNeverInRangesSmallerThanTheMinimum() {
    assertThat(RangeCount.parts(RangeCount.MIN_BYTES - 1, 4, RangeCount.MIN_BYTES)).isEqualTo(1);
    assertThat(RangeCount.parts(RangeCount.MIN_BYTES, 4, RangeCount.MIN_BYTES)).isEqualTo(2);
    assertThat(RangeCount.parts(300L << 20, 2, RangeCount.MIN_BYTES)).isEqualTo(2);
    assertThat(RangeCount.parts(300L << 20, 1, RangeCount.MIN_BYTES)).isEqualTo(1);
    assertThat(RangeCount.defaultParts()).isBetween(1, RangeCount.MAX_PARTS);
  }
}

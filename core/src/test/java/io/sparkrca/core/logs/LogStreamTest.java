package io.sparkrca.core.logs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdOutputStream;
import com.ning.compress.lzf.LZFOutputStream;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.testing.Codecs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xerial.snappy.SnappyOutputStream;

class LogStreamTest {
  @TempDir Path dir;

  static String numberedLog(int lines) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= lines; i++) {
      sb.append(i % 100 == 0 ? "ERROR task " + i + " failed" : "INFO line " + i).append('\n');
    }
    return sb.toString();
  }

  /** Compresses with the codec libraries Spark itself uses. */
  static byte[] compress(Compression codec, byte[] data) {
    return Codecs.compress(codec, data);
  }

  private Path write(String name, byte[] content) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, content);
    return p;
  }

  private Path write(String name, String content) throws IOException {
    return write(name, content.getBytes(UTF_8));
  }

  // --- codecs ------------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(Compression.class)
  void everyCodecIsReadByExtensionAndByMagicWithDecompressedLineNumbers(Compression codec) throws IOException {
    byte[] plain = numberedLog(5000).getBytes(UTF_8);
    byte[] packed = compress(codec, plain);
    String ext = codec.isCompressed() ? "." + codec.codecName() : ".log";
    for (Path p : List.of(write("app" + ext, packed), write("app-noext-" + codec, packed))) {
      LogStream s = LogStream.open(p.toString());
      assertThat(s.info().compression()).isEqualTo(codec);
      assertThat(s.head(2).lines()).extracting(LogLine::text).containsExactly("INFO line 1", "INFO line 2");

      LogLines tail = s.tail(3);
      assertThat(tail.lines()).extracting(LogLine::text).containsExactly("INFO line 4998", "INFO line 4999", "ERROR task 5000 failed");
      if (codec.isCompressed()) {
        assertThat(tail.lines()).extracting(LogLine::number).containsExactly(4998L, 4999L, 5000L);
        assertThat(tail.notes()).anySatisfy(n -> assertThat(n).contains("streamed once"));
      }

      SearchResult r = s.search(SearchQuery.regex("ERROR task \\d+ failed").withMaxMatches(100));
      assertThat(r.matches()).hasSize(50);
      assertThat(r.matches().get(0).line().number()).isEqualTo(100);
      assertThat(r.matches().get(0).line().byteOffset()).isEqualTo(numberedLog(99).length());

      assertThat(s.count(SearchQuery.literal("ERROR")).matchingLines()).isEqualTo(50);
      assertThat(s.count().lines()).isEqualTo(5000);
      assertThat(s.range(4999, 5000).lines()).extracting(LogLine::text)
          .containsExactly("INFO line 4999", "ERROR task 5000 failed");
    }
  }

  @Test
  void concatenatedGzipMembersAreReadAsOneLog() throws IOException {
    byte[] a = compress(Compression.GZIP, "first\n".getBytes(UTF_8));
    byte[] b = compress(Compression.GZIP, "second\n".getBytes(UTF_8));
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    assertThat(LogStream.open(write("two.gz", both).toString()).head(5).lines())
        .extracting(LogLine::text).containsExactly("first", "second");
  }

  @Test
  void truncatedCompressedLogIsReadUpToWhereItEndsWithANote() throws IOException {
    byte[] packed = compress(Compression.GZIP, numberedLog(20_000).getBytes(UTF_8));
    Path p = write("inprogress.gz", Arrays.copyOf(packed, packed.length / 2));
    CountResult c = LogStream.open(p.toString()).count();
    assertThat(c.lines()).isBetween(1000L, 19_999L);
    assertThat(c.notes()).anySatisfy(n -> assertThat(n).contains("ends early"));
  }

  // --- line endings and long lines -----------------------------------------------------------

  @Test
  void aTailWhoseWindowHoldsTheWholeFileNumbersItsLines() throws IOException {
    Path small = write("small.log", numberedLog(20));
    LogLines tail = LogStream.open(small.toString()).tail(3);
    assertThat(tail.lines()).extracting(LogLine::number).containsExactly(18L, 19L, 20L);
    assertThat(tail.notes()).noneSatisfy(n -> assertThat(n).contains("line numbers are unknown"));

    Path big = write("big.log", numberedLog(5000));
    LogLines cut = LogStream.builder().tailWindowBytes(1024).maxTailWindowBytes(1024).build(big.toString()).tail(3);
    assertThat(cut.lines()).extracting(LogLine::text).containsExactly("INFO line 4998", "INFO line 4999", "ERROR task 5000 failed");
    assertThat(cut.notes()).anySatisfy(n -> assertThat(n).contains("line numbers are unknown"));
  }

  @Test
  void crlfAndLoneCrEndLinesEverywhere() throws IOException {
    Path p = write("mixed.log", "one\r\ntwo\rthree\nERROR four\r\nfive");
    LogStream s = LogStream.open(p.toString());
    assertThat(s.head(10).lines()).extracting(LogLine::text).containsExactly("one", "two", "three", "ERROR four", "five");
    assertThat(s.tail(2).lines()).extracting(LogLine::text).containsExactly("ERROR four", "five");
    SearchResult r = s.search(SearchQuery.literal("ERROR"));
    assertThat(r.matches()).singleElement().satisfies(m -> {
      assertThat(m.line().number()).isEqualTo(4);
      assertThat(m.line().byteOffset()).isEqualTo(15);
    });
  }

  @Test
  void tailWindowStartingInsideACrLfPairDoesNotInventAnEmptyLine() throws IOException {
    // Lines of 100 bytes + CRLF; choose the window so that its first byte is an LF whose CR is
    // the byte just before it.
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      sb.append(String.format("%-100s", "line " + i)).append("\r\n");
    }
    Path p = write("crlf.log", sb.toString());
    long size = Files.size(p);
    int window = 1024;
    // Find a window whose first byte is '\n'.
    byte[] all = Files.readAllBytes(p);
    assertThat(all[(int) (size - window)]).isNotEqualTo((byte) '\n');
    int w = window;
    while (all[(int) (size - w)] != '\n') {
      w++;
    }
    LogStream s = LogStream.builder().tailWindowBytes(w).maxTailWindowBytes(w).build(p.toString());
    List<LogLine> lines = s.tail(50).lines();
    assertThat(lines).extracting(LogLine::text).doesNotContain("");
    assertThat(lines.get(lines.size() - 1).text()).startsWith("line 199");
    assertThat(lines.get(0).byteOffset()).isEqualTo(size - w + 1);
  }

  @Test
  void overlongLineIsCutWithAMarkerAndStillSearched() throws IOException {
    String big = "ERROR " + "x".repeat(5000) + " tail-of-the-line";
    Path p = write("long.log", "before\n" + big + "\nafter\n");
    LogStream s = LogStream.builder().maxLineBytes(1024).build(p.toString());

    SearchResult r = s.search(SearchQuery.literal("ERROR").withContext(1));
    LogLine hit = r.matches().get(0).line();
    assertThat(hit.truncated()).isTrue();
    assertThat(hit.text()).hasSize(1024);
    assertThat(hit.fullLength()).isEqualTo(big.length());
    assertThat(hit.display()).endsWith("[... line cut; it has " + big.length() + " bytes]");
    assertThat(r.matches().get(0).after()).extracting(LogLine::text).containsExactly("after");
    // Text beyond the cap is not searched: it was never held in memory.
    assertThat(s.search(SearchQuery.literal("tail-of-the-line")).matches()).isEmpty();
    assertThat(s.tail(2).lines().get(0).truncated()).isTrue();
  }

  @Test
  void cutLinesDoNotEndInHalfACharacter() {
    byte[] b = "ab\u00e9".getBytes(UTF_8); // a b C3 A9
    assertThat(LogStream.utf8Boundary(b, 0, 3)).isEqualTo(2);
    assertThat(LogStream.utf8Boundary(b, 0, 4)).isEqualTo(4);
    byte[] euro = "x\u20ac".getBytes(UTF_8); // x E2 82 AC
    assertThat(LogStream.utf8Boundary(euro, 0, 3)).isEqualTo(1);
    assertThat(LogStream.utf8Boundary(euro, 0, 4)).isEqualTo(4);
  }

  @Test
  void hostileRegexOnAHostileLineFinishes() throws IOException {
    Path p = write("evil.log", "a".repeat(900_000) + "!\nok\n");
    SearchResult r = LogStream.open(p.toString()).search(SearchQuery.regex("(a+)+$"));
    assertThat(r.matches()).isEmpty();
    assertThat(r.linesScanned()).isEqualTo(2);
  }

  // --- search semantics ------------------------------------------------------------------------

  @Test
  void overlappingContextsAreMergedSoNoLineIsShownTwice() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 20; i++) {
      sb.append(i == 5 || i == 7 ? "HIT " + i : "line " + i).append('\n');
    }
    SearchResult r = LogStream.open(write("ctx.log", sb.toString()).toString())
        .search(SearchQuery.literal("HIT").withContext(2));
    assertThat(r.matches()).hasSize(2);
    SearchMatch first = r.matches().get(0);
    SearchMatch second = r.matches().get(1);
    assertThat(first.before()).extracting(LogLine::number).containsExactly(3L, 4L);
    assertThat(first.after()).extracting(LogLine::number).containsExactly(6L);
    assertThat(second.before()).isEmpty();
    assertThat(second.after()).extracting(LogLine::number).containsExactly(8L, 9L);
    assertThat(LogText.search(r)).containsOnlyOnce("line 6").containsOnlyOnce("|  HIT 7".substring(3));
  }

  @Test
  void matchLimitKeepsTheLastMatchsContextAndStopsReading() throws IOException {
    SearchResult r = LogStream.open(write("many.log", numberedLog(10_000)).toString())
        .search(SearchQuery.literal("ERROR").withContext(1, 2).withMaxMatches(3));
    assertThat(r.matches()).hasSize(3);
    assertThat(r.limitReached()).isTrue();
    assertThat(r.matches().get(2).after()).extracting(LogLine::number).containsExactly(301L, 302L);
    assertThat(r.linesScanned()).isEqualTo(302);
    String text = LogText.search(r);
    assertThat(text).contains("[Reached maximum match limit of 3. Stopping search.]")
        .contains("Total matches found: 3 (scanned 302 lines)");
  }

  @Test
  void zeroMatchesGiveAHint() throws IOException {
    SearchResult r = LogStream.open(write("a.log", "nothing here\n").toString()).search(SearchQuery.literal("ERROR"));
    assertThat(r.hint()).hasValueSatisfying(h -> assertThat(h).contains("retry ignoring case").doesNotContainPattern("--[a-z]"));
    assertThat(LogText.search(r)).contains("Total matches found: 0 (scanned 1 lines)").contains("Hint: no matches.");
  }

  @Test
  void invalidRegexIsReportedBeforeTheLogIsOpened() {
    LogStream missing = LogStream.of(io.sparkrca.core.io.ByteSource.of(dir.resolve("absent.log")));
    assertThatThrownBy(() -> missing.search(SearchQuery.regex("[unclosed")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("invalid regular expression '[unclosed'");
  }

  @Test
  void searchCapsAreCheckedWithSpecificMessages() {
    assertThatThrownBy(() -> SearchQuery.literal("x").withMaxMatches(1_000_000))
        .hasMessageContaining("exceeds the cap of 10000");
    assertThatThrownBy(() -> SearchQuery.literal("x").withContext(5000)).hasMessageContaining("context lines exceed");
    assertThatThrownBy(() -> SearchQuery.regex("")).hasMessageContaining("is empty");
  }

  @Test
  void jsonHasOneObjectPerMatchWithLineOffsetTextAndContext() throws IOException {
    SearchResult r = LogStream.open(write("j.log", "a\nERROR \"quoted\"\nb\n").toString())
        .search(SearchQuery.literal("ERROR").withContext(1));
    String json = LogJson.search(r);
    com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    com.fasterxml.jackson.databind.JsonNode m = root.get("matches").get(0);
    assertThat(m.get("match").asInt()).isEqualTo(1);
    assertThat(m.get("line").asLong()).isEqualTo(2);
    assertThat(m.get("byteOffset").asLong()).isEqualTo(2);
    assertThat(m.get("text").asText()).isEqualTo("ERROR \"quoted\"");
    assertThat(m.get("before").get(0).get("text").asText()).isEqualTo("a");
    assertThat(m.get("after").get(0).get("line").asLong()).isEqualTo(3);
    assertThat(root.get("totalMatches").asInt()).isEqualTo(1);
  }

  // --- range, head, tail -----------------------------------------------------------------------

  @Test
  void rangeValidatesItsBoundsWithSpecificMessages() {
    LogStream s = LogStream.of(io.sparkrca.core.io.ByteSource.of(dir.resolve("absent.log")));
    assertThatThrownBy(() -> s.range(50, 10)).hasMessageContaining("END (10) must not be less than START (50)");
    assertThatThrownBy(() -> s.range(0, 10)).hasMessageContaining("START must be at least 1");
    assertThatThrownBy(() -> s.tail(0)).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> s.head(5001)).hasMessageContaining("5000-line cap");
  }

  @Test
  void rangePastTheEndSaysHowLongTheLogIs() throws IOException {
    LogLines r = LogStream.open(write("short.log", numberedLog(10)).toString()).range(8, 20);
    assertThat(r.lines()).extracting(LogLine::number).containsExactly(8L, 9L, 10L);
    assertThat(r.notes()).containsExactly("The log has only 10 lines.");
    assertThat(LogText.numberedLines(r)).startsWith("     8 | INFO line 8\n");
  }

  @Test
  void tailWidensTheWindowWhenItHoldsTooFewLines() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 40; i++) {
      sb.append(i).append(' ').append("y".repeat(2000)).append('\n');
    }
    Path p = write("wide.log", sb.toString());
    LogLines t = LogStream.builder().tailWindowBytes(1024).build(p.toString()).tail(10);
    assertThat(t.lines()).hasSize(10);
    assertThat(t.lines().get(0).text()).startsWith("31 ");
    assertThat(t.lines().get(9).text()).startsWith("40 ");
    assertThat(t.notes()).anySatisfy(n -> assertThat(n).contains("ranged reads"));
  }

  @Test
  void tailOfAFileShorterThanTheWindowReturnsAllOfIt() throws IOException {
    LogLines t = LogStream.open(write("tiny.log", "a\nb").toString()).tail(10);
    assertThat(t.lines()).extracting(LogLine::text).containsExactly("a", "b");
    assertThat(LogStream.open(write("empty.log", "").toString()).tail(10).lines()).isEmpty();
  }

  // --- errors and safety -----------------------------------------------------------------------

  @Test
  void binaryContentIsRejectedWithWhatItLooksLike() throws IOException {
    byte[] zip = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0};
    assertThatThrownBy(() -> LogStream.open(write("app.jar", zip).toString()).head(1))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("is binary, not text")
        .hasMessageContaining("ZIP or JAR");
    byte[] utf16 = "hello world\n".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
    assertThatThrownBy(() -> LogStream.open(write("win.log", utf16).toString()).search(SearchQuery.literal("x")))
        .hasMessageContaining("UTF-16");
    byte[] random = new byte[4096];
    new java.util.Random(1).nextBytes(random);
    random[0] = 1;
    assertThatThrownBy(() -> LogStream.open(write("blob.bin", random).toString()).tail(5))
        .hasMessageContaining("is binary, not text");
  }

  @Test
  void missingFileIsNotFound() {
    assertThatThrownBy(() -> LogStream.open(dir.resolve("nope.log").toString()).head(1))
        .isInstanceOf(io.sparkrca.core.error.InputNotFoundException.class)
        .hasMessageContaining("nope.log not found");
  }

  @Test
  void secretsInLinesAreRedactedUnlessTurnedOff() throws IOException {
    Path p = write("secret.log", "connect jdbc:postgresql://db/x?user=a&password=hunter2\n");
    assertThat(LogStream.open(p.toString()).head(1).lines().get(0).text()).doesNotContain("hunter2");
    assertThat(LogStream.builder().redact(false).build(p.toString()).head(1).lines().get(0).text()).contains("hunter2");
  }

  @Test
  void terminalEscapesInLogTextAreNotPrintedRaw() throws IOException {
    Path p = write("esc.log", "evil \u001b[2J\u202e text\n");
    assertThat(LogText.lines(LogStream.open(p.toString()).head(1))).isEqualTo("evil \\x1b[2J\\u202e text\n");
  }

  @Test
  void driverOutputPartsAreReadAsOneLogAcrossShards() throws IOException {
    Files.writeString(dir.resolve("driveroutput.000000000"), "l1\nl2\nERROR sp");
    Files.writeString(dir.resolve("driveroutput.000000001"), "lit\nl4\n");
    Files.writeString(dir.resolve("driveroutput.000000002"), "");
    LogStream s = LogStream.open(dir.resolve("driveroutput").toString());
    assertThat(s.notes()).singleElement().satisfies(n -> assertThat(n).contains("3 parts"));
    assertThat(s.search(SearchQuery.literal("ERROR split")).matches()).singleElement()
        .satisfies(m -> assertThat(m.line().number()).isEqualTo(3));
    assertThat(s.tail(2).lines()).extracting(LogLine::text).containsExactly("ERROR split", "l4");
  }

  @Test
  void infoMatchesTheLogReaderFormat() throws IOException {
    byte[] big = new byte[21 * 1024 * 1024];
    Arrays.fill(big, (byte) 'a');
    LogInfo info = LogStream.open(write("big.log", big).toString()).info();
    assertThat(LogText.info(info))
        .contains("Size: 22020096 bytes (21.00 MB)\n")
        .contains("Compressed: False\n")
        .contains("Is Large File (>20MB): True\n")
        .contains("Recommendation: File exceeds 20MB. DO NOT download or cat full file.");
  }
}

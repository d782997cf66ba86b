package io.sparkrca.core.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.testing.Codecs;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.core.testkit.TestkitFixtures.Fixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many logs at once, on the real driver and executor logs of the testkit's runs. */
class LogSetTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final LogSet CONCURRENT = LogSet.builder().threads(4).build();
  private static final LogSet SEQUENTIAL = LogSet.builder().threads(1).build();

  private static Fixture fetchFailure;
  private static Path driver;
  private static Path executors;

  @TempDir Path dir;

  @BeforeAll
  static void fixtures() {
    fetchFailure = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    driver = fetchFailure.driverLog();
    executors = fetchFailure.dir().resolve("executor-logs");
  }

  private static List<Path> executorLogs() throws IOException {
    try (Stream<Path> files = Files.list(executors)) {
      return files.sorted().toList();
    }
  }

  private static LogQuery.Builder names(Object... names) {
    return LogQuery.builder().names(Arrays.stream(names).map(String::valueOf).toList());
  }

  private static List<String> sources(LogSetResult<?> r) {
    return r.logs().stream().map(l -> l instanceof SearchResult s ? s.source() : ((CountResult) l).source()).toList();
  }

  @Test
  void aDirectoryIsReadInNameOrderAfterTheLogsNamedBeforeIt() throws IOException {
    CountSetResult r = CONCURRENT.count(names(driver, executors).build());

    List<String> expected = new ArrayList<>(List.of(driver.toString()));
    executorLogs().forEach(p -> expected.add(p.toString()));
    assertThat(expected).hasSizeGreaterThan(3);
    assertThat(sources(r)).isEqualTo(expected);
    long lines = 0;
    for (String log : expected) {
      lines += LogStream.open(log).count().lines();
    }
    assertThat(r.lines()).isEqualTo(lines);
    assertThat(r.errors()).isEmpty();
    assertThat(r.notes()).isEmpty();
    assertThat(r.singleFile()).isFalse();
    assertThat(r.single()).isEmpty();
  }

  @Test
  void aGlobGivesTheLogsItMatchesSortedByName() throws IOException {
    SearchSetResult r = CONCURRENT.search(names(executors + "/*.stderr")
        .search(SearchQuery.literal("Executor")).build());

    assertThat(sources(r)).isEqualTo(executorLogs().stream().map(Path::toString).toList());
    long expected = 0;
    for (Path p : executorLogs()) {
      expected += LogStream.open(p.toString()).search(SearchQuery.literal("Executor")).matches().size();
    }
    assertThat(r.totalMatches()).isPositive().isEqualTo(expected);
    assertThat(r.singleFile()).isFalse();
  }

  @Test
  void anUnreadableLogIsAnErrorWhileTheOthersAreStillRead() throws IOException {
    Path binary = Files.write(dir.resolve("app.jar"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0});
    Path missing = dir.resolve("missing.log");

    CountSetResult r = CONCURRENT.count(names(driver, binary, missing, executors)
        .search(SearchQuery.regex("ERROR|WARN")).build());

    assertThat(r.logs()).hasSize(1 + executorLogs().size());
    assertThat(r.errors()).extracting(LogError::source).containsExactly(binary.toString(), missing.toString());
    assertThat(r.errors().get(0).exception()).isInstanceOf(CorruptInputException.class);
    assertThat(r.errors().get(1).exception()).isInstanceOf(InputNotFoundException.class);
    assertThat(r.errors().get(1).message()).isEqualTo(missing + " not found: check the path");
    assertThat(r.failure()).isEmpty();
    assertThat(r.matchingLines()).isEqualTo(LogStream.open(driver.toString()).count(SearchQuery.regex("ERROR|WARN")).matchingLines()
        + executorLogs().stream().mapToLong(p -> LogStream.open(p.toString()).count(SearchQuery.regex("ERROR|WARN")).matchingLines()).sum());

    JsonNode json = JSON.readTree(r.toJson());
    assertThat(json.path("errors")).hasSize(2);
    assertThat(json.at("/errors/1/message").asText()).isEqualTo(missing + " not found: check the path");
    assertThat(json.path("matchingLines").asLong()).isEqualTo(r.matchingLines());
  }

  @Test
  void oneFileNamedIsTheSingleCaseAndItsErrorIsTheRequestsFailure() {
    SearchSetResult found = SEQUENTIAL.search(names(driver).search(SearchQuery.literal("FetchFailed")).build());
    assertThat(found.singleFile()).isTrue();
    assertThat(found.single()).get().extracting(SearchResult::source).isEqualTo(driver.toString());
    assertThat(found.failure()).isEmpty();

    Path missing = dir.resolve("missing.log");
    SearchSetResult lost = SEQUENTIAL.search(names(missing).search(SearchQuery.literal("x")).build());
    assertThat(lost.singleFile()).isTrue();
    assertThat(lost.failure()).get().isInstanceOf(InputNotFoundException.class);
    assertThatThrownBy(lost::single).isSameAs(lost.failure().get());
  }

  @Test
  void aNameThatGivesNoLogIsTheFailureOfARequestNamingOnlyIt() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    CountSetResult alone = SEQUENTIAL.count(names(empty).build());
    assertThat(alone.singleFile()).isFalse();
    assertThat(alone.single()).isEmpty();
    assertThat(alone.failure()).get().isInstanceOf(InputNotFoundException.class)
        .extracting(Throwable::getMessage).isEqualTo(empty + " not found: the directory holds no files");
    assertThat(alone.errors()).extracting(LogError::message).containsExactly("the directory holds no files");
    assertThat(alone.toText()).isEqualTo("=== Line count for 0 logs ===\nTotal: 0 lines\n");

    CountSetResult withOthers = SEQUENTIAL.count(names(empty, driver).build());
    assertThat(withOthers.failure()).isEmpty();
    assertThat(withOthers.logs()).hasSize(1);
  }

  @Test
  void aDirectorysOnlyLogThatCannotBeReadIsAnErrorNotTheRequestsFailure() throws IOException {
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Files.write(logs.resolve("stderr"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0});

    CountSetResult r = SEQUENTIAL.count(names(logs).build());

    assertThat(r.errors()).hasSize(1);
    assertThat(r.failure()).isEmpty();
    assertThat(r.singleFile()).isFalse();
  }

  @Test
  void theMatchCapStopsStartingLogsAndANoteSaysHowManyWereLeft() throws IOException {
    // More logs than the concurrent reader's window (twice its threads), so that some are never started.
    List<Path> copies = copies(20);
    long perLog = LogStream.open(driver.toString()).search(SearchQuery.literal("INFO").withMaxMatches(10_000)).matches().size();
    assertThat(perLog).isPositive();
    LogQuery query = names(dir).search(SearchQuery.literal("INFO").withMaxMatches(10_000))
        .maxTotalMatches((int) (2 * perLog)).build();

    SearchSetResult oneByOne = SEQUENTIAL.search(query);
    assertThat(oneByOne.logs()).hasSize(2);
    assertThat(oneByOne.notes()).containsExactly(
        "18 more logs were not searched: " + 2 * perLog + " matches were found before them; narrow the pattern or the logs.");

    // With logs in flight, those started before the cap was reached are kept; the rest are not read.
    SearchSetResult concurrent = CONCURRENT.search(query);
    assertThat(concurrent.totalMatches()).isGreaterThanOrEqualTo(2 * perLog);
    assertThat(concurrent.logs().size()).isBetween(2, 2 + 2 * 4 - 1);
    assertThat(sources(concurrent)).isEqualTo(copies.subList(0, concurrent.logs().size()).stream().map(Path::toString).toList());
    assertThat(concurrent.notes()).containsExactly((copies.size() - concurrent.logs().size()) + " more logs were not searched: "
        + 2 * perLog + " matches were found before them; narrow the pattern or the logs.");
  }

  @Test
  void theLogCapLeavesOutTheRestAndSaysSo() throws IOException {
    copies(3);
    CountSetResult r = SEQUENTIAL.count(names(dir).maxLogs(2).build());
    assertThat(r.logs()).hasSize(2);
    assertThat(r.notes()).containsExactly("Only the first 2 logs were read.");
  }

  @Test
  void resultsKeepTheOrderNamedWhenLaterLogsFinishFirst() throws IOException {
    // Big logs (a gzip of many copies of the driver log) ahead of small ones: read concurrently,
    // the small ones finish first, and still come back in the order named.
    byte[] text = Files.readAllBytes(driver);
    byte[] big = Codecs.compress(Compression.GZIP, repeat(text, 200));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Path p = dir.resolve(String.format("log-%02d%s", i, i % 3 == 0 ? ".gz" : ".log"));
      Files.write(p, i % 3 == 0 ? big : text);
      names.add(p.toString());
    }
    List<String> reversed = new ArrayList<>(names);
    java.util.Collections.reverse(reversed);

    CountSetResult r = CONCURRENT.count(LogQuery.builder().names(reversed).search(SearchQuery.literal("INFO")).build());

    assertThat(sources(r)).isEqualTo(reversed);
    assertThat(r.logs().get(reversed.indexOf(names.get(0))).lines()).isEqualTo(200L * LogStream.open(driver.toString()).count().lines());
  }

  @Test
  void theRequestsReadSettingsReachEveryLog() throws IOException {
    byte[] text = Files.readAllBytes(driver);
    byte[] whole = Codecs.compressFlushing(Compression.GZIP, text, 20);
    Path cut = Files.write(dir.resolve("cut.log.gz"), Arrays.copyOf(whole, whole.length * 2 / 3));
    Path intact = Files.write(dir.resolve("intact.log"), text);

    CountSetResult lenient = SEQUENTIAL.count(names(cut, intact).build());
    assertThat(lenient.errors()).isEmpty();
    assertThat(lenient.logs().get(0).notes()).isNotEmpty();

    CountSetResult strict = SEQUENTIAL.count(names(cut, intact).strict(true).build());
    assertThat(strict.errors()).extracting(LogError::source).containsExactly(cut.toString());
    assertThat(strict.logs()).hasSize(1);

    SearchSetResult shortLines = SEQUENTIAL.search(names(intact).maxLineBytes(64)
        .search(SearchQuery.literal("INFO")).build());
    assertThat(shortLines.single().orElseThrow().matches()).allSatisfy(m -> assertThat(m.line().text().length()).isLessThan(200));
  }

  @Test
  void badRequestsAreRefusedBeforeAnythingIsRead() {
    assertThatThrownBy(() -> LogQuery.builder().build()).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("give at least one log");
    assertThatThrownBy(() -> names(driver).maxLineBytes(1)).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("the line cap must be between 16 bytes");
    assertThatThrownBy(() -> names(driver).maxTotalMatches(0).build()).isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> SEQUENTIAL.search(names(driver).build())).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("a search needs a pattern");
    assertThatThrownBy(() -> LogSet.builder().threads(0)).isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void theJsonHoldsEachLogsDocumentTheQueryAndTheTotals() throws IOException {
    SearchQuery q = SearchQuery.regex("FetchFailed|Lost executor").withContext(1, 2).withMaxMatches(5);
    SearchSetResult r = CONCURRENT.search(names(driver, executors).search(q).build());

    JsonNode json = JSON.readTree(r.toJson());
    assertThat(json.path("action").asText()).isEqualTo("search");
    assertThat(json.path("query").path("pattern").asText()).isEqualTo(q.pattern());
    assertThat(json.path("query").path("before").asInt()).isEqualTo(1);
    assertThat(json.path("query").path("after").asInt()).isEqualTo(2);
    assertThat(json.path("query").path("maxMatches").asInt()).isEqualTo(5);
    assertThat(json.path("totalMatches").asLong()).isPositive().isEqualTo(r.totalMatches());
    for (int i = 0; i < r.logs().size(); i++) {
      assertThat(json.path("logs").get(i)).isEqualTo(JSON.readTree(LogJson.search(r.logs().get(i))));
    }
    assertThat(r.toJson()).doesNotEndWith("\n");
  }

  @Test
  void theTextPrefixesEachLineWithItsLogLikeGrep() {
    SearchSetResult r = CONCURRENT.search(names(driver, executors)
        .search(SearchQuery.literal("FetchFailed").withContext(0)).build());

    List<String> rows = r.toText().lines().filter(l -> l.contains(" | ")).toList();
    assertThat(rows).hasSize((int) r.totalMatches()).isNotEmpty()
        .allSatisfy(l -> assertThat(l).containsPattern("^.+:\\s+\\d+ \\| .*FetchFailed"));
    assertThat(r.toText()).endsWith("=== Search complete. Total matches found: " + r.totalMatches() + " in "
        + r.logsWithMatches() + " of " + r.logs().size() + " logs (scanned " + r.linesScanned() + " lines) ===\n");

    SearchSetResult none = CONCURRENT.search(names(driver, executors).search(SearchQuery.literal("no such words here")).build());
    assertThat(none.toText()).endsWith(SearchResult.RETRY_IGNORING_CASE.words() + "\n");
    assertThat(none.toText(h -> "in my words")).endsWith("in my words\n");
  }

  private List<Path> copies(int n) throws IOException {
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Files.copy(driver, dir.resolve(String.format("driver-%02d.log", i))));
    }
    return out;
  }

  private static byte[] repeat(byte[] b, int times) {
    byte[] out = new byte[b.length * times];
    for (int i = 0; i < times; i++) {
      System.arraycopy(b, 0, out, i * b.length, b.length);
    }
    return out;
  }
}

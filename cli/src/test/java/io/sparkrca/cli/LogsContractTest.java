package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.testing.Codecs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code sparkrca logs} as users call it: {@code -n}, many logs at once, and {@code --strict} on damaged logs of every codec. */
class LogsContractTest {
  @TempDir static Path dir;
  private static byte[] text;

  @BeforeAll
  static void logs() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 5000; i++) {
      sb.append("26/12/02 01:00:00 INFO Executor: Finished task ").append(i).append(" in stage 1.0\n");
      if (i % 1000 == 0) {
        sb.append("26/12/02 01:00:00 ERROR Executor: Exception in task ").append(i).append(".0\n");
      }
    }
    text = sb.toString().getBytes(StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("executors/exec-2"));
    Files.write(dir.resolve("executors/exec-1.log"), text);
    Files.write(dir.resolve("executors/exec-2/stderr.gz"), Codecs.compress(Compression.GZIP, text));
    Files.write(dir.resolve("driver.log"), text);
  }

  @Test
  void headAndTailTakeDashNAsWellAsTheBareNumber() {
    String log = dir.resolve("driver.log").toString();
    assertThat(CliRun.of("logs", "tail", "-n", "3", log).out()).isEqualTo(CliRun.of("logs", "tail", "3", log).out())
        .endsWith("Finished task 5000 in stage 1.0\n26/12/02 01:00:00 ERROR Executor: Exception in task 5000.0\n")
        .hasLineCount(3);
    assertThat(CliRun.of("logs", "head", "--lines", "2", log).out()).isEqualTo(CliRun.of("logs", "head", "2", log).out())
        .hasLineCount(2);
    CliRun both = CliRun.of("logs", "tail", "3", "-n", "4", log);
    assertThat(both.exitCode()).isEqualTo(2);
  }

  @Test
  void searchReadsDirectoriesAndGlobsAndPrefixesEachMatchWithItsFile() {
    CliRun r = CliRun.of("logs", "search", dir.resolve("executors").toString(), dir.resolve("driv*.log").toString(),
        "--literal", "ERROR", "-C", "0");
    assertThat(r.exitCode()).isZero();
    List<String> matches = r.out().lines().filter(l -> l.contains(" | ")).toList();
    assertThat(matches).hasSize(15).allSatisfy(l -> assertThat(l).contains("ERROR Executor: Exception in task"));
    // The logs in the order given (a directory's files sorted), each match prefixed by its file, like grep -r.
    assertThat(matches.get(0)).startsWith(dir.resolve("executors/exec-1.log") + ":");
    assertThat(matches.get(5)).startsWith(dir.resolve("executors/exec-2/stderr.gz") + ":");
    assertThat(matches.get(10)).startsWith(dir.resolve("driver.log") + ":");
    assertThat(r.out()).contains("Total matches found: 15 in 3 of 3 logs");
  }

  @Test
  void countOverManyLogsGivesEachAndTheTotalAlsoAsJson() throws IOException {
    CliRun r = CliRun.of("logs", "count", dir.toString(), "--regex", "ERROR.*task", "--format", "json");
    assertThat(r.exitCode()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("logs")).hasSize(3);
    assertThat(j.get("matchingLines").asLong()).isEqualTo(15);
    assertThat(j.get("lines").asLong()).isEqualTo(3 * 5005);
    assertThat(j.get("errors")).isEmpty();
    for (JsonNode log : j.get("logs")) {
      assertThat(log.toString()).contains("5005");
    }
  }

  @Test
  void searchOverManyLogsAsJsonCarriesTheWholeQueryAndEachLogsDocument() throws IOException {
    CliRun r = CliRun.of("logs", "search", dir.resolve("executors").toString(), "--literal", "ERROR", "-B", "1", "-A", "2",
        "--max-matches", "3", "--format", "json");
    assertThat(r.exitCode()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    // The same document as MCP's logs_search: the query with its context and limit, then logs, errors, notes, total.
    assertThat(j.get("query").get("before").asInt()).isEqualTo(1);
    assertThat(j.get("query").get("after").asInt()).isEqualTo(2);
    assertThat(j.get("query").get("maxMatches").asInt()).isEqualTo(3);
    assertThat(j.fieldNames()).toIterable().containsExactly("action", "query", "logs", "errors", "notes", "totalMatches");
    assertThat(j.get("logs")).hasSize(2).allSatisfy(log -> assertThat(log.get("limitReached").asBoolean()).isTrue());
    assertThat(j.get("totalMatches").asInt()).isEqualTo(6);
  }

  @Test
  void aLogThatCannotBeReadIsAnErrorButTheOthersAreStillCounted() {
    CliRun r = CliRun.of("logs", "count", dir.resolve("driver.log").toString(), dir.resolve("missing.log").toString(), "--literal", "ERROR");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).contains(dir.resolve("driver.log") + ": 5005 lines, 5 matching");
    assertThat(r.err()).contains("missing.log");
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void strictFailsOnACutOffLogOfEveryCodecWhileTheDefaultReadsWhatIsThere(Compression codec) throws IOException {
    byte[] whole = Codecs.compressFlushing(codec, text, 100);
    Path cut = dir.resolve("cut-" + codec.name().toLowerCase() + (codec == Compression.NONE ? ".log" : "." + codec.codecName()));
    Files.write(cut, Arrays.copyOf(whole, whole.length * 2 / 3));

    CliRun lenient = CliRun.of("logs", "count", cut.toString(), "--literal", "ERROR");
    assertThat(lenient.exitCode()).as("without --strict").isZero();
    assertThat(lenient.out()).contains("Lines: ");

    CliRun strict = CliRun.of("logs", "count", cut.toString(), "--literal", "ERROR", "--strict");
    assertThat(strict.exitCode()).as("with --strict").isEqualTo(2);
    assertThat(strict.err()).contains(cut.toString()).containsPattern("is cut off|ends in the middle of line");
  }
}

package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.TestHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogsCommandTest {
  @TempDir Path dir;
  Path log;

  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = SparkRcaCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(exit, out.toString(), err.toString());
  }

  @BeforeEach
  void writeLog() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 50; i++) {
      sb.append(i == 26 ? "java.lang.OutOfMemoryError: Java heap space" : "Normal log line " + i).append('\n');
    }
    log = dir.resolve("test.log");
    Files.writeString(log, sb);
  }

  @Test
  void searchPrintsTheLogReaderFormat() {
    Run r = run("logs", "search", "--literal", "OutOfMemoryError", "--context", "2", log.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo(
        "=== Searching 'OutOfMemoryError' in " + log + " ===\n"
            + "\n"
            + "--- Match #1 at line 26 (byte 466) ---\n"
            + "      24 | Normal log line 24\n"
            + "      25 | Normal log line 25\n"
            + ">     26 | java.lang.OutOfMemoryError: Java heap space\n"
            + "      27 | Normal log line 27\n"
            + "      28 | Normal log line 28\n"
            + "\n"
            + "=== Search complete. Total matches found: 1 (scanned 50 lines) ===\n");
  }

  @Test
  void searchWithoutMatchesPrintsTheHint() {
    Run r = run("logs", "search", "--regex", "java heap space", log.toString());
    assertThat(r.out()).contains("Total matches found: 0 (scanned 50 lines)").contains("retry with --ignore-case");
    Run folded = run("logs", "search", "--regex", "java heap space", "-i", log.toString());
    assertThat(folded.out()).contains("Total matches found: 1");
  }

  @Test
  void searchJsonHasOneObjectPerMatch() throws IOException {
    Run r = run("logs", "search", "--regex", "OutOfMemory|line 3$", "-B", "1", "-A", "0", "--format", "json", log.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertThat(root.get("matches")).hasSize(2);
    JsonNode m = root.get("matches").get(0);
    assertThat(m.get("line").asInt()).isEqualTo(3);
    assertThat(m.get("byteOffset").asInt()).isEqualTo(36);
    assertThat(m.get("text").asText()).isEqualTo("Normal log line 3");
    assertThat(m.get("before").get(0).get("text").asText()).isEqualTo("Normal log line 2");
    assertThat(m.get("after")).isEmpty();
  }

  @Test
  void headTailRangeAndCount() throws IOException {
    assertThat(run("logs", "head", "2", log.toString()).out()).isEqualTo("Normal log line 1\nNormal log line 2\n");
    assertThat(run("logs", "tail", "2", log.toString()).out()).isEqualTo("Normal log line 49\nNormal log line 50\n");
    assertThat(run("logs", "range", "25", "26", log.toString()).out())
        .isEqualTo("    25 | Normal log line 25\n    26 | java.lang.OutOfMemoryError: Java heap space\n");
    assertThat(run("logs", "count", "--literal", "Normal", log.toString()).out())
        .contains("Lines: 50\n").contains("Matching lines (literal 'Normal'): 49\n");
    JsonNode tail = new ObjectMapper().readTree(run("logs", "tail", "1", "--format", "json", log.toString()).out());
    // The tail window holds the whole 50-line file, so the line's number is known.
    assertThat(tail.get("lines").get(0).get("line").asInt()).isEqualTo(50);
    assertThat(tail.get("lines").get(0).get("text").asText()).isEqualTo("Normal log line 50");
  }

  @Test
  void infoOfACompressedLogWithoutExtension() throws IOException {
    Path noext = dir.resolve("application_1700000000000_0001");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(Files.readAllBytes(log));
    }
    Files.write(noext, gz.toByteArray());
    Run r = run("logs", "info", noext.toString());
    assertThat(r.out()).contains("Compressed: True\n").contains("Codec: gzip\n").contains("Is Large File (>20MB): False\n");
    assertThat(r.err()).contains("Note: The size is the compressed size");
    Run tail = run("logs", "tail", "1", noext.toString());
    assertThat(tail.out()).isEqualTo("Normal log line 50\n");
  }

  @Test
  void errorsAreOneLineAndExitTwo() {
    Run missing = run("logs", "head", "5", dir.resolve("missing.log").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err().strip()).isEqualTo("sparkrca: " + dir.resolve("missing.log") + " not found: check the path");

    Run badRegex = run("logs", "search", "--regex", "Error(", log.toString());
    assertThat(badRegex.exit()).isEqualTo(2);
    assertThat(badRegex.err()).startsWith("sparkrca: search: invalid regular expression 'Error('").hasLineCount(1);

    Run reversed = run("logs", "range", "10", "5", log.toString());
    assertThat(reversed.exit()).isEqualTo(2);
    assertThat(reversed.err()).contains("END (5) must not be less than START (10)");

    Run tooMany = run("logs", "range", "1", "10000000", log.toString());
    assertThat(tooMany.err()).contains("exceeds the 5000-line cap");

    Run both = run("logs", "search", "--regex", "a", "--literal", "b", log.toString());
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");

    Run none = run("logs", "search", log.toString());
    assertThat(none.exit()).isEqualTo(2);

    Run binary = run("logs", "head", "1", writeBinary().toString());
    assertThat(binary.exit()).isEqualTo(2);
    assertThat(binary.err()).contains("is binary, not text");
  }

  private Path writeBinary() {
    try {
      Path p = dir.resolve("app.jar");
      Files.write(p, new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0});
      return p;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void remoteLogWithCredentialsFromTheEnvironmentNeverPrintsThem() throws IOException {
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/driver.log", TestHttpServer.Content.of(Files.readAllBytes(log)))
          .requireAuthorization("Bearer right");
      Run noCreds = run("logs", "tail", "1", server.url("/driver.log"));
      assertThat(noCreds.exit()).isEqualTo(2);
      assertThat(noCreds.err()).contains("HTTP 401").contains("--bearer-token-env");

      Run wrong = run("logs", "tail", "1", "--header", "Authorization: Bearer wrong-s3cret", server.url("/driver.log"));
      assertThat(wrong.exit()).isEqualTo(2);
      assertThat(wrong.err()).contains("HTTP 403").doesNotContain("wrong-s3cret");

      Run ok = run("logs", "tail", "1", "--header", "Authorization: Bearer right", server.url("/driver.log"));
      assertThat(ok.exit()).isZero();
      assertThat(ok.out()).isEqualTo("Normal log line 50\n");
    }
  }

  /** The test_summarize_events_gz fixture of the Python log reader's tests. */
  static final String EVENTS =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
          + "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"TestJob\",\"App ID\":\"app-test-01\",\"Timestamp\":1000,\"User\":\"spark_user\"}\n"
          + "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1000,\"Stage Infos\":[],\"Stage IDs\":[]}\n"
          + "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":1,\"Stage Attempt ID\":0,\"Stage Name\":\"count_stage\",\"Number of Tasks\":10,\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\",\"Failure Reason\":\"Stage failed due to task failures\",\"Accumulables\":[{\"ID\":1,\"Name\":\"internal.metrics.memoryBytesSpilled\",\"Value\":10485760}]}}\n"
          + "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.ArithmeticException\",\"Description\":\"Divide by zero\",\"Stack Trace\":[]},\"Task Info\":{\"Task ID\":5,\"Index\":0,\"Attempt\":2,\"Launch Time\":1500,\"Executor ID\":\"3\",\"Host\":\"worker-1\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":1900,\"Failed\":true,\"Killed\":false,\"Accumulables\":[]},\"Task Metrics\":{\"JVM GC Time\":1500}}\n"
          + "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":2000,\"Executor ID\":\"1\",\"Removed Reason\":\"Container killed by YARN for exceeding memory limits\"}\n"
          + "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":4000,\"Job Result\":{\"Result\":\"JobFailed\"}}\n"
          + "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5000}\n";

  private byte[] gzipEvents() throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(EVENTS.getBytes(StandardCharsets.UTF_8));
    }
    return gz.toByteArray();
  }

  @Test
  void eventsSummarizesALocalGzipEventLog() throws IOException {
    Path events = dir.resolve("events.gz");
    Files.write(events, gzipEvents());
    Run r = run("logs", "events", events.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("app-test-01", "TestJob", "3.5.1", "java.lang.ArithmeticException",
        "Divide by zero", "Container killed by YARN");
  }

  @Test
  void eventsReadsARemoteEventLogWithTheGivenCredentials() throws IOException {
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/spark-events/application_1700000000000_0001", TestHttpServer.Content.of(gzipEvents()))
          .requireAuthorization("Bearer ev");
      Run r = run("logs", "events", "--format", "json", "--header", "Authorization: Bearer ev",
          server.url("/spark-events/application_1700000000000_0001"));
      assertThat(r.exit()).as(r.err()).isZero();
      JsonNode root = new ObjectMapper().readTree(r.out());
      assertThat(root.toString()).contains("app-test-01").contains("TestJob");
    }
  }

  @Test
  void logsWithoutAnActionIsAUsageError() {
    Run r = run("logs");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("an action is required");
  }

  @Test
  void helpListsEveryAction() {
    Run r = run("logs", "--help");
    assertThat(r.out()).contains("info", "head", "tail", "range", "count", "search", "events");
    assertThat(new String(r.out().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).contains("driveroutput");
  }

  @Test
  void countOfALogLargeEnoughToBeReadInRangesGivesEveryLineAndMatchOnce() throws IOException {
    // Over 16 MiB: counted over byte ranges on several threads. Lines end in LF, CR LF and lone
    // CR; some are multi-byte; the last has no line end.
    Path big = dir.resolve("big.log");
    String[] ends = {"\n", "\r\n", "\r"};
    long lines = 0;
    long matches = 0;
    try (java.io.Writer w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
      long bytes = 0;
      for (int i = 0; bytes < (17L << 20); i++) {
        boolean hit = i % 997 == 0 || i % 1013 == 0;
        String line = (hit ? (i % 2 == 0 ? "java.lang.OutOfMemoryError: été " + i : "Container killed by YARN " + i)
            : "INFO 日本 executor heartbeat " + i) + ends[i % 3];
        w.write(line);
        bytes += line.getBytes(StandardCharsets.UTF_8).length;
        lines++;
        matches += hit ? 1 : 0;
      }
      w.write("last Container killed");
      lines++;
      matches++;
    }
    Run r = run("logs", "count", "--regex", "OutOfMemoryError|Container killed", big.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("Lines: " + lines + "\n", "): " + matches + "\n");
    Run json = run("logs", "count", "--regex", "outofmemoryerror|container KILLED", "-i", "--format", "json", big.toString());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertThat(doc.get("lines").asLong()).isEqualTo(lines);
    assertThat(doc.get("matchingLines").asLong()).isEqualTo(matches);
    assertThat(run("logs", "count", big.toString()).out()).contains("Lines: " + lines + "\n");
  }
}

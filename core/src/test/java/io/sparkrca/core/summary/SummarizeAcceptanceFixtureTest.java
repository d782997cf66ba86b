package io.sparkrca.core.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.testing.Codecs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance fixtures of spark_gcs_log_reader.py's summarizer, ported: a gzip log with real
 * JsonProtocol field names, and a gzip log without an extension.
 */
class SummarizeAcceptanceFixtureTest {
  private static final String FIXTURE =
      String.join(
          "\n",
          "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}",
          "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"TestJob\",\"App ID\":\"app-test-01\",\"Timestamp\":1000,\"User\":\"spark_user\"}",
          "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0}",
          "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":1,\"Stage Name\":\"count_stage\",\"Number of Tasks\":10,\"RDD Info\":[],\"Failure Reason\":\"Stage failed due to task failures\",\"Accumulables\":[{\"ID\":1,\"Name\":\"internal.metrics.memoryBytesSpilled\",\"Value\":10485760}]}}",
          "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":5,\"Index\":0,\"Attempt\":2,\"Executor ID\":\"3\",\"Host\":\"worker-1\"},\"Task Metrics\":{\"JVM GC Time\":1500},\"Task End Reason\":{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.ArithmeticException\",\"Description\":\"Divide by zero\",\"Stack Trace\":[]}}",
          "{\"Event\":\"SparkListenerExecutorRemoved\",\"Executor ID\":\"1\",\"Removed Reason\":\"Container killed by YARN for exceeding memory limits\",\"Timestamp\":2000}",
          "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Job Result\":{\"Result\":\"JobFailed\"}}",
          "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5000}")
          + "\n";

  @Test
  void summarizesTheAcceptanceFixtureWithEveryAssertedFact(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("events.gz");
    Files.write(log, Codecs.compress(Compression.GZIP, FIXTURE.getBytes(StandardCharsets.UTF_8)));

    ReplayedApplication app = EventLogs.replay(log);
    String md = SummaryMarkdown.render(ApplicationSummary.of(app, log.toString()));

    assertThat(md)
        .contains("app-test-01", "TestJob", "3.5.1", "Stage 1", "Mem Spilled")
        .contains("java.lang.ArithmeticException", "Divide by zero", "Container killed by YARN")
        .contains("Attempt 2", "Executor 3")
        .contains("`1` total, `1` failed")
        .contains("**Total JVM GC Time**: `1500 ms`")
        .doesNotContain("'Reason':")
        .doesNotContain("Reason: `None`");
    // What the Python tool's own tests derive by hand from the fixture:
    assertThat(md)
        .contains("`4.00s`")
        .contains("**Total Event Lines Processed**: `8`")
        .contains("- **Stage 1** (attempt 0, `count_stage`) at line 4:")
        .contains("**Task 5** (Stage 1, Index 0, Attempt 2, Executor 3, Host worker-1) at line 5")
        .contains("- Executor `1` at line 6: Reason: `Container killed by YARN for exceeding memory limits`")
        .contains("- Stage 1: Mem Spilled = 10485760 bytes (10.0 MiB), Disk Spilled = 0 bytes (0 B) (line 4)");
    // Unlike the Python tool, failed tasks are not counted as completed.
    assertThat(md).contains("**Tasks**: `1` ended: 0 succeeded, `1` failed, 0 killed");
  }

  @Test
  void detectsGzipWithoutAnExtension(@TempDir Path dir) throws IOException {
    String log =
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
            + "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"NoExtJob\",\"App ID\":\"app-noext\",\"Timestamp\":1,\"User\":\"u\"}\n"
            + "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2}\n";
    Path file = dir.resolve("application_1700000000000_0001");
    Files.write(file, Codecs.compress(Compression.GZIP, log.getBytes(StandardCharsets.UTF_8)));

    ReplayedApplication app = EventLogs.replay(file);

    assertThat(app.report().sources()).singleElement().extracting(s -> s.codec()).isEqualTo("gzip");
    assertThat(SummaryMarkdown.render(ApplicationSummary.of(app, file.toString())))
        .contains("app-noext", "3.5.1");
  }
}

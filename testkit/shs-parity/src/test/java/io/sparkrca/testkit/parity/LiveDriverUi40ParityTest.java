package io.sparkrca.testkit.parity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.testing.JsonDiff;
import io.sparkrca.historyserver.testing.RecordedAnswers;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.testkit.ForkedJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * {@link LiveDriverUiParityTest} against a running application of Spark 4.0.4, and the command line
 * on its live URL (once, here: the CLI reads a driver UI through the same client whatever the Spark
 * version, and each run starts a JVM).
 */
class LiveDriverUi40ParityTest extends LiveDriverUiParityTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  String sparkVersion() {
    return "4.0.4";
  }

  @Test
  @Order(6)
  void theCommandLineOnTheLiveUrlSaysWhatTheLibrarySays() throws IOException {
    RcaReport expected = RcaEngine.standard().analyze(EvidenceCollector.builder().application(live().eventLog().toString()).build().collect());

    Run rca = sparkrca("rca", live().uiUrl(), "--format", "json");
    assertThat(rca.exit).as("rca on the live UI: exit code (1: a problem found)\n%s", rca.err).isEqualTo(1);
    JsonNode report = JSON.readTree(rca.out);
    assertThat(report.path("rootCause").path("kind").asText()).as("rca's root cause on the live UI").isEqualTo(expected.rootCause().kind().name());
    assertThat(report.toString()).as("rca's report on the live UI").contains("still running");

    Run summary = sparkrca("summarize", "--shs", live().uiUrl(), "--app", appId(), "--format", "json");
    assertThat(summary.exit).as("summarize on the live UI: exit code (1: the application has a failed job)\n%s", summary.err).isEqualTo(1);
    assertThat(JSON.readTree(summary.out).path("status").asText()).as("summarize's status on the live UI").contains("still being written");

    Run rulesOnLog = sparkrca("rules", live().eventLog().toString(), "--format", "json");
    Run rules = sparkrca("rules", live().uiUrl(), "--format", "json");
    assertThat(rules.exit).as("rules on the live UI: exit code\n%s", rules.err).isEqualTo(rulesOnLog.exit);
    JsonNode e = JSON.readTree(rulesOnLog.out);
    JsonNode a = JSON.readTree(rules.out);
    RecordedAnswers.dropKeys(e, "totalDurationMs");
    RecordedAnswers.dropKeys(a, "totalDurationMs");
    assertThat(JsonDiff.diff(e, a)).as("sparkrca rules on the live UI vs on its in-progress log").isEmpty();
  }

  record Run(int exit, String out, String err) {}

  /**
   * The command line as users run it: the CLI's shaded jar in its own JVM (built by the cli module's
   * package phase, so present in {@code mvn verify}; a run of this module's tests alone without it
   * skips this test and says so).
   */
  static Run sparkrca(String... args) throws IOException {
    Path jar = Path.of(System.getProperty("sparkrca.cli.jar", "../../cli/target/sparkrca.jar")).toAbsolutePath().normalize();
    org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isRegularFile(jar),
        "the CLI's shaded jar " + jar + " is not built; run mvn -B -o verify (or package the cli module) first");
    List<String> cmd = new ArrayList<>(List.of(ForkedJvm.currentJava().toString(), "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    Path out = java.nio.file.Files.createTempFile("sparkrca-cli-", ".out");
    Path err = java.nio.file.Files.createTempFile("sparkrca-cli-", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
      // No History Server credentials or discovery settings of whoever runs the build.
      pb.environment().keySet().removeIf(k -> k.startsWith("SPARK_HISTORY_"));
      Process p = pb.start();
      p.getOutputStream().close();
      if (!p.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError("sparkrca " + String.join(" ", args) + " did not end within 2 minutes");
      }
      return new Run(p.exitValue(), java.nio.file.Files.readString(out), java.nio.file.Files.readString(err));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      java.nio.file.Files.deleteIfExists(out);
      java.nio.file.Files.deleteIfExists(err);
    }
  }

}

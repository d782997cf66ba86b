package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No verdict of health on damaged evidence: the real healthy run (and a real failed one), with
 * lines deleted or repeated the way logs are damaged, analysed with the driver log that would
 * otherwise confirm health. The damage is stated; health is at most a hypothesis; an application
 * whose job or query never ended is incomplete.
 */
class DamagedEvidenceTest {
  private static final String TASK_END = "\"SparkListenerTaskEnd\"";
  private static final String JOB_END = "\"SparkListenerJobEnd\"";

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void theIntactHealthyRunWithItsDriverLogIsConfirmedHealthy() {
    TestkitFixtures.Fixture f = healthy();
    RcaReport r = rca(f.eventLog(), f);
    assertThat(r.verdict()).isEqualTo(Verdict.HEALTHY);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.missingEvidence()).noneMatch(m -> m.detail().contains("contradict"));
  }

  @Test
  void aRepeatedTaskEndMakesHealthOnlyAHypothesisAndIsStated(@TempDir Path dir) throws IOException {
    List<String> lines = lines(healthy());
    int at = first(lines, l -> l.contains(TASK_END));
    lines.add(at + 1, lines.get(at));
    RcaReport r = rca(write(dir, lines), healthy());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.HEALTHY);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.rootCause().explanation()).contains("damaged", "task end events without the task's start");
    assertThat(r.missingEvidence()).anySatisfy(m -> assertThat(m.howToGet()).contains("another copy of its event log"));
    assertThat(r.rootCause().toConfirm()).hasValueSatisfying(t -> assertThat(t).contains("undamaged copy of the event log"));
    assertThat(r.missingEvidence()).anySatisfy(m -> assertThat(m.detail())
        .contains("task end events without the task's start (a start lost or an end repeated): 1, the first at "
            + "local-1795964768091 line " + (at + 2)));
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
  }

  @Test
  void everyTaskEndDeletedIsNeverNoProblemFoundConfirmed(@TempDir Path dir) throws IOException {
    List<String> lines = lines(healthy());
    lines.removeIf(l -> l.contains(TASK_END));
    RcaReport r = rca(write(dir, lines), healthy());
    assertThat(r.rootCause().confidence()).isNotEqualTo(Confidence.CONFIRMED);
    assertThat(r.missingEvidence()).anySatisfy(m -> assertThat(m.detail())
        .contains("tasks launched that never ended although the application did: 5"));
  }

  @Test
  void aJobThatNeverEndedInAnApplicationThatDidIsIncompleteNotHealthy(@TempDir Path dir) throws IOException {
    List<String> lines = lines(healthy());
    lines.remove(last(lines, l -> l.contains(JOB_END)));
    RcaReport r = rca(write(dir, lines), healthy());
    assertThat(r.verdict()).isEqualTo(Verdict.UNDETERMINED);
    assertThat(r.application().outcome()).isEqualTo(ApplicationRef.Outcome.INCOMPLETE);
    assertThat(r.rootCause().explanation()).contains("never ended although the application did: job 1 (its one task "
        + "succeeded; running 1.0 s when the application ended)");
    assertThat(r.missingEvidence()).anySatisfy(m -> assertThat(m.whyItMatters()).contains("may have failed"));
  }

  @Test
  void aSqlExecutionThatNeverEndedDidNotFinishAndRanNoLongerThanTheApplication(@TempDir Path dir) throws IOException {
    List<String> lines = lines(healthy());
    lines.removeIf(l -> l.contains("SparkListenerSQLExecutionEnd"));
    Path log = write(dir, lines);
    // The log's modification time, the History Server's "now", years after the 2-second run.
    Files.setLastModifiedTime(log, FileTime.fromMillis(4_000_000_000_000L));
    RcaReport r = rca(log, healthy());
    assertThat(r.verdict()).isEqualTo(Verdict.UNDETERMINED);
    assertThat(r.rootCause().explanation()).contains("SQL execution 0", "did not finish", "when the application ended")
        .doesNotContain("years", " d ", "days");
    long appMs = r.application().durationMs().orElseThrow();
    assertThat(appMs).isLessThan(60_000);
  }

  @Test
  void aStageWhoseJobStartIsMissingIsStatedAndHealthIsOnlyAHypothesis(@TempDir Path dir) throws IOException {
    List<String> lines = lines(healthy());
    lines.remove(first(lines, l -> l.contains("\"SparkListenerJobStart\"")));
    RcaReport r = rca(write(dir, lines), healthy());
    assertThat(r.rootCause().confidence()).isNotEqualTo(Confidence.CONFIRMED);
    assertThat(r.missingEvidence()).anySatisfy(m -> assertThat(m.detail()).contains("stage 0", "to no job"));
  }

  @Test
  void aFailedRunWhoseFailedJobEndWasDeletedIsNeverHealthy(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    List<String> lines = lines(f);
    lines.removeIf(l -> l.contains(JOB_END) && l.contains("JobFailed"));
    lines.removeIf(l -> l.contains("SparkListenerSQLExecutionEnd"));
    Path log = Files.write(dir.resolve(f.eventLog().getFileName()), lines, StandardCharsets.UTF_8);
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString()).build().collect());
    assertThat(r.verdict()).isNotEqualTo(Verdict.HEALTHY);
    assertThat(r.rootCause().kind()).isNotEqualTo(RootCauseKind.HEALTHY);
  }

  private static TestkitFixtures.Fixture healthy() {
    return TestkitFixtures.get("3.5.9", "healthy");
  }

  private static RcaReport rca(Path log, TestkitFixtures.Fixture f) {
    return RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString())
        .driverLog(f.driverLog().toString()).build().collect());
  }

  private static List<String> lines(TestkitFixtures.Fixture f) throws IOException {
    return new ArrayList<>(Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8));
  }

  private static Path write(Path dir, List<String> lines) throws IOException {
    return Files.write(dir.resolve(healthy().eventLog().getFileName()), lines, StandardCharsets.UTF_8);
  }

  private static int first(List<String> lines, Predicate<String> p) {
    for (int i = 0; i < lines.size(); i++) {
      if (p.test(lines.get(i))) {
        return i;
      }
    }
    throw new AssertionError("no such line in the fixture");
  }

  private static int last(List<String> lines, Predicate<String> p) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (p.test(lines.get(i))) {
        return i;
      }
    }
    throw new AssertionError("no such line in the fixture");
  }
}

package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facts a root cause states are the facts of the run (issue #41 §2), each read on a real
 * testkit run: the stages it names are its culprit stages.
 */
class RootCauseFactsTest {
  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void aConfigurationRegressionHasTheStageWhoseTimeRegressedAsItsCulprit() {
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "config-regression"), true);
      assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.CONFIG_REGRESSION);
      // Stage 1 ran the 1000 shuffle partitions: 18.8 s against the baseline's 784 ms on Spark 4.0.4.
      assertThat(r.rootCause().explanation()).contains("The first stage to depart is stage 1 (");
      assertThat(r.rootCause().stageIds()).as(v).containsExactly(1);
    }
  }

  @Test
  void anExecutorLostDuringTheReduceStageNamesThatStageNotTheMapStageReRunAfterIt() {
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      // Executor 1 is SIGKILLed by its own reduce task of stage 1 (its task 1.0 lost with it); the map stage 0
      // re-runs because its output went with the executor.
      for (boolean logs : new boolean[] {true, false}) {
        RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "executor-lost-fetch-failure"), logs);
        assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
        assertThat(r.rootCause().stageIds()).as(v + (logs ? " with logs" : " event log alone")).containsExactly(1);
        assertThat(r.rootCause().culprit().executorIds()).containsExactly("1");
        assertThat(r.failureChain()).anySatisfy(l -> assertThat(l.event()).startsWith("stage 0 re-run"));
      }
    }
  }

  @Test
  void theLineRecordingTasksLostWithTwoExecutorsIsCitedOnceAndNamesBoth() {
    // Executors 0 and 1 both exit on an OutOfMemoryError (exit code 3): one event-log line groups the two lost tasks.
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "executor-oom-exit-on-oom"), false);
      assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_HEAP);
      List<EvidenceRef> lost = r.rootCause().evidenceFor().stream().filter(e -> e.detail().contains("tasks lost with")).toList();
      assertThat(lost).as(v).hasSize(1);
      assertThat(lost.get(0).detail()).startsWith("2 tasks lost with executors 0, 1: ExecutorLostFailure");
      assertThat(r.rootCause().evidenceFor()).filteredOn(e -> e.line() > 0)
          .extracting(e -> e.source() + ":" + e.line()).doesNotHaveDuplicates();
    }
  }
}

package io.sparkrca.core.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Facts derived from the model alone (as for a History Server source) agree with the facts a
 * replay gathers from the event log, on every testkit fixture: the same failure groups (reason,
 * exception, description, count, stages, partitions, executors), stage failures, removals and
 * spills. Only provenance differs (API paths instead of log lines).
 */
class FactsFromModelTest {

  @TestFactory
  Stream<DynamicTest> modelDerivedFactsMatchTheReplaysOnEveryFixture() {
    List<TestkitFixtures.Fixture> all = TestkitFixtures.all();
    assumeTrue(!all.isEmpty(), "testkit/fixtures is absent: skipped");
    return all.stream().map(f -> DynamicTest.dynamicTest(f.sparkVersion() + "/" + f.scenario(), () -> {
      ReplayedApplication replay = EventLogs.replay(f.eventLog());
      ApplicationFacts fromLog = replay.facts();
      ApplicationFacts fromModel = new ModelOnlyApplication(replay).facts();
      assertThat(fromModel.sparkVersion()).isEqualTo(fromLog.sparkVersion());
      assertThat(fromModel.jobsStarted()).isEqualTo(fromLog.jobsStarted());
      assertThat(fromModel.jobsFailed()).isEqualTo(fromLog.jobsFailed());
      assertThat(fromModel.tasksEnded()).isEqualTo(fromLog.tasksEnded());
      assertThat(fromModel.tasksFailed()).isEqualTo(fromLog.tasksFailed());
      assertThat(fromModel.tasksKilled()).isEqualTo(fromLog.tasksKilled());
      assertThat(fromModel.totalGcTimeMs()).isEqualTo(fromLog.totalGcTimeMs());
      assertThat(fromModel.taskFailures()).hasSameSizeAs(fromLog.taskFailures());
      for (int i = 0; i < fromLog.taskFailures().size(); i++) {
        TaskFailureGroup a = fromLog.taskFailures().get(i);
        TaskFailureGroup b = fromModel.taskFailures().get(i);
        assertThat(b.reason()).as("reason of group %d", i).isEqualTo(a.reason());
        assertThat(b.exceptionClass()).as("exception of group %d", i).isEqualTo(a.exceptionClass());
        assertThat(b.description()).as("description of group %d", i).isEqualTo(a.description());
        assertThat(b.count()).as("count of group %d", i).isEqualTo(a.count());
        assertThat(b.stageIds()).as("stages of group %d", i).isEqualTo(a.stageIds());
        assertThat(b.partitionIndices()).as("partitions of group %d", i).isEqualTo(a.partitionIndices());
        assertThat(b.executorIds()).as("executors of group %d", i).containsExactlyInAnyOrderElementsOf(a.executorIds());
        assertThat(b.firstDetail()).as("first error of group %d", i).isEqualTo(a.firstDetail());
      }
      assertThat(fromModel.stageFailures()).extracting(StageFailure::stageId, StageFailure::attemptId, StageFailure::reason)
          .containsExactlyInAnyOrderElementsOf(fromLog.stageFailures().stream()
              .map(s -> org.assertj.core.groups.Tuple.tuple(s.stageId(), s.attemptId(), s.reason())).toList());
      assertThat(fromModel.executorRemovals()).extracting(ExecutorRemoval::executorId, ExecutorRemoval::reason)
          .containsExactlyInAnyOrderElementsOf(fromLog.executorRemovals().stream()
              .map(r -> org.assertj.core.groups.Tuple.tuple(r.executorId(), r.reason())).toList());
      assertThat(fromModel.stageSpills()).extracting(StageSpill::stageId, StageSpill::diskBytes)
          .containsExactlyInAnyOrderElementsOf(fromLog.stageSpills().stream()
              .map(s -> org.assertj.core.groups.Tuple.tuple(s.stageId(), s.diskBytes())).toList());
      assertThat(fromModel.sqlFailures()).extracting(SqlFailure::executionId)
          .containsExactlyElementsOf(fromLog.sqlFailures().stream().map(SqlFailure::executionId).toList());
    }));
  }

  @Test
  void aFailedSqlExecutionKeepsItsErrorMessageWithItsLine() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    ApplicationFacts f = EventLogs.replay(TestkitFixtures.get("3.5.9", "write-commit-failure").eventLog()).facts();
    assertThat(f.sqlFailures()).hasSize(1);
    SqlFailure s = f.sqlFailures().get(0);
    assertThat(s.errorMessage()).contains("commit");
    assertThat(s.line()).isPositive();
  }
}

package io.sparkrca.core.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.TaskFailureGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskFailureFolderTest {
  private static void lost(TaskFailureFolder f, String executor, String host, int partition, String reason) {
    f.add("ExecutorLostFailure", "", "ExecutorLostFailure (executor " + executor
        + " exited caused by one of the running tasks) Reason: " + reason, () -> "detail " + executor,
        "log", 10, 1000, 7, 3, 0, partition, 0, executor, host);
  }

  @Test
  void oneLossReasonOnFourExecutorsIsOneCause() {
    TaskFailureFolder f = new TaskFailureFolder(200);
    for (int i = 1; i <= 4; i++) {
      lost(f, Integer.toString(i), "10.0.0." + i, i,
          "Container marked as failed: container_1700_0001_01_00000" + i + " on host: 10.0.0." + i + ". Exit status: 137");
    }
    List<TaskFailureGroup> groups = f.groups();
    assertThat(groups).hasSize(1);
    TaskFailureGroup g = groups.get(0);
    assertThat(g.count()).isEqualTo(4);
    assertThat(g.executorIds()).containsExactly("1", "2", "3", "4");
    assertThat(g.hosts()).hasSize(4);
    assertThat(g.partitionIndices()).containsExactly(1, 2, 3, 4);
    assertThat(g.firstDetail()).isEqualTo("detail 1");
  }

  @Test
  void differentExitCodesStayDifferentCauses() {
    TaskFailureFolder f = new TaskFailureFolder(200);
    lost(f, "1", "h1", 0, "Command exited with code 52");
    lost(f, "2", "h2", 0, "Command exited with code 137");
    assertThat(f.groups()).hasSize(2);
  }

  @Test
  void groupsBeyondTheCapAreCountedAsDropped() {
    TaskFailureFolder f = new TaskFailureFolder(2);
    for (int i = 0; i < 5; i++) {
      f.add("ExceptionFailure", "java.lang.IllegalStateException", "java.lang.IllegalStateException: case " + i,
          () -> "", "log", i, i, i, 0, 0, i, 0, "1", "h");
    }
    assertThat(f.groups()).hasSize(2);
    assertThat(f.dropped()).isEqualTo(3);
  }

  @Test
  void theFirstErrorIsKeptBoundedAndAskedForOnce() {
    TaskFailureFolder f = new TaskFailureFolder(10);
    int[] asked = {0};
    for (int i = 0; i < 3; i++) {
      f.add("ExceptionFailure", "x.Y", "x.Y: boom", () -> {
        asked[0]++;
        return "z".repeat(TaskFailureGroup.MAX_DETAIL_CHARS + 10);
      }, "log", i, i, i, 0, 0, 0, i, "1", "h");
    }
    assertThat(asked[0]).isEqualTo(1);
    assertThat(f.groups().get(0).firstDetail()).hasSize(TaskFailureGroup.MAX_DETAIL_CHARS);
  }
}

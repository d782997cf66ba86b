package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.fleet.FleetLog;
import io.sparkrca.spark.internal.TaskPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskPlanTest {
  private static FleetLog log(String name, long size) {
    return new FleetLog("/fleet/" + name, name, List.of("/fleet/" + name), false, false, size, Optional.empty(),
        Optional.empty());
  }

  @Test
  void everyLogLandsInExactlyOneTask() {
    List<FleetLog> logs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      logs.add(log("app-" + i, (i * 7919L) % 5_000_000));
    }
    List<List<FleetLog>> groups = TaskPlan.groups(logs, 16L << 20, 4);
    assertThat(groups.stream().flatMap(List::stream).map(FleetLog::uri))
        .containsExactlyInAnyOrderElementsOf(logs.stream().map(FleetLog::uri).toList());
  }

  @Test
  void manySmallLogsShareTasksButEveryCoreGetsWork() {
    List<FleetLog> logs = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      logs.add(log("app-" + i, 100_000));
    }
    List<List<FleetLog>> groups = TaskPlan.groups(logs, 64L << 20, 4);
    // 2000 x (100 KB + the per-log cost) is about 700 MB: about 11 tasks of 64 MiB, and at least 4.
    assertThat(groups).hasSizeBetween(4, 12);
    int min = groups.stream().mapToInt(List::size).min().orElseThrow();
    int max = groups.stream().mapToInt(List::size).max().orElseThrow();
    assertThat(max - min).as("equal logs spread evenly").isLessThanOrEqualTo(1);
  }

  @Test
  void aLargeLogIsATaskOfItsOwn() {
    List<FleetLog> logs = new ArrayList<>();
    logs.add(log("big", 1L << 30));
    for (int i = 0; i < 50; i++) {
      logs.add(log("small-" + i, 10_000));
    }
    List<List<FleetLog>> groups = TaskPlan.groups(logs, 64L << 20, 2);
    assertThat(groups.get(0)).extracting(FleetLog::name).containsExactly("big");
    assertThat(groups.subList(1, groups.size()).stream().flatMap(List::stream)).hasSize(50);
  }

  @Test
  void fewerLogsThanCoresMakeOneTaskEach() {
    List<List<FleetLog>> groups = TaskPlan.groups(List.of(log("a", 1), log("b", 2)), 64L << 20, 8);
    assertThat(groups).hasSize(2).allSatisfy(g -> assertThat(g).hasSize(1));
    assertThat(TaskPlan.groups(List.of(), 1, 8)).isEmpty();
  }
}

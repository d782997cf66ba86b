package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.model.TaskTotals;
import io.sparkrca.core.testing.SharedData;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Task pages near the top of a stage (the slowest task, the first 20) are selected without
 * sorting the stage, and task summaries compute each metric's quantiles when the metric is first
 * read. Both must answer exactly as before: pages equal the same window of the fully sorted list
 * (every sorting, with and without status filters, on every testkit and conformance log), and a
 * summary's values do not depend on which metric is read first, on the order of reads or on the
 * thread, and behave as ordinary lists.
 */
class TaskPagesAndSummariesTest {
  private static final List<Double> QUANTILES = List.of(0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0);

  static Stream<Arguments> logs() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      out.add(Arguments.of(f.sparkVersion() + "/" + f.scenario(), f.eventLog().toString()));
    }
    Optional<Path> conformance =
        SharedData.dir().map(d -> d.resolve("conformance/spark-shs/spark-events")).filter(Files::isDirectory);
    if (conformance.isPresent()) {
      try (Stream<Path> s = Files.list(conformance.get())) {
        s.sorted().forEach(p -> out.add(Arguments.of("conformance/" + p.getFileName(), p.toString())));
      }
    }
    assertThat(out).isNotEmpty();
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void pagesNearTheTopAreTheSameWindowOfTheSortedList(String name, String uri) {
    for (EventLogRef ref : EventLogs.reader().build().find(uri)) {
      ReplayedApplication app = EventLogs.reader().build().replay(ref);
      for (StageData s : app.stages(StageQuery.all())) {
        for (TaskSorting sorting : TaskSorting.values()) {
          for (Set<TaskStatus> statuses : List.of(Set.<TaskStatus>of(), Set.of(TaskStatus.SUCCESS),
              Set.of(TaskStatus.FAILED, TaskStatus.KILLED))) {
            // length Integer.MAX_VALUE: the whole stage sorted, the reference
            List<Long> sorted = ids(app.tasks(s.stageId(), s.attemptId(),
                TaskQuery.all().sortedBy(sorting).withStatuses(statuses)));
            for (int[] w : new int[][] {{0, 1}, {0, 2}, {1, 1}, {0, 20}, {3, 5}, {0, 0}, {2, 0},
                {0, ReplayedApplication.SELECTED_ROWS}, {ReplayedApplication.SELECTED_ROWS - 3, 3},
                {ReplayedApplication.SELECTED_ROWS, 1}, {1000, 20}}) {
              List<Long> page = ids(app.tasks(s.stageId(), s.attemptId(),
                  TaskQuery.all().sortedBy(sorting).withStatuses(statuses).window(w[0], w[1])));
              int from = Math.min(w[0], sorted.size());
              int to = (int) Math.min((long) w[0] + w[1], sorted.size());
              assertThat(page).as("%s stage %d.%d %s %s offset %d length %d", ref.name(), s.stageId(),
                  s.attemptId(), sorting, statuses, w[0], w[1]).isEqualTo(sorted.subList(from, to));
            }
          }
        }
        List<TaskData> slowest = app.tasks(s.stageId(), s.attemptId(), TaskQuery.first(1).sortedBy(TaskSorting.DECREASING_RUNTIME));
        List<TaskData> all = app.tasks(s.stageId(), s.attemptId(), TaskQuery.all().sortedBy(TaskSorting.DECREASING_RUNTIME));
        assertThat(slowest).isEqualTo(all.isEmpty() ? List.of() : List.of(all.get(0)));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void summariesDoNotDependOnWhatIsReadFirst(String name, String uri) throws Exception {
    for (EventLogRef ref : EventLogs.reader().build().find(uri)) {
      ReplayedApplication app = EventLogs.reader().build().replay(ref);
      for (StageData s : app.stages(StageQuery.all())) {
        Optional<TaskMetricDistributions> first = app.taskSummary(s.stageId(), s.attemptId(), QUANTILES);
        if (first.isEmpty()) {
          continue;
        }
        List<List<Double>> forward = lists(first.get());
        List<List<Double>> readForward = new ArrayList<>();
        for (List<Double> l : forward) {
          readForward.add(List.copyOf(l));
        }
        // A fresh summary read last metric first, each list from its end, on two threads at once.
        TaskMetricDistributions second = app.taskSummary(s.stageId(), s.attemptId(), QUANTILES).orElseThrow();
        List<List<Double>> backward = lists(second);
        CompletableFuture<List<List<Double>>> other = CompletableFuture.supplyAsync(() -> readBackward(backward));
        List<List<Double>> here = readBackward(backward);
        assertThat(here).as("%s stage %d.%d", ref.name(), s.stageId(), s.attemptId()).isEqualTo(readForward);
        assertThat(other.get()).isEqualTo(readForward);
        // Ordinary lists: equal to copies both ways, same hash codes and text, unmodifiable, bounds checked.
        for (int i = 0; i < backward.size(); i++) {
          List<Double> l = backward.get(i);
          assertThat(l).hasSize(QUANTILES.size()).isEqualTo(readForward.get(i));
          assertThat(new ArrayList<>(readForward.get(i))).isEqualTo(l);
          assertThat(l.hashCode()).isEqualTo(new ArrayList<>(readForward.get(i)).hashCode());
          assertThat(l.toString()).isEqualTo(new ArrayList<>(readForward.get(i)).toString());
        }
        assertThat(first.get()).isEqualTo(second);
        List<Double> d = second.duration();
        assertThatThrownBy(() -> d.set(0, 1.0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> d.get(QUANTILES.size())).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> d.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
      }
    }
  }

  /**
   * An independent reference: each quantile is the value at {@code min(q * count, count - 1)} of
   * the sorted values of the successful tasks with metrics, as the History Server computes it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void summariesAreTheQuantilesOfTheSuccessfulTasks(String name, String uri) {
    for (EventLogRef ref : EventLogs.reader().build().find(uri)) {
      ReplayedApplication app = EventLogs.reader().build().replay(ref);
      for (StageData s : app.stages(StageQuery.all())) {
        Optional<TaskMetricDistributions> d = app.taskSummary(s.stageId(), s.attemptId(), QUANTILES);
        List<io.sparkrca.core.model.TaskMetrics> ok = app.tasks(s.stageId(), s.attemptId(), TaskQuery.all()).stream()
            .filter(t -> t.status().equals("SUCCESS") && t.taskMetrics().isPresent())
            .map(t -> t.taskMetrics().get()).toList();
        assertThat(d.isPresent()).as("%s stage %d.%d", ref.name(), s.stageId(), s.attemptId()).isEqualTo(!ok.isEmpty());
        if (ok.isEmpty()) {
          continue;
        }
        String what = ref.name() + " stage " + s.stageId() + "." + s.attemptId();
        assertThat(d.get().executorRunTime()).as(what).isEqualTo(reference(ok.stream().mapToLong(m -> m.executorRunTime()).toArray()));
        assertThat(d.get().jvmGcTime()).as(what).isEqualTo(reference(ok.stream().mapToLong(m -> m.jvmGcTime()).toArray()));
        assertThat(d.get().executorCpuTime()).as(what).isEqualTo(reference(ok.stream().mapToLong(m -> m.executorCpuTime()).toArray()));
        assertThat(d.get().resultSize()).as(what).isEqualTo(reference(ok.stream().mapToLong(m -> m.resultSize()).toArray()));
        assertThat(d.get().inputMetrics().bytesRead()).as(what)
            .isEqualTo(reference(ok.stream().mapToLong(m -> m.inputMetrics().bytesRead()).toArray()));
        assertThat(d.get().shuffleReadMetrics().readRecords()).as(what)
            .isEqualTo(reference(ok.stream().mapToLong(m -> m.shuffleReadMetrics().recordsRead()).toArray()));
        assertThat(d.get().shuffleWriteMetrics().writeBytes()).as(what)
            .isEqualTo(reference(ok.stream().mapToLong(m -> m.shuffleWriteMetrics().bytesWritten()).toArray()));
      }
    }
  }

  private static List<Double> reference(long[] values) {
    long[] v = values.clone();
    java.util.Arrays.sort(v);
    List<Double> out = new ArrayList<>();
    for (double q : QUANTILES) {
      out.add((double) v[(int) Math.min((long) (q * v.length), v.length - 1)]);
    }
    return out;
  }

  private static List<List<Double>> readBackward(List<List<Double>> lists) {
    List<List<Double>> out = new ArrayList<>();
    for (int i = lists.size() - 1; i >= 0; i--) {
      List<Double> l = lists.get(i);
      Double[] v = new Double[l.size()];
      for (int j = l.size() - 1; j >= 0; j--) {
        v[j] = l.get(j);
      }
      out.add(0, List.of(v));
    }
    return out;
  }

  private static List<Long> ids(List<TaskData> tasks) {
    return tasks.stream().map(TaskData::taskId).toList();
  }

  /** Every quantile list of a summary, in declaration order. */
  private static List<List<Double>> lists(TaskMetricDistributions d) {
    var sr = d.shuffleReadMetrics();
    var push = sr.shufflePushReadMetricsDist();
    return List.of(d.duration(), d.executorDeserializeTime(), d.executorDeserializeCpuTime(), d.executorRunTime(),
        d.executorCpuTime(), d.resultSize(), d.jvmGcTime(), d.resultSerializationTime(), d.gettingResultTime(),
        d.schedulerDelay(), d.peakExecutionMemory(), d.memoryBytesSpilled(), d.diskBytesSpilled(),
        d.inputMetrics().bytesRead(), d.inputMetrics().recordsRead(), d.outputMetrics().bytesWritten(),
        d.outputMetrics().recordsWritten(), sr.readBytes(), sr.readRecords(), sr.remoteBlocksFetched(),
        sr.localBlocksFetched(), sr.fetchWaitTime(), sr.remoteBytesRead(), sr.remoteBytesReadToDisk(),
        sr.totalBlocksFetched(), sr.remoteReqsDuration(), push.corruptMergedBlockChunks(),
        push.mergedFetchFallbackCount(), push.remoteMergedBlocksFetched(), push.localMergedBlocksFetched(),
        push.remoteMergedChunksFetched(), push.localMergedChunksFetched(), push.remoteMergedBytesRead(),
        push.localMergedBytesRead(), push.remoteMergedReqsDuration(), d.shuffleWriteMetrics().writeBytes(),
        d.shuffleWriteMetrics().writeRecords(), d.shuffleWriteMetrics().writeTime());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void totalsAreTheSumsOverTheSuccessfulTasksRecords(String name, String uri) {
    for (EventLogRef ref : EventLogs.reader().build().find(uri)) {
      ReplayedApplication app = EventLogs.reader().build().replay(ref);
      for (StageData s : app.stages(StageQuery.all())) {
        String what = ref.name() + " stage " + s.stageId() + "." + s.attemptId();
        List<TaskData> all = app.tasks(s.stageId(), s.attemptId(), TaskQuery.all());
        TaskTotals columns = app.taskTotals(s.stageId(), s.attemptId()).orElseThrow();
        // the records' path (every other source's default) is the reference
        assertThat(columns).as(what).isEqualTo(TaskTotals.of(all));
        List<TaskData> ok =
            all.stream().filter(t -> t.status().equals("SUCCESS") && t.taskMetrics().isPresent()).toList();
        assertThat(columns.count()).as(what).isEqualTo(ok.size());
        assertThat(columns.metrics().executorRunTime())
            .as(what)
            .isEqualTo(ok.stream().mapToLong(t -> t.taskMetrics().orElseThrow().executorRunTime()).sum());
        assertThat(columns.duration())
            .as(what)
            .isEqualTo(ok.stream().mapToLong(t -> t.duration().orElse(0L)).sum());
      }
      assertThat(app.taskTotals(Integer.MAX_VALUE, 0)).as("a stage the log does not have").isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void detailsWithoutTasksKeepEverythingButTheTaskList(String name, String uri) {
    for (EventLogRef ref : EventLogs.reader().build().find(uri)) {
      ReplayedApplication app = EventLogs.reader().build().replay(ref);
      StageQuery details = StageQuery.all().withDetails(true).withSummaries(QUANTILES);
      for (StageData s : app.stages(StageQuery.all())) {
        StageData full = app.stageAttempt(s.stageId(), s.attemptId(), details).orElseThrow();
        StageData lean = app.stageAttempt(s.stageId(), s.attemptId(), details.withoutTasks()).orElseThrow();
        assertThat(full.tasks()).isPresent();
        assertThat(lean.tasks()).as("%s stage %d", ref.name(), s.stageId()).isEmpty();
        assertThat(lean.withDetails(full.tasks(), lean.executorSummary(), lean.speculationSummary(),
                lean.taskMetricsDistributions(), lean.executorMetricsDistributions()))
            .as("%s stage %d.%d without its tasks", ref.name(), s.stageId(), s.attemptId())
            .isEqualTo(full);
      }
    }
  }
}

package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.AccumulableInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Spark's {@code TaskInfo} of one event, parsed into reused fields. */
final class TaskInfoScratch {
  long taskId;
  int index;
  int attempt;
  int partitionId;
  long launchTime;
  String executorId;
  String host;
  String locality;
  boolean speculative;
  long gettingResultTime;
  long finishTime;
  boolean failed;
  boolean killed;
  /** User accumulators (not internal, not SQL), in event order. */
  final List<AccumulableInfo> userAccumulables = new ArrayList<>();
  /**
   * Updates of non-internal accumulators with numeric updates (SQL metrics among them): ids and
   * values, for the SQL execution tracker.
   */
  long[] sqlAccumIds = new long[16];
  long[] sqlAccumUpdates = new long[16];
  int sqlAccumCount;

  void reset() {
    taskId = 0;
    index = 0;
    attempt = 1;
    partitionId = -1;
    launchTime = 0;
    executorId = null;
    host = null;
    locality = null;
    speculative = false;
    gettingResultTime = 0;
    finishTime = 0;
    failed = false;
    killed = false;
    userAccumulables.clear();
    sqlAccumCount = 0;
  }

  void addSqlUpdate(long id, long update) {
    if (sqlAccumCount == sqlAccumIds.length) {
      sqlAccumIds = java.util.Arrays.copyOf(sqlAccumIds, sqlAccumCount * 2);
      sqlAccumUpdates = java.util.Arrays.copyOf(sqlAccumUpdates, sqlAccumCount * 2);
    }
    sqlAccumIds[sqlAccumCount] = id;
    sqlAccumUpdates[sqlAccumCount] = update;
    sqlAccumCount++;
  }

  void addUserAccumulable(long id, String name, String update, String value) {
    userAccumulables.add(
        new AccumulableInfo(
            id, Optional.ofNullable(name), Optional.ofNullable(update), Optional.ofNullable(value)));
  }

  boolean finished() {
    return finishTime != 0;
  }

  boolean gettingResult() {
    return gettingResultTime != 0;
  }

  boolean successful() {
    return finished() && !failed && !killed;
  }

  byte status() {
    if (!finished()) {
      return gettingResult() ? TaskTable.STATUS_GET_RESULT : TaskTable.STATUS_RUNNING;
    }
    if (failed) {
      return TaskTable.STATUS_FAILED;
    }
    if (killed) {
      return TaskTable.STATUS_KILLED;
    }
    return TaskTable.STATUS_SUCCESS;
  }

  long duration() {
    return finished() ? finishTime - launchTime : 0;
  }
}

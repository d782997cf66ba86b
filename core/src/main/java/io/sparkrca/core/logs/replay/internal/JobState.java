package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.model.JobExecutionStatus;
import java.util.TreeSet;

/**
 * One job as the driver's log tells it: {@code Got job 0 (count at X.scala:10) with 4 output
 * partitions}, its final stage and parents, and {@code Job 0 finished: ...} or {@code Job 0
 * failed: ...} (a map-stage job ends with its final stage).
 *
 * <pre>{@code
 * JobState j = new JobState(0, "count at X.scala:10");
 * j.status = JobExecutionStatus.SUCCEEDED;
 * }</pre>
 */
final class JobState {
  final int jobId;
  String name;
  boolean mapStageJob;
  int partitions = -1;
  int finalStage = -1;
  /** The highest stage id known before the job: its own stages have higher ids, up to its final stage. */
  int stagesBefore = -1;
  final TreeSet<Integer> stageIds = new TreeSet<>();
  JobExecutionStatus status = JobExecutionStatus.RUNNING;
  long submitted = TimeParser.NO_TIME;
  long completed = TimeParser.NO_TIME;
  int section = -1;
  long line;
  int endSection = -1;
  long endLine;

  JobState(int jobId, String name) {
    this.jobId = jobId;
    this.name = name;
  }
}

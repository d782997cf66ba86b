package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.model.StageStatus;
import java.util.TreeSet;

/**
 * One stage attempt as the driver's log tells it: submitted ({@code Submitting 4 missing tasks
 * from ResultStage 1 ...}, {@code Adding task set 1.0 with 4 tasks}), finished or failed ({@code
 * ResultStage 1 (...) failed in 3 s due to ...}), and its tasks. Stages a job listed but never ran
 * are kept as pending (skipped when the job ends).
 *
 * <pre>{@code
 * StageState s = new StageState(1, 0);
 * s.status = StageStatus.ACTIVE;
 * }</pre>
 */
final class StageState {
  final int stageId;
  int attempt;
  /** ResultStage or ShuffleMapStage, when a line said. */
  String kind = "";
  String name = "";
  StageStatus status = StageStatus.PENDING;
  /** Tasks of this attempt, when a line said; -1 unknown. */
  int numTasks = -1;
  long submitted = TimeParser.NO_TIME;
  long firstLaunch = TimeParser.NO_TIME;
  long completed = TimeParser.NO_TIME;
  String failureReason;
  int resourceProfileId;
  final TaskTable tasks = new TaskTable();
  /** Successful tasks whose rows were not kept (the cap), and their durations. */
  int droppedComplete;
  long droppedDuration;
  /** Bytes the spill lines attributed to this attempt's tasks (rounded as the lines round them). */
  long memorySpilled;
  final TreeSet<Integer> jobIds = new TreeSet<>();
  int submittedSection = -1;
  long submittedLine;
  int endedSection = -1;
  long endedLine;
  /** Task indices marked speculatable: a later attempt of one is a speculative copy. */
  final java.util.BitSet speculatable = new java.util.BitSet();
  /** Whether "Submitting N missing tasks" or "Adding task set" was seen for this attempt. */
  boolean launched;

  // Counts over the rows and the dropped rows, made once every log is read (Finisher).
  int active;
  int complete;
  int failed;
  int killed;
  int completedIndices;
  long taskTime;
  final java.util.Map<String, Integer> killedSummary = new java.util.TreeMap<>();

  StageState(int stageId, int attempt) {
    this.stageId = stageId;
    this.attempt = attempt;
  }

  static long key(int stageId, int attempt) {
    return (long) stageId << 32 | (attempt & 0xffffffffL);
  }

  boolean ended() {
    return status == StageStatus.COMPLETE || status == StageStatus.FAILED || status == StageStatus.SKIPPED;
  }
}

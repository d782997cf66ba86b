package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.redaction.Redactor;

/**
 * Jobs and stage attempts, from the {@code DAGScheduler}'s lines and the task sets of {@code
 * TaskSchedulerImpl}:
 *
 * <ul>
 *   <li>{@code Got job 0 (count at X.scala:10) with 4 output partitions} (and {@code Got map stage
 *       job}), {@code Final stage: ResultStage 1 (...)}, {@code Parents of final stage: List(...)}:
 *       a job's stages are its final stage, its parents, and every stage created for it (the ids
 *       after the highest known before it, up to its final stage);
 *   <li>{@code Submitting ResultStage 1 (...)}, {@code Submitting 4 missing tasks from ...}, {@code
 *       Adding task set 1.0 with 4 tasks}: a stage attempt starts (a resubmitted stage is the next
 *       attempt; the task set's number decides);
 *   <li>{@code ResultStage 1 (...) finished in 0.5 s}, {@code ... failed in 3 s due to ...} with
 *       the reason's lines;
 *   <li>{@code Job 0 finished: ...}, {@code Job 0 is finished. ...}, {@code Job 0 failed: ...} (a
 *       map-stage job succeeds with its final stage);
 *   <li>{@code Resubmitting ...}, {@code Marking ... as failed due to a fetch failure ...}, {@code
 *       Asked to cancel job ...}: events.
 * </ul>
 *
 * <pre>{@code
 * Pending p = stageLines.dagScheduler(section, head, scan);
 * }</pre>
 */
final class StageLines {
  private static final byte[] GOT_JOB = Scan.lit("Got job ");
  private static final byte[] GOT_MAP_STAGE_JOB = Scan.lit("Got map stage job ");
  private static final byte[] WITH = Scan.lit(") with ");
  private static final byte[] FINAL_STAGE = Scan.lit("Final stage: ");
  private static final byte[] PARENTS = Scan.lit("Parents of final stage: List(");
  private static final byte[] SUBMITTING = Scan.lit("Submitting ");
  private static final byte[] MISSING_TASKS = Scan.lit(" missing tasks from ");
  private static final byte[] RESULT_STAGE = Scan.lit("ResultStage ");
  private static final byte[] SHUFFLE_MAP_STAGE = Scan.lit("ShuffleMapStage ");
  private static final byte[] FINISHED_IN = Scan.lit(") finished in ");
  private static final byte[] FAILED_IN = Scan.lit(") failed in ");
  private static final byte[] DUE_TO = Scan.lit(" due to ");
  private static final byte[] JOB = Scan.lit("Job ");
  private static final byte[] JOB_FINISHED = Scan.lit(" finished: ");
  private static final byte[] JOB_IS_FINISHED = Scan.lit(" is finished.");
  private static final byte[] JOB_FAILED = Scan.lit(" failed: ");
  private static final byte[] TOOK = Scan.lit(", took ");
  private static final byte[] RESUBMITTING = Scan.lit("Resubmitting ");
  private static final byte[] MARKING = Scan.lit("Marking ");
  private static final byte[] FETCH_FAILURE = Scan.lit("fetch failure");
  private static final byte[] CANCEL = Scan.lit("Asked to cancel ");
  private static final byte[] JOB_LOWER = Scan.lit("job ");
  private static final byte[] EXECUTOR_LOST = Scan.lit("Executor lost: ");
  private static final byte[] ADDING_TASK_SET = Scan.lit("Adding task set ");
  private static final byte[] WITH_SPACE = Scan.lit(" with ");
  private static final byte[] RESOURCE_PROFILE = Scan.lit("resource profile ");
  private static final byte[] STAGE = Scan.lit("Stage ");
  private static final byte[] WAS_CANCELLED = Scan.lit(" was cancelled");

  private final ModelState m;
  /** The job whose "Got job" line came last, waiting for its final stage. */
  private JobState opening;

  StageLines(ModelState m) {
    this.m = m;
  }

  /** A {@code DAGScheduler} line. */
  Pending dagScheduler(Section s, RecordHead h, Scan c) {
    if (c.skip(GOT_JOB)) {
      return gotJob(s, h, c, false);
    }
    if (c.skip(GOT_MAP_STAGE_JOB)) {
      return gotJob(s, h, c, true);
    }
    if (c.skip(FINAL_STAGE)) {
      return finalStage(c);
    }
    if (c.skip(PARENTS)) {
      return parents(c);
    }
    if (c.skip(SUBMITTING)) {
      return submitting(s, h, c);
    }
    if (c.at(RESULT_STAGE) || c.at(SHUFFLE_MAP_STAGE)) {
      return stageEnd(s, h, c);
    }
    if (c.skip(JOB)) {
      return jobEnd(s, h, c);
    }
    if (c.skip(RESUBMITTING)) {
      m.event(LogEvent.Kind.STAGES_RESUBMITTED, null, h.time, h.message(), null, null, null, s, h.line);
      return Pending.DONE;
    }
    if (c.skip(MARKING) && c.indexOf(FETCH_FAILURE, c.pos) >= 0) {
      Integer stage = stageNumber(c);
      m.event(LogEvent.Kind.FETCH_FAILURE, null, h.time, h.message(), null, null, stage, s, h.line);
      return Pending.DONE;
    }
    if (c.skip(CANCEL)) {
      m.event(LogEvent.Kind.CANCELLED, null, h.time, h.message(), null, null, null, s, h.line);
      if (c.skip(JOB_LOWER)) { // "Asked to cancel job 3": the job fails as cancelled
        int id = c.integer();
        JobState j = id < 0 ? null : m.jobs.get(id);
        if (j != null && j.status == JobExecutionStatus.RUNNING) {
          endJob(j, JobExecutionStatus.FAILED, s, h);
        }
      }
      return Pending.DONE;
    }
    if (c.skip(EXECUTOR_LOST)) {
      String id = c.until(' ');
      if (id != null) {
        ExecutorState e = m.executor(id);
        if (e.removed == TimeParser.NO_TIME) {
          e.removed = h.time;
          e.active = false;
          e.removeSection = s.index;
          e.removeLine = h.line;
        }
      }
      return Pending.DONE;
    }
    return null;
  }

  /** A {@code TaskSchedulerImpl} line about task sets and stages. */
  Pending taskScheduler(Section s, RecordHead h, Scan c) {
    if (c.skip(ADDING_TASK_SET)) {
      int stageId = c.integer();
      if (stageId < 0 || !c.skip('.')) {
        return null;
      }
      int attempt = c.integer();
      int tasks = c.skip(WITH_SPACE) ? c.integer() : -1;
      StageState st = m.latest.get(stageId);
      if (st == null || st.launched && st.attempt != attempt || st.ended()) {
        st = m.submitted(stageId);
      }
      st = m.renumber(st, attempt);
      st.numTasks = tasks;
      st.tasks.reserve(Math.min(Math.max(tasks, 0), Math.min(m.maxTaskRowsPerStage, 1 << 20)));
      st.launched = true;
      if (st.status == StageStatus.PENDING) {
        st.status = StageStatus.ACTIVE;
      }
      if (st.submitted == TimeParser.NO_TIME) {
        st.submitted = h.time;
        st.submittedSection = s.index;
        st.submittedLine = h.line;
      }
      if (c.find(RESOURCE_PROFILE)) {
        st.resourceProfileId = Math.max(0, c.integer());
      }
      return Pending.DONE;
    }
    if (c.skip(STAGE) && c.indexOf(WAS_CANCELLED, c.pos) >= 0) {
      int stageId = c.integer();
      m.event(LogEvent.Kind.CANCELLED, null, h.time, h.message(), null, null, stageId >= 0 ? stageId : null, s, h.line);
      return Pending.DONE;
    }
    return null;
  }

  private Pending gotJob(Section s, RecordHead h, Scan c, boolean mapStage) {
    int id = c.integer();
    if (id < 0 || !c.skip(' ') || !c.skip('(')) {
      return null;
    }
    int with = c.lastIndexOf(WITH);
    String name = with < 0 ? c.rest() : c.text(c.pos, with);
    JobState j = new JobState(id, name);
    j.mapStageJob = mapStage;
    j.submitted = h.time;
    j.section = s.index;
    j.line = h.line;
    j.stagesBefore = m.maxStageId;
    if (with >= 0) {
      c.pos = with + WITH.length;
      j.partitions = c.integer();
    }
    m.jobs.put(id, j);
    opening = j;
    return Pending.DONE;
  }

  private Pending finalStage(Scan c) {
    JobState j = opening;
    String kind = stageKind(c);
    if (j == null || kind == null) {
      return Pending.DONE;
    }
    int stageId = c.integer();
    if (stageId < 0) {
      return Pending.DONE;
    }
    String name = null;
    if (c.skip(' ') && c.skip('(')) {
      int close = c.b[c.end - 1] == ')' ? c.end - 1 : c.end;
      name = c.text(c.pos, close);
    }
    j.finalStage = stageId;
    // Stages get ids when a job is submitted: those after the highest known before it are its own.
    for (int id = Math.max(j.stagesBefore + 1, 0); id <= stageId; id++) {
      addStage(j, id, null, null);
    }
    addStage(j, stageId, kind, name);
    return Pending.DONE;
  }

  private Pending parents(Scan c) {
    JobState j = opening;
    if (j == null) {
      return Pending.DONE;
    }
    while (c.find(STAGE)) {
      int id = c.integer();
      if (id >= 0) {
        addStage(j, id, "ShuffleMapStage", null);
      }
    }
    return Pending.DONE;
  }

  private void addStage(JobState j, int stageId, String kind, String name) {
    j.stageIds.add(stageId);
    StageState st = m.latestOrNew(stageId);
    st.jobIds.add(j.jobId);
    if (kind != null && st.kind.isEmpty()) {
      st.kind = kind;
    }
    if (name != null && st.name.isEmpty()) {
      st.name = name;
    }
  }

  private Pending submitting(Section s, RecordHead h, Scan c) {
    long missing = c.number();
    if (missing >= 0) {
      if (!c.skip(MISSING_TASKS)) {
        return null;
      }
      String kind = stageKind(c);
      if (kind == null) {
        return null;
      }
      int stageId = c.integer();
      StageState st = m.latest.get(stageId);
      if (st == null || st.ended() || st.launched) {
        st = m.submitted(stageId);
      }
      st.kind = kind;
      st.numTasks = (int) missing;
      st.launched = true;
      started(st, s, h);
      return Pending.DONE;
    }
    String kind = stageKind(c);
    if (kind == null) {
      return null;
    }
    int stageId = c.integer();
    if (stageId < 0) {
      return null;
    }
    StageState st = m.submitted(stageId);
    st.kind = kind;
    if (st.name.isEmpty() && kind.equals("ShuffleMapStage") && c.skip(' ') && c.skip('(')) {
      // "MapPartitionsRDD[1] at map at Job.scala:12": a shuffle map stage is named after its RDD's call site
      int at = c.indexOf(Scan.lit("] at "), c.pos);
      int end = c.lastIndexOf(Scan.lit("), which"));
      if (at >= 0 && end > at) {
        st.name = c.text(at + 5, end);
      }
    }
    started(st, s, h);
    return Pending.DONE;
  }

  private static void started(StageState st, Section s, RecordHead h) {
    if (st.status == StageStatus.PENDING) {
      st.status = StageStatus.ACTIVE;
    }
    if (st.submitted == TimeParser.NO_TIME) {
      st.submitted = h.time;
      st.submittedSection = s.index;
      st.submittedLine = h.line;
    }
  }

  /** {@code ResultStage 1 (name) finished in 0.5 s} or {@code ... failed in 3 s due to reason}. */
  private Pending stageEnd(Section s, RecordHead h, Scan c) {
    String kind = stageKind(c);
    int stageId = c.integer();
    if (kind == null || stageId < 0 || !c.skip(' ') || !c.skip('(')) {
      return null;
    }
    int finished = c.lastIndexOf(FINISHED_IN);
    int failed = c.indexOf(FAILED_IN, c.pos);
    if (finished < 0 && failed < 0) {
      return null;
    }
    boolean ok = finished >= 0 && (failed < 0 || finished < failed);
    String name = c.text(c.pos, ok ? finished : failed);
    StageState st = m.latestOrNew(stageId);
    st.kind = kind;
    st.name = name;
    st.completed = h.time;
    st.endedSection = s.index;
    st.endedLine = h.line;
    if (st.submitted == TimeParser.NO_TIME) {
      st.submitted = h.time;
    }
    if (ok) {
      st.status = StageStatus.COMPLETE;
      for (JobState j : m.jobs.descendingMap().values()) {
        if (j.mapStageJob && j.finalStage == stageId && j.status == JobExecutionStatus.RUNNING) {
          j.status = JobExecutionStatus.SUCCEEDED;
          j.completed = h.time;
          j.endSection = s.index;
          j.endLine = h.line;
        }
      }
      return Pending.DONE;
    }
    st.status = StageStatus.FAILED;
    c.pos = failed + FAILED_IN.length;
    String reason = c.find(DUE_TO) ? c.rest() : "";
    st.failureReason = reason;
    // A map-stage job (AQE) ends with its stage, and a cancelled job with the stage that says so:
    // neither writes a "Job N failed" line.
    for (JobState j : m.jobs.values()) {
      if (j.status == JobExecutionStatus.RUNNING && (j.mapStageJob && j.finalStage == stageId
          || reason.startsWith("Job " + j.jobId + " cancelled"))) {
        endJob(j, JobExecutionStatus.FAILED, s, h);
      }
    }
    return (sec, continuation) -> st.failureReason = Redactor.standard().redactText(Pending.join(reason, continuation));
  }

  private Pending jobEnd(Section s, RecordHead h, Scan c) {
    int id = c.integer();
    JobState j = id < 0 ? null : m.jobs.get(id);
    if (j == null) {
      return null;
    }
    JobExecutionStatus status;
    if (c.at(JOB_FINISHED) || c.at(JOB_IS_FINISHED)) {
      status = JobExecutionStatus.SUCCEEDED;
    } else if (c.at(JOB_FAILED)) {
      status = JobExecutionStatus.FAILED;
    } else {
      return null;
    }
    if (j.status == JobExecutionStatus.RUNNING || status == JobExecutionStatus.FAILED) {
      j.status = status;
      j.completed = h.time;
      j.endSection = s.index;
      j.endLine = h.line;
    }
    if (j.name == null || j.name.isEmpty()) {
      c.skip(JOB_FINISHED);
      c.skip(JOB_FAILED);
      int took = c.lastIndexOf(TOOK);
      if (took > c.pos) {
        j.name = c.text(c.pos, took);
      }
    }
    return Pending.DONE;
  }

  private static void endJob(JobState j, JobExecutionStatus status, Section s, RecordHead h) {
    j.status = status;
    j.completed = h.time;
    j.endSection = s.index;
    j.endLine = h.line;
  }

  /** {@code ResultStage} or {@code ShuffleMapStage} at the cursor (moving past it and its space), or null. */
  private static String stageKind(Scan c) {
    if (c.skip(RESULT_STAGE)) {
      return "ResultStage";
    }
    return c.skip(SHUFFLE_MAP_STAGE) ? "ShuffleMapStage" : null;
  }

  /** The number after the first {@code Stage } at the cursor, or null. */
  private static Integer stageNumber(Scan c) {
    if (c.find(STAGE)) {
      int id = c.integer();
      return id >= 0 ? id : null;
    }
    return null;
  }
}

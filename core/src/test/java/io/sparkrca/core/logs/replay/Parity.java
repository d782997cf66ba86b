package io.sparkrca.core.logs.replay;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.app.internal.TaskErrors;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares an application rebuilt from logs with the same run replayed from its event log, the
 * oracle: wherever the logs show a fact (a job, a stage attempt, a task, an executor, the outcome)
 * it must equal the event log's; what the logs do not show is listed as lacking, never guessed.
 * Where the event log itself is cut (an in-progress log), what the logs know beyond it is listed,
 * not counted against them.
 *
 * <pre>{@code
 * Parity p = Parity.compare("3.5.9/bad-record", EventLogs.replay(eventLog), logApp);
 * assertThat(p.mismatches()).isEmpty();
 * }</pre>
 */
final class Parity {
  private final String label;
  private final Map<String, Integer> matched = new LinkedHashMap<>();
  private final Map<String, Integer> lacked = new LinkedHashMap<>();
  private final List<String> beyondOracle = new ArrayList<>();
  private final List<String> mismatches = new ArrayList<>();

  private Parity(String label) {
    this.label = label;
  }

  List<String> mismatches() {
    return mismatches;
  }

  int matched(String what) {
    return matched.getOrDefault(what, 0);
  }

  int lacked(String what) {
    return lacked.getOrDefault(what, 0);
  }

  static Parity compare(String label, SparkApplication oracle, LogApplication logs) {
    Parity p = new Parity(label);
    // An event log that has not ended (cut, or its driver killed) may lag the driver's log: its
    // listener bus writes after the scheduler logs.
    boolean cut = oracle.completeness().cutOff() || !oracle.info().latestAttempt().completed();
    p.application(oracle, logs, cut);
    p.jobs(oracle, logs, cut);
    p.stages(oracle, logs, cut);
    p.executors(oracle, logs);
    return p;
  }

  private void application(SparkApplication o, LogApplication l, boolean cut) {
    same("application id", o.info().id(), l.info().id());
    same("application name", o.info().name(), l.info().name());
    same("Spark version", o.sparkVersion(), l.sparkVersion());
    same("Spark user", o.info().latestAttempt().sparkUser(), l.info().latestAttempt().sparkUser());
    boolean done = o.info().latestAttempt().completed();
    if (cut) {
      beyond("the event log is cut; the logs say the application " + (l.info().latestAttempt().completed() ? "ended" : "did not end"));
    } else {
      same("application ended", done, l.info().latestAttempt().completed());
    }
    Optional<Integer> exit = o.facts().exitCode();
    if (exit.isPresent()) {
      same("exit code", exit.get(), l.facts().exitCode().orElse(null));
    }
  }

  private void jobs(SparkApplication o, LogApplication l, boolean cut) {
    Map<Integer, JobData> logJobs = new HashMap<>();
    l.jobs(Set.of()).forEach(j -> logJobs.put(j.jobId(), j));
    for (JobData oj : o.jobs(Set.of())) {
      JobData lj = logJobs.remove(oj.jobId());
      if (lj == null) {
        mismatch("job " + oj.jobId() + " (" + oj.name() + ") is not in the logs");
        continue;
      }
      count(matched, "jobs");
      same("job " + oj.jobId() + " name", oj.name(), lj.name());
      if (cut && oj.status() != lj.status()) {
        beyond("job " + oj.jobId() + ": the cut event log says " + oj.status() + ", the logs " + lj.status());
      } else {
        same("job " + oj.jobId() + " status", oj.status(), lj.status());
      }
      TreeSet<Integer> extra = new TreeSet<>(lj.stageIds());
      extra.removeAll(oj.stageIds());
      if (!extra.isEmpty()) {
        mismatch("job " + oj.jobId() + ": the logs give it stages " + extra + " the event log does not (" + oj.stageIds() + ")");
      }
      TreeSet<Integer> missing = new TreeSet<>(oj.stageIds());
      missing.removeAll(lj.stageIds());
      if (missing.isEmpty()) {
        count(matched, "job stage lists");
      } else {
        count(lacked, "stages of a job's list (skipped ancestors the logs do not name)", missing.size());
      }
    }
    for (JobData extra : logJobs.values()) {
      if (cut) {
        beyond("job " + extra.jobId() + " is in the logs, not in the cut event log");
      } else {
        mismatch("job " + extra.jobId() + " (" + extra.name() + ") is in the logs, not in the event log");
      }
    }
  }

  private void stages(SparkApplication o, LogApplication l, boolean cut) {
    Map<String, StageData> logStages = new HashMap<>();
    l.stages(StageQuery.all()).forEach(s -> logStages.put(s.stageId() + "." + s.attemptId(), s));
    for (StageData os : o.stages(StageQuery.all())) {
      String id = os.stageId() + "." + os.attemptId();
      StageData ls = logStages.remove(id);
      if (ls == null) {
        if (os.status() == StageStatus.SKIPPED || os.status() == StageStatus.PENDING) {
          count(lacked, "skipped or pending stages the logs never name");
        } else {
          mismatch("stage " + id + " (" + os.status() + ") is not in the logs");
        }
        continue;
      }
      count(matched, "stage attempts");
      if (cut && os.status() != ls.status()) {
        beyond("stage " + id + ": the cut event log says " + os.status() + ", the logs " + ls.status());
        continue;
      }
      same("stage " + id + " status", os.status(), ls.status());
      if (!ls.name().isEmpty()) {
        same("stage " + id + " name", os.name(), ls.name());
      } else {
        count(lacked, "stage names (stages never run)");
      }
      if (ls.numTasks() > 0 || ls.status() != StageStatus.SKIPPED) {
        same("stage " + id + " tasks", os.numTasks(), ls.numTasks());
      } else {
        count(lacked, "task counts of skipped stages");
      }
      same("stage " + id + " complete tasks", os.numCompleteTasks(), ls.numCompleteTasks());
      same("stage " + id + " failed tasks", os.numFailedTasks(), ls.numFailedTasks());
      same("stage " + id + " killed tasks", os.numKilledTasks(), ls.numKilledTasks());
      if (os.failureReason().isPresent()) {
        same("stage " + id + " failure reason", firstLine(os.failureReason().get()),
            ls.failureReason().map(Parity::firstLine).orElse(null));
      }
      tasks(o, l, os, ls, id);
    }
    for (StageData extra : logStages.values()) {
      String id = extra.stageId() + "." + extra.attemptId();
      if (cut) {
        beyond("stage " + id + " (" + extra.status() + ") is in the logs, not in the cut event log");
      } else if (extra.status() == StageStatus.SKIPPED || extra.status() == StageStatus.PENDING) {
        mismatch("stage " + id + " is listed by the logs (" + extra.status() + "), not by the event log");
      } else {
        mismatch("stage " + id + " (" + extra.status() + ") is in the logs, not in the event log");
      }
    }
  }

  private void tasks(SparkApplication o, LogApplication l, StageData os, StageData ls, String stage) {
    Map<Long, TaskData> logTasks = new HashMap<>();
    l.tasks(ls.stageId(), ls.attemptId(), TaskQuery.all()).forEach(t -> logTasks.put(t.taskId(), t));
    for (TaskData ot : o.tasks(os.stageId(), os.attemptId(), TaskQuery.all())) {
      TaskData lt = logTasks.remove(ot.taskId());
      String id = "task " + ot.taskId() + " (stage " + stage + ")";
      if (lt == null) {
        mismatch(id + " is not in the logs");
        continue;
      }
      count(matched, "task attempts");
      same(id + " index", ot.index(), lt.index());
      same(id + " attempt", ot.attempt(), lt.attempt());
      same(id + " partition", ot.partitionId(), lt.partitionId());
      same(id + " status", ot.status(), lt.status());
      same(id + " executor", ot.executorId(), lt.executorId());
      same(id + " host", ot.host(), lt.host());
      same(id + " locality", ot.taskLocality(), lt.taskLocality());
      if (lt.duration().isPresent()) {
        same(id + " duration", ot.duration().orElse(0L), lt.duration().get());
        count(matched, "task durations");
      } else if (ot.status().equals("SUCCESS")) {
        count(lacked, "durations of successful tasks");
      }
      if (ot.status().equals("FAILED") || ot.status().equals("KILLED")) {
        TaskErrors.Parsed oe = TaskErrors.parse(ot.status(), ot.errorMessage().orElse(""));
        TaskErrors.Parsed le = TaskErrors.parse(lt.status(), lt.errorMessage().orElse(""));
        same(id + " end reason", oe.reason(), le.reason());
        same(id + " exception class", oe.exceptionClass(), le.exceptionClass());
        same(id + " error", firstLine(ot.errorMessage().orElse("")), firstLine(lt.errorMessage().orElse("")));
        count(matched, "failed or killed task attempts");
      }
    }
    for (TaskData extra : logTasks.values()) {
      mismatch("task " + extra.taskId() + " (stage " + stage + ") is in the logs, not in the event log");
    }
  }

  private void executors(SparkApplication o, LogApplication l) {
    Map<String, ExecutorSummary> logExecutors = new HashMap<>();
    l.executors(false).forEach(e -> logExecutors.put(e.id(), e));
    for (ExecutorSummary oe : o.executors(false)) {
      ExecutorSummary le = logExecutors.remove(oe.id());
      if (le == null) {
        mismatch("executor " + oe.id() + " is not in the logs");
        continue;
      }
      count(matched, "executors");
      same("executor " + oe.id() + " active", oe.isActive(), le.isActive());
      if (oe.removeReason().isPresent()) {
        same("executor " + oe.id() + " removal reason", oe.removeReason().get(), le.removeReason().orElse(null));
        count(matched, "executor removal reasons");
      }
    }
    for (ExecutorSummary extra : logExecutors.values()) {
      beyond("executor " + extra.id() + " is in the logs (" + (extra.isActive() ? "active" : "removed: "
          + extra.removeReason().orElse("")) + "), not in the event log: it never registered");
    }
  }

  private void same(String what, Object expected, Object actual) {
    if (Objects.equals(expected, actual)) {
      count(matched, "facts compared");
    } else {
      mismatch(what + ": event log " + quote(expected) + ", logs " + quote(actual));
    }
  }

  private void mismatch(String what) {
    mismatches.add(label + ": " + what);
  }

  private void beyond(String what) {
    beyondOracle.add(what);
  }

  private static void count(Map<String, Integer> m, String what) {
    count(m, what, 1);
  }

  private static void count(Map<String, Integer> m, String what, int n) {
    m.merge(what, n, Integer::sum);
  }

  private static String quote(Object o) {
    if (o == null) {
      return "(none)";
    }
    String s = String.valueOf(o);
    return "'" + (s.length() > 160 ? s.substring(0, 160) + "..." : s) + "'";
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }

  /** A Markdown section: what matched, what the logs lacked, what they knew beyond a cut event log. */
  String report() {
    StringBuilder sb = new StringBuilder("### ").append(label).append("\n\n");
    sb.append("- matched: ");
    sb.append(String.join(", ", matched.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).toList())).append('\n');
    sb.append("- the logs lacked: ");
    sb.append(lacked.isEmpty() ? "nothing compared" : String.join(", ",
        lacked.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).toList())).append('\n');
    if (!beyondOracle.isEmpty()) {
      sb.append("- beyond the event log: ").append(String.join("; ", beyondOracle)).append('\n');
    }
    if (!mismatches.isEmpty()) {
      sb.append("- MISMATCHES:\n");
      mismatches.forEach(m -> sb.append("  - ").append(m).append('\n'));
    }
    return sb.append('\n').toString();
  }
}

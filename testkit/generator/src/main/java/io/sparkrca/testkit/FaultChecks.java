package io.sparkrca.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The fault checks, one per kind of scenario. Each looks only at the run's evidence (mostly the
 * event log) and either returns what proves the fault or throws {@link FaultNotShownException}
 * saying what is missing. Thresholds are deliberately loose enough for a busy 2-core machine and
 * tight enough that a run without the fault fails.
 */
public final class FaultChecks {
  private static final Pattern EXIT_CODE = Pattern.compile("exited with code (\\d+)");
  private static final Pattern MAIN_EXCEPTION =
      Pattern.compile("Exception in thread \"main\" ([\\w.$]+)(?::\\s*(.*))?");
  private static final String OOM = "java.lang.OutOfMemoryError";
  /** A stack frame of collecting a result to the driver, on Spark 3.5 or 4.0. */
  private static final Pattern COLLECT_FRAME =
      Pattern.compile("executeCollect|collectFromPlan|collectAsList|decodeUnsafeRows|Dataset\\.collect");
  /** A line after a stack trace: not a frame, a cause, a "... n more" nor indented. */
  private static final Pattern TRACE_END = Pattern.compile("^\\d{2}/\\d{2}/\\d{2} |^\\d{4}-\\d{2}-\\d{2}|^WORKLOAD_");

  /** Spark settings whose difference between a run and its baseline is reported. */
  private static final List<String> COMPARED_SETTINGS =
      List.of("spark.master", "spark.sql.shuffle.partitions", "spark.sql.adaptive.enabled",
          "spark.sql.adaptive.coalescePartitions.enabled", "spark.sql.autoBroadcastJoinThreshold",
          "spark.default.parallelism", "spark.executor.memory", "spark.memory.fraction");

  /**
   * What the driver's exception says when its cause is one the catalog names on its own (input
   * not found, missing dependency, access denied, serialization, driver OOM, write or commit);
   * a {@link #driverFailure()} must say none of them.
   */
  private static final List<String> SPECIFIC_DRIVER_CAUSES = List.of(
      "Path does not exist", "FileNotFoundException", "NoSuchFileException", "PATH_NOT_FOUND",
      "ClassNotFoundException", "NoClassDefFoundError", "DATA_SOURCE_NOT_FOUND", "Failed to find the data source",
      "ModuleNotFound", "No module named", "AccessDenied", "Permission denied", "Access Denied", "403 Forbidden",
      "Task not serializable", "NotSerializableException", OOM, "TASK_WRITE_FAILED", "Job aborted",
      "commitJob", "commitTask", "FileAlreadyExistsException");

  /** Spark's message when the results of a job's tasks add up to more than the driver accepts. */
  private static final Pattern RESULT_TOO_LARGE = Pattern.compile(
      "Total size of serialized results of (\\d+) tasks \\(([^)]+)\\) is bigger than spark\\.driver\\.maxResultSize \\(([^)]+)\\)");
  /** An error class at the start of a Spark message, such as {@code [UNRESOLVED_COLUMN.WITH_SUGGESTION]}. */
  private static final Pattern ERROR_CLASS = Pattern.compile("^\\[([A-Z][A-Z0-9_]*(?:\\.[A-Z0-9_]+)*)\\]");

  /** The first line of a state schema error that shows a schema ({@code struct<...>} or {@code StructType(...)}). */
  private static final Pattern STATE_SCHEMA_LINE = Pattern.compile("(?m)^.*schema.*(?:struct<|StructType\\().*$");

  private FaultChecks() {}

  /** The same partition fails with the same exception on every attempt, and the job aborts. */
  public static FaultCheck deterministicFailure(int minAttempts, boolean requireAbort) {
    return run -> {
      LogFacts f = run.facts();
      Map<String, List<LogFacts.Task>> byPartition = new TreeMap<>();
      for (LogFacts.Task t : f.failedTasks()) {
        if ("ExceptionFailure".equals(t.reason())) {
          byPartition.computeIfAbsent(t.stageId() + ":" + t.index(), k -> new ArrayList<>()).add(t);
        }
      }
      List<LogFacts.Task> worst = byPartition.values().stream()
          .max(Comparator.comparingInt(List::size)).orElse(List.of());
      require(worst.size() >= minAttempts, "expected one partition to fail with an exception on %d"
          + " attempts, but the most any partition failed was %d", minAttempts, worst.size());
      LogFacts.Task first = worst.get(0);
      Set<String> signatures = worst.stream().map(t -> t.exceptionClass() + ": " + t.message())
          .collect(Collectors.toCollection(TreeSet::new));
      require(signatures.size() == 1, "partition %d of stage %d failed with different exceptions: %s",
          first.index(), first.stageId(), signatures);
      Set<Integer> attempts = worst.stream().map(LogFacts.Task::attempt).collect(Collectors.toCollection(TreeSet::new));
      require(attempts.size() == worst.size(), "the failures were not distinct attempts: %s", attempts);
      boolean anySuccess = f.tasks().stream().anyMatch(t -> t.succeeded()
          && t.stageId() == first.stageId() && t.index() == first.index());
      require(!anySuccess, "partition %d of stage %d succeeded on some attempt, so the failure is not deterministic",
          first.index(), first.stageId());
      String jobResult = jobResultOfStage(f, first.stageId());
      if (requireAbort) {
        require("JobFailed".equals(jobResult), "expected the job to abort, but its result is %s", jobResult);
      }
      return Findings.builder()
          .stages(List.of(first.stageId()))
          .partition(first.index())
          .evidence("exceptionClass", first.exceptionClass())
          .evidence("message", first.message())
          .evidence("failedAttempts", worst.size())
          .evidence("jobResult", jobResult)
          .evidence("stageFailureReason", firstLine(stageFailure(f, first.stageId())))
          .measured("failedAttemptsOfCulprit", worst.size())
          .build();
    };
  }

  /** One task fails on its first attempt and succeeds on the retry; the job succeeds. */
  public static FaultCheck flakyTask() {
    return run -> {
      LogFacts f = run.facts();
      List<LogFacts.Task> failed = f.failedTasks();
      require(failed.size() == 1, "expected exactly one failed task attempt, found %d", failed.size());
      LogFacts.Task bad = failed.get(0);
      require(bad.attempt() == 0, "the failed attempt is attempt %d, not the first", bad.attempt());
      LogFacts.Task retry = f.tasks().stream()
          .filter(t -> t.succeeded() && t.stageId() == bad.stageId() && t.index() == bad.index()
              && t.attempt() > bad.attempt())
          .findFirst().orElse(null);
      require(retry != null, "partition %d of stage %d never succeeded after its failure", bad.index(), bad.stageId());
      require(f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())), "a job failed");
      require(run.driverExitCode() == 0, "the driver exited with %d", run.driverExitCode());
      return Findings.builder()
          .stages(List.of(bad.stageId()))
          .partition(bad.index())
          .executor(bad.executorId())
          .evidence("exceptionClass", bad.exceptionClass())
          .evidence("message", bad.message())
          .evidence("failedAttempt", bad.attempt())
          .evidence("succeededAttempt", retry.attempt())
          .evidence("jobResult", "JobSucceeded")
          .build();
    };
  }

  /** One task of a stage runs several seconds and many times longer than the stage's median. */
  public static FaultCheck skew(double minRatio, long minStragglerMs) {
    return run -> {
      LogFacts f = run.facts();
      StageTasks worst = null;
      for (LogFacts.StageAttempt s : f.stages()) {
        List<LogFacts.Task> ok = f.tasksOf(s.stageId(), s.attempt()).stream().filter(LogFacts.Task::succeeded).toList();
        if (ok.size() < 4) {
          continue;
        }
        StageTasks st = new StageTasks(s, ok);
        if (worst == null || st.ratio() > worst.ratio()) {
          worst = st;
        }
      }
      require(worst != null, "no stage has four or more successful tasks to compare");
      LogFacts.Task straggler = worst.max();
      require(worst.ratio() >= minRatio, "the most uneven stage (%d) has max/median task duration %.2f,"
          + " below %.1f", worst.stage().stageId(), worst.ratio(), minRatio);
      require(straggler.durationMs() >= minStragglerMs, "the straggler took %d ms, less than %d ms",
          straggler.durationMs(), minStragglerMs);
      long medianRecords = Stats.median(worst.tasks().stream().map(LogFacts.Task::shuffleReadRecords).toList());
      require(straggler.shuffleReadRecords() > 2 * Math.max(medianRecords, 1), "the straggler read %d shuffle"
          + " records against a median of %d: slow, but not because of skewed data",
          straggler.shuffleReadRecords(), medianRecords);
      return Findings.builder()
          .stages(List.of(worst.stage().stageId()))
          .partition(straggler.index())
          .executor(straggler.executorId())
          .evidence("stragglerDurationMs", straggler.durationMs())
          .evidence("stragglerShuffleReadRecords", straggler.shuffleReadRecords())
          .evidence("medianShuffleReadRecords", medianRecords)
          .evidence("skewJoinEnabled", f.sparkProperties().getOrDefault("spark.sql.adaptive.skewJoin.enabled", "(default)"))
          .evidence("autoBroadcastJoinThreshold", f.sparkProperties().getOrDefault("spark.sql.autoBroadcastJoinThreshold", "(default)"))
          .measured("stageTasks", worst.tasks().size())
          .measured("maxTaskDurationMs", straggler.durationMs())
          .measured("medianTaskDurationMs", worst.median())
          .measured("maxToMedianDuration", worst.ratio())
          .measured("maxToMedianShuffleReadRecords", Stats.ratio(straggler.shuffleReadRecords(), Math.max(medianRecords, 1)))
          .build();
    };
  }

  /** Tasks spilled to memory and disk. */
  public static FaultCheck spill() {
    return run -> {
      LogFacts f = run.facts();
      Map<Integer, long[]> perStage = new TreeMap<>();
      for (LogFacts.Task t : f.tasks()) {
        long[] a = perStage.computeIfAbsent(t.stageId(), k -> new long[2]);
        a[0] += t.memorySpilled();
        a[1] += t.diskSpilled();
      }
      List<Integer> spilling = perStage.entrySet().stream().filter(e -> e.getValue()[1] > 0).map(Map.Entry::getKey).toList();
      long mem = perStage.values().stream().mapToLong(a -> a[0]).sum();
      long disk = perStage.values().stream().mapToLong(a -> a[1]).sum();
      require(disk > 0 && mem > 0, "no task spilled (memory %d bytes, disk %d bytes)", mem, disk);
      require(f.failedTasks().isEmpty(), "tasks failed; a spill scenario must only be slow");
      return Findings.builder()
          .stages(spilling)
          .evidence("memoryFraction", f.sparkProperties().getOrDefault("spark.memory.fraction", "(default)"))
          .evidence("spillingTasks", f.tasks().stream().filter(t -> t.diskSpilled() > 0).count())
          .measured("memoryBytesSpilled", mem)
          .measured("diskBytesSpilled", disk)
          .build();
    };
  }

  /**
   * A healthy run in which a stage wrote at least {@code minRatio} times the records it read (shuffle
   * and input records, summed over its successful tasks), and at least {@code minRecords} of them.
   */
  public static FaultCheck amplification(double minRatio, long minRecords) {
    return run -> {
      healthy().verify(run);
      LogFacts f = run.facts();
      Map<Integer, long[]> perStage = new TreeMap<>();
      for (LogFacts.Task t : f.tasks()) {
        if (t.succeeded()) {
          long[] a = perStage.computeIfAbsent(t.stageId(), k -> new long[2]);
          a[0] += t.shuffleReadRecords() + t.inputRecords();
          a[1] += t.shuffleWriteRecords();
        }
      }
      List<Integer> amplifying = perStage.entrySet().stream()
          .filter(e -> e.getValue()[0] > 0 && e.getValue()[1] >= minRecords && e.getValue()[1] >= minRatio * e.getValue()[0])
          .map(Map.Entry::getKey).toList();
      require(!amplifying.isEmpty(), "no stage wrote %.0fx the records it read and %d or more (read/written per stage: %s)",
          minRatio, minRecords, perStage.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue()[0] + "/" + e.getValue()[1]).toList());
      long[] top = perStage.get(amplifying.get(0));
      // Healthy: no culprit stages (the root cause names none); the stage is evidence for the insight.
      return Findings.builder()
          .evidence("amplifyingStages", amplifying)
          .measured("recordsRead", top[0])
          .measured("recordsWritten", top[1])
          .build();
    };
  }

  /**
   * A healthy run in which a stage spent at least {@code minShare} of its run time writing shuffle
   * files (summed over its successful tasks, at least {@code minRunMs} of run time), on more than
   * one executor.
   */
  public static FaultCheck shuffleWriteShare(double minShare, long minRunMs) {
    return run -> {
      healthy().verify(run);
      Map<Integer, long[]> perStage = new TreeMap<>();
      Map<Integer, Set<String>> executors = new TreeMap<>();
      for (LogFacts.Task t : run.facts().tasks()) {
        if (t.succeeded()) {
          long[] a = perStage.computeIfAbsent(t.stageId(), k -> new long[2]);
          a[0] += t.runTimeMs();
          a[1] += t.shuffleWriteTimeNs();
          executors.computeIfAbsent(t.stageId(), k -> new TreeSet<>()).add(t.executorId());
        }
      }
      List<Integer> slow = perStage.entrySet().stream()
          .filter(e -> e.getValue()[0] >= minRunMs && e.getValue()[1] / 1e6 >= minShare * e.getValue()[0]
              && executors.get(e.getKey()).size() > 1)
          .map(Map.Entry::getKey).toList();
      require(!slow.isEmpty(), "no stage on two or more executors spent %.0f%% of %d ms or more writing shuffle files "
          + "(run ms / write ms per stage: %s)", minShare * 100, minRunMs, perStage.entrySet().stream()
          .map(e -> e.getKey() + "=" + e.getValue()[0] + "/" + e.getValue()[1] / 1_000_000).toList());
      long[] top = perStage.get(slow.get(0));
      // Healthy: no culprit stages (the root cause names none); the stages are evidence for the insight.
      return Findings.builder()
          .evidence("slowShuffleWriteStages", slow)
          .evidence("executors", List.copyOf(executors.get(slow.get(0))))
          .measured("runTimeMs", top[0])
          .measured("shuffleWriteTimeMs", top[1] / 1_000_000)
          .build();
    };
  }

  /** A stage with thousands of tasks whose median duration is under 100 ms. */
  public static FaultCheck tooManySmallTasks(int minTasks, long maxMedianMs) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.StageAttempt big = f.stages().stream().max(Comparator.comparingInt(LogFacts.StageAttempt::numTasks)).orElse(null);
      require(big != null && big.numTasks() >= minTasks, "no stage has %d or more tasks (largest: %s)",
          minTasks, big == null ? "none" : big.numTasks());
      List<Long> durations = f.tasksOf(big.stageId(), big.attempt()).stream().map(LogFacts.Task::durationMs).toList();
      long median = Stats.median(durations);
      require(median < maxMedianMs, "the median task took %d ms, not under %d ms", median, maxMedianMs);
      return Findings.builder()
          .stages(List.of(big.stageId()))
          .evidence("numTasks", big.numTasks())
          .measured("stageTasks", durations.size())
          .measured("medianTaskDurationMs", median)
          .measured("maxTaskDurationMs", Stats.max(durations))
          .measured("stageDurationMs", big.completed() - big.submitted())
          .build();
    };
  }

  /** A long stage runs as fewer tasks than there are cores, so cores idle. */
  public static FaultCheck underpartitioned(long minTaskMs) {
    return run -> {
      LogFacts f = run.facts();
      int cores = f.executors().values().stream().mapToInt(LogFacts.Executor::cores).sum();
      LogFacts.Task longest = f.tasks().stream().filter(LogFacts.Task::succeeded)
          .max(Comparator.comparingLong(LogFacts.Task::durationMs)).orElse(null);
      require(longest != null, "no successful task");
      LogFacts.StageAttempt s = f.stage(longest.stageId(), longest.stageAttempt());
      require(s.numTasks() < cores, "the longest stage has %d tasks for %d cores", s.numTasks(), cores);
      require(longest.durationMs() >= minTaskMs, "the longest task took %d ms, less than %d ms",
          longest.durationMs(), minTaskMs);
      long stageMs = s.completed() - s.submitted();
      return Findings.builder()
          .stages(List.of(s.stageId()))
          .partition(longest.index())
          .evidence("stageTasks", s.numTasks())
          .evidence("totalCores", cores)
          .measured("taskDurationMs", longest.durationMs())
          .measured("stageDurationMs", stageMs)
          .measured("appDurationMs", f.appDurationMs())
          .measured("idleCoreShareDuringStage", Stats.ratio(cores - s.numTasks(), cores))
          .build();
    };
  }

  /**
   * A task fails with {@code java.lang.OutOfMemoryError} whose message contains {@code signature}
   * (such as {@code Java heap space}, {@code direct buffer memory} or {@code GC overhead limit
   * exceeded}, compared ignoring case) in an executor JVM, which then exits with a non-zero code.
   */
  public static FaultCheck executorOom(String signature) {
    return run -> {
      LogFacts f = run.facts();
      String wanted = signature.toLowerCase(java.util.Locale.ROOT);
      List<LogFacts.Task> ooms = f.failedTasks().stream()
          .filter(t -> OOM.equals(t.exceptionClass()) && !"driver".equals(t.executorId())).toList();
      require(!ooms.isEmpty(), "no task failed with java.lang.OutOfMemoryError in an executor");
      LogFacts.Task oom = ooms.stream()
          .filter(t -> t.message() != null && t.message().toLowerCase(java.util.Locale.ROOT).contains(wanted))
          .findFirst().orElse(null);
      require(oom != null, "no executor OutOfMemoryError says '%s'; they say: %s", signature,
          ooms.stream().map(LogFacts.Task::message).distinct().toList());
      // The OOM task's executor exits (52) once it has reported the error, but the application
      // may end before that removal is logged, and an attempt whose executor died before it could
      // report is an ExecutorLostFailure: any executor of the run that exited non-zero counts,
      // the OOM task's own first.
      List<LogFacts.Executor> exited = f.executors().values().stream()
          .filter(e -> e.removedReason() != null && exitCode(e.removedReason()) != null && exitCode(e.removedReason()) != 0)
          .sorted(Comparator.comparing((LogFacts.Executor e) -> !e.id().equals(oom.executorId()))
              .thenComparingLong(LogFacts.Executor::removed))
          .toList();
      require(!exited.isEmpty(), "no executor exited with a non-zero code; removals: %s",
          f.executors().values().stream().map(LogFacts.Executor::removedReason).filter(Objects::nonNull).toList());
      LogFacts.Executor ex = exited.get(0);
      String executorLog = run.executorLogs().getOrDefault(oom.executorId(), "");
      return Findings.builder()
          .stages(List.of(oom.stageId()))
          .partition(oom.index())
          .executor(oom.executorId())
          .evidence("exceptionClass", oom.exceptionClass())
          .evidence("message", oom.message())
          .evidence("executorExitCode", exitCode(ex.removedReason()))
          .evidence("exitedExecutor", ex.id())
          .evidence("executorRemovedReason", ex.removedReason())
          .evidence("executorLogShowsOom", executorLog.contains(OOM))
          .evidence("jobResult", jobResultOfStage(f, oom.stageId()))
          .evidence("stageFailureReason", firstLine(stageFailure(f, oom.stageId())))
          .measured("oomTaskFailures", ooms.size())
          .measured("executorsLost", executorsExited(f))
          .build();
    };
  }

  /**
   * An executor started with {@code -XX:+ExitOnOutOfMemoryError} runs out of heap and the JVM
   * exits at once with {@code exitCode}, before the task can report anything: the event log only
   * has ExecutorLostFailure and the exit code, and the OutOfMemoryError is only in the executor's
   * own output ({@code Terminating due to java.lang.OutOfMemoryError: Java heap space}).
   */
  public static FaultCheck executorExitOnOom(int exitCode) {
    return run -> {
      LogFacts f = run.facts();
      List<LogFacts.Task> lost = f.failedTasks().stream()
          .filter(t -> "ExecutorLostFailure".equals(t.reason()) && !"driver".equals(t.executorId())).toList();
      require(!lost.isEmpty(), "no task failed with ExecutorLostFailure on an executor");
      LogFacts.Task first = lost.get(0);
      LogFacts.Executor ex = f.executors().get(first.executorId());
      require(ex != null && ex.removedReason() != null, "executor %s was never removed", first.executorId());
      Integer exit = exitCode(ex.removedReason());
      require(Objects.equals(exit, exitCode), "executor %s was removed with '%s', not exit code %d",
          ex.id(), ex.removedReason(), exitCode);
      require(f.failedTasks().stream().noneMatch(t -> OOM.equals(t.exceptionClass())),
          "a task reported the OutOfMemoryError itself, so the JVM did not exit at once");
      String where = null;
      String line = null;
      for (Map.Entry<String, Map<String, String>> e : List.of(
          Map.entry("stdout", run.executorStdout()), Map.entry("stderr", run.executorLogs()))) {
        line = lineContaining(e.getValue().getOrDefault(ex.id(), ""), "Terminating due to " + OOM);
        if (line != null) {
          where = e.getKey();
          break;
        }
      }
      require(line != null, "executor %s's output has no 'Terminating due to %s' line", ex.id(), OOM);
      return Findings.builder()
          .stages(List.of(first.stageId()))
          .partition(first.index())
          .executor(ex.id())
          .evidence("lostTaskReason", first.message())
          .evidence("executorExitCode", exit)
          .evidence("executorRemovedReason", ex.removedReason())
          .evidence("executorLog", where)
          .evidence("executorLogLine", line)
          .evidence("jobResult", jobResultOfStage(f, first.stageId()))
          .evidence("stageFailureReason", firstLine(stageFailure(f, first.stageId())))
          .measured("lostTaskAttempts", lost.size())
          .measured("executorsLost", executorsExited(f))
          .build();
    };
  }

  /** An executor exits with 137, reducers fail to fetch its output, and its map stage re-runs. */
  public static FaultCheck executorLostFetchFailure(int expectedExit) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.Executor killed = f.executors().values().stream()
          .filter(e -> e.removedReason() != null && Objects.equals(exitCode(e.removedReason()), expectedExit))
          .findFirst().orElse(null);
      require(killed != null, "no executor exited with code %d; removals: %s", expectedExit,
          f.executors().values().stream().map(LogFacts.Executor::removedReason).filter(Objects::nonNull).toList());
      List<LogFacts.Task> fetchFailed = f.failedTasks().stream().filter(t -> "FetchFailed".equals(t.reason())).toList();
      require(!fetchFailed.isEmpty(), "no task failed with FetchFailed");
      LogFacts.Task fromKilled = fetchFailed.stream()
          .filter(t -> killed.id().equals(t.endReason().path("Block Manager Address").path("Executor ID").asText()))
          .findFirst().orElse(null);
      require(fromKilled != null, "no fetch failure points at the killed executor %s", killed.id());
      int shuffleId = fromKilled.endReason().path("Shuffle ID").asInt();
      LogFacts.StageAttempt rerun = f.stages().stream().filter(s -> s.attempt() > 0 && s.stageId() != fromKilled.stageId())
          .findFirst().orElse(null);
      require(rerun != null, "no map stage was re-run after the fetch failure");
      LogFacts.Task lostTask = f.failedTasks().stream().filter(t -> "ExecutorLostFailure".equals(t.reason())
          && killed.id().equals(t.executorId())).findFirst().orElse(null);
      // The culprit stage is the one that had a task running on the executor when it was killed; the map stage
      // re-run after it is fallout.
      return Findings.builder()
          .stages(List.of(lostTask == null ? fromKilled.stageId() : lostTask.stageId()))
          .partition(fromKilled.index())
          .executor(killed.id())
          .evidence("executorExitCode", expectedExit)
          .evidence("executorRemovedReason", killed.removedReason())
          .evidence("lostTaskReason", lostTask == null ? null : lostTask.message())
          .evidence("fetchFailedMessage", fromKilled.message())
          .evidence("fetchFailedCause", lastCause(fromKilled.endReason().path("Message").asText("")))
          .evidence("fetchFailedShuffleId", shuffleId)
          .evidence("rerunStageId", rerun.stageId())
          .evidence("rerunStageAttempt", rerun.attempt())
          .evidence("jobResult", f.jobs().isEmpty() ? null : f.jobs().get(f.jobs().size() - 1).result())
          .measured("fetchFailedTasks", fetchFailed.size())
          .measured("stageAttempts", f.stages().size())
          .build();
    };
  }

  /**
   * An executor JVM is stopped from outside with SIGTERM in a job without a shuffle: the executor
   * is removed with {@code exitCode} (143, 128 + SIGTERM), its running task fails with
   * ExecutorLostFailure and succeeds on another executor, no fetch fails, nothing runs out of
   * memory, and the job succeeds. The executor's own log says it received the signal.
   */
  public static FaultCheck executorLostSigterm(int exitCode) {
    return run -> {
      LogFacts f = run.facts();
      List<LogFacts.Task> lost = f.failedTasks().stream()
          .filter(t -> "ExecutorLostFailure".equals(t.reason()) && !"driver".equals(t.executorId())).toList();
      require(!lost.isEmpty(), "no task failed with ExecutorLostFailure on an executor");
      LogFacts.Task first = lost.get(0);
      LogFacts.Executor ex = f.executors().get(first.executorId());
      require(ex != null && ex.removedReason() != null, "executor %s was never removed", first.executorId());
      Integer exit = exitCode(ex.removedReason());
      require(Objects.equals(exit, exitCode) || Objects.equals(exitCode(first.message()), exitCode),
          "executor %s was removed with '%s' (its task lost with '%s'), not exit code %d", ex.id(),
          ex.removedReason(), first.message(), exitCode);
      require(f.failedTasks().stream().noneMatch(t -> "FetchFailed".equals(t.reason())), "a task failed with FetchFailed");
      require(f.failedTasks().stream().allMatch(t -> "ExecutorLostFailure".equals(t.reason())),
          "tasks failed for other reasons too: %s",
          f.failedTasks().stream().map(LogFacts.Task::reason).distinct().toList());
      require(f.failedTasks().stream().noneMatch(t -> OOM.equals(t.exceptionClass()))
          && run.executorStdout().values().stream().noneMatch(o -> o.contains(OOM)),
          "an OutOfMemoryError was reported: this executor did not just receive a signal");
      require(f.stages().stream().allMatch(s -> s.attempt() == 0 && s.failureReason() == null),
          "a stage failed or was re-run");
      require(f.tasks().stream().allMatch(t -> t.shuffleWriteBytes() == 0 && t.shuffleReadBytes() == 0),
          "the job shuffles, so a lost executor could also lose map output");
      LogFacts.Task retry = f.tasks().stream()
          .filter(t -> t.succeeded() && t.stageId() == first.stageId() && t.index() == first.index()
              && t.attempt() > first.attempt())
          .findFirst().orElse(null);
      require(retry != null, "partition %d of stage %d never succeeded after its executor was lost",
          first.index(), first.stageId());
      require(!retry.executorId().equals(ex.id()), "the retry ran on the lost executor %s", ex.id());
      require(!f.jobs().isEmpty() && f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())),
          "a job failed or none ran");
      require(run.driverExitCode() == 0, "the driver exited with %d", run.driverExitCode());
      String line = lineContaining(run.executorLogs().getOrDefault(ex.id(), ""), "RECEIVED SIGNAL TERM");
      require(line != null, "executor %s's log has no 'RECEIVED SIGNAL TERM' line", ex.id());
      return Findings.builder()
          .stages(List.of(first.stageId()))
          .partition(first.index())
          .executor(ex.id())
          .evidence("executorExitCode", exitCode)
          .evidence("executorRemovedReason", ex.removedReason())
          .evidence("lostTaskReason", first.message())
          .evidence("executorLogLine", line.replaceFirst("^\\S+ \\S+ ", ""))
          .evidence("retryExecutorId", retry.executorId())
          .evidence("retryAttempt", retry.attempt())
          .evidence("jobResult", "JobSucceeded")
          .measured("lostTaskAttempts", lost.size())
          .measured("executorsLost", executorsExited(f))
          .build();
    };
  }

  /**
   * The driver's own code throws an ordinary exception before any job, and it is none of the
   * causes the catalog names on its own (a missing path, class, module or data source, a denied
   * access, a closure that cannot be serialized, an OutOfMemoryError, a failed write or commit).
   */
  public static FaultCheck driverFailure() {
    return run -> {
      Findings.Builder b = driverFailedBeforeAnyJob(run);
      require(run.facts().jobsStarted().isEmpty(), "a job started");
      String trace = mainTrace(run.driverStderr());
      for (String specific : SPECIFIC_DRIVER_CAUSES) {
        require(!trace.contains(specific), "the driver's exception names a specific cause (%s): %s", specific,
            firstLine(trace));
      }
      String frame = null;
      for (String line : trace.split("\n")) {
        if (line.strip().startsWith("at ")) {
          frame = line.strip().substring(3);
          break;
        }
      }
      require(frame != null, "the driver's exception has no stack frame");
      require(lastCause(trace) == null, "the driver's exception has a cause: %s", lastCause(trace));
      return b.evidence("thrownAt", frame).build();
    };
  }

  /**
   * The driver JVM dies of SIGKILL while a job runs and nothing says why: exit {@code exitCode}
   * (137), an event log still in progress with no application end and a job that never ended, no
   * failed task or stage, and a driver log that just stops (no uncaught exception, no
   * OutOfMemoryError, no signal received, no shutdown hook run).
   */
  public static FaultCheck driverKilledMidJob(int exitCode) {
    return run -> {
      LogFacts f = run.facts();
      require(run.driverExitCode() == exitCode, "the driver exited with %d, not %d", run.driverExitCode(), exitCode);
      require(f.endTime() < 0, "the log has an application end");
      require(f.inProgress(), "the log is not marked in progress");
      List<Integer> unfinished = f.unfinishedJobs();
      require(!unfinished.isEmpty(), "every job that started also ended (%s)", f.jobsStarted());
      require(f.failedTasks().isEmpty(), "%d task attempts failed", f.failedTasks().size());
      require(f.stages().stream().noneMatch(s -> s.failureReason() != null), "a stage failed");
      String all = run.driverStderr() + "\n" + run.driverStdout();
      for (String cause : List.of("Exception in thread", OOM, "RECEIVED SIGNAL", "Shutdown hook called",
          "Successfully stopped SparkContext")) {
        require(!all.contains(cause), "the driver log says '%s': it did not just stop", cause);
      }
      return Findings.builder()
          .evidence("driverExitCode", run.driverExitCode())
          .evidence("eventLogHasApplicationEnd", false)
          .evidence("eventLogInProgress", true)
          .evidence("unfinishedJobIds", unfinished)
          .evidence("lastEvent", f.lastEvent())
          .evidence("truncatedLines", f.truncatedLines())
          .measured("jobsStarted", f.jobsStarted().size())
          .measured("completedStageAttempts", f.stages().stream().filter(s -> s.completed() >= 0).count())
          .build();
    };
  }

  /**
   * The driver fails before any job because an input path does not exist; the cause is only in
   * the driver's own log.
   */
  public static FaultCheck inputNotFound() {
    return run -> {
      Findings.Builder b = driverFailedBeforeAnyJob(run);
      String trace = mainTrace(run.driverStderr());
      require(trace.contains("Path does not exist"), "the driver's exception does not say 'Path does not"
          + " exist': %s", firstLine(trace));
      return b.build();
    };
  }

  /**
   * The driver fails before any job because a data source is not on the class path: Spark's
   * "Failed to find the data source" error, caused by a ClassNotFoundException.
   */
  public static FaultCheck missingDependency() {
    return run -> {
      Findings.Builder b = driverFailedBeforeAnyJob(run);
      String trace = mainTrace(run.driverStderr());
      require(trace.contains("Failed to find") && trace.contains("data source"),
          "the driver's exception does not say it failed to find a data source: %s", firstLine(trace));
      String cnf = causeOfClass(trace, "java.lang.ClassNotFoundException");
      require(cnf != null, "the driver's exception has no ClassNotFoundException cause");
      return b.evidence("missingClass", cnf).build();
    };
  }

  /**
   * The driver fails before any job because a closure cannot be serialized: {@code
   * org.apache.spark.SparkException: Task not serializable}, caused by a NotSerializableException.
   */
  public static FaultCheck taskNotSerializable() {
    return run -> {
      Findings.Builder b = driverFailedBeforeAnyJob(run);
      String trace = mainTrace(run.driverStderr());
      require(firstLine(trace).contains("Task not serializable"),
          "the driver's exception is not 'Task not serializable': %s", firstLine(trace));
      String cls = causeOfClass(trace, "java.io.NotSerializableException");
      require(cls != null, "the driver's exception has no java.io.NotSerializableException cause");
      String stack = lineContaining(trace, "object not serializable");
      return b.evidence("notSerializableClass", cls)
          .evidence("serializationStack", stack == null ? null : stack.strip())
          .build();
    };
  }

  /**
   * The driver runs out of heap in its main thread while collecting a result, after the job that
   * computed it succeeded: {@code Exception in thread "main" java.lang.OutOfMemoryError} with a
   * collect frame in the driver log, a non-zero exit, and no failed job, stage or task.
   */
  public static FaultCheck driverOom() {
    return run -> {
      LogFacts f = run.facts();
      require(run.driverExitCode() != 0, "the driver exited with 0");
      Matcher m = MAIN_EXCEPTION.matcher(run.driverStderr());
      require(m.find() && OOM.equals(m.group(1)), "the driver log has no 'Exception in thread \"main\" %s'", OOM);
      String trace = mainTrace(run.driverStderr());
      String frame = null;
      for (String line : trace.split("\n")) {
        if (line.strip().startsWith("at ") && COLLECT_FRAME.matcher(line).find()) {
          frame = line.strip().substring(3);
          break;
        }
      }
      require(frame != null, "the driver's OutOfMemoryError has no collect frame");
      require(!f.jobs().isEmpty() && f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())),
          "a job failed or none ran: the driver, not a job, must be what failed");
      require(f.stages().stream().noneMatch(s -> s.failureReason() != null), "a stage failed");
      require(f.failedTasks().isEmpty(), "%d task attempts failed", f.failedTasks().size());
      LogFacts.SqlExecution failed = f.sql().values().stream()
          .filter(x -> x.errorMessage() != null && x.errorMessage().contains(OOM)).findFirst().orElse(null);
      Findings.Builder b = Findings.builder()
          .evidence("exceptionClass", m.group(1))
          .evidence("message", m.group(2))
          .evidence("collectFrame", frame)
          .evidence("driverExitCode", run.driverExitCode())
          .evidence("jobResults", f.jobs().stream().map(LogFacts.Job::result).distinct().toList())
          .evidence("sqlExecutionId", failed == null ? null : failed.id())
          .evidence("sqlError", failed == null ? null : firstLine(failed.errorMessage()))
          .evidence("driverMemory", f.sparkProperties().getOrDefault("spark.driver.memory", "(default)"))
          .evidence("driverMaxResultSize", f.sparkProperties().getOrDefault("spark.driver.maxResultSize", "(default)"));
      return b.measured("taskResultBytes", f.tasks().stream().mapToLong(LogFacts.Task::resultSize).sum())
          .measured("jobs", f.jobs().size())
          .build();
    };
  }

  /**
   * A write fails inside its tasks: every attempt of a partition fails with Spark's task write
   * error ({@code [TASK_WRITE_FAILED]}, "Task failed while writing rows"), so the stage, the job
   * and the query abort and the driver exits non-zero.
   */
  public static FaultCheck taskWriteFailure(int minAttempts) {
    return run -> {
      LogFacts f = run.facts();
      List<LogFacts.Task> writeFailures = f.failedTasks().stream()
          .filter(t -> "ExceptionFailure".equals(t.reason()) && t.message() != null
              && (t.message().contains("TASK_WRITE_FAILED") || t.message().contains("Task failed while writing rows")))
          .toList();
      require(!writeFailures.isEmpty(), "no task failed with Spark's task write error");
      LogFacts.Task first = writeFailures.get(0);
      Map<Integer, Long> attemptsByPartition = writeFailures.stream().filter(t -> t.stageId() == first.stageId())
          .collect(Collectors.groupingBy(LogFacts.Task::index, TreeMap::new, Collectors.counting()));
      long most = attemptsByPartition.values().stream().mapToLong(Long::longValue).max().orElse(0);
      require(most >= minAttempts, "no partition of stage %d failed to write %d times (at most %d)",
          first.stageId(), minAttempts, most);
      require(f.tasks().stream().noneMatch(t -> t.succeeded() && t.stageId() == first.stageId()),
          "a task of stage %d succeeded, so the write does not fail on every attempt", first.stageId());
      Set<String> causes = writeFailures.stream()
          .map(t -> String.valueOf(lastCause(t.endReason().path("Full Stack Trace").asText(""))).replaceAll("attempt_\\w+", "<attempt>"))
          .collect(Collectors.toCollection(TreeSet::new));
      require(causes.size() == 1, "the write failures have different causes: %s", causes);
      String stageFailure = stageFailure(f, first.stageId());
      require(stageFailure != null, "stage %d did not fail", first.stageId());
      String jobResult = jobResultOfStage(f, first.stageId());
      require("JobFailed".equals(jobResult), "expected the job to abort, but its result is %s", jobResult);
      require(run.driverExitCode() != 0, "the driver exited with 0");
      String cause = lastCause(first.endReason().path("Full Stack Trace").asText(""));
      LogFacts.SqlExecution failed = f.sql().values().stream().filter(x -> x.errorMessage() != null).findFirst().orElse(null);
      return Findings.builder()
          .stages(List.of(first.stageId()))
          .partition(first.index())
          .executor(first.executorId())
          .evidence("exceptionClass", first.exceptionClass())
          .evidence("message", firstLine(first.message()))
          .evidence("cause", cause)
          .evidence("failedAttempts", writeFailures.size())
          .evidence("failedAttemptsByPartition", attemptsByPartition)
          .evidence("stageFailureReason", firstLine(stageFailure))
          .evidence("jobResult", jobResult)
          .evidence("sqlExecutionId", failed == null ? null : failed.id())
          .evidence("outputCommitterClass", f.sparkProperties().get("spark.sql.sources.outputCommitterClass"))
          .evidence("driverExitCode", run.driverExitCode())
          .measured("writeTaskFailures", writeFailures.size())
          .build();
    };
  }

  /**
   * The driver keeps the cluster idle: several short jobs, all succeeded, with most of the
   * application's wall time outside any job (at least {@code minIdleShare}), and more time
   * between the jobs than in them, so the idle time is driver work, not start-up.
   */
  public static FaultCheck driverBottleneck(int minJobs, double minIdleShare) {
    return run -> {
      LogFacts f = run.facts();
      require(run.driverExitCode() == 0, "the driver exited with %d", run.driverExitCode());
      require(f.jobs().size() >= minJobs, "%d jobs, expected at least %d", f.jobs().size(), minJobs);
      require(f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())), "a job failed");
      require(f.failedTasks().isEmpty(), "%d task attempts failed", f.failedTasks().size());
      long app = f.appDurationMs();
      require(app > 0, "the application has no duration");
      List<long[]> busy = jobIntervals(f);
      long jobTime = busy.stream().mapToLong(iv -> iv[1] - iv[0]).sum();
      long before = busy.get(0)[0] - f.startTime();
      long after = f.endTime() - busy.get(busy.size() - 1)[1];
      long between = 0;
      long longestGap = 0;
      for (int i = 1; i < busy.size(); i++) {
        long gap = busy.get(i)[0] - busy.get(i - 1)[1];
        between += gap;
        longestGap = Math.max(longestGap, gap);
      }
      long idle = app - jobTime;
      double share = Stats.ratio(idle, app);
      require(share >= minIdleShare, "no job ran for %.2f of the application's time, below %.2f", share, minIdleShare);
      require(between >= jobTime, "only %d ms between the jobs against %d ms in them: the idle time is"
          + " start-up and shut-down, not driver work between jobs", between, jobTime);
      return Findings.builder()
          .evidence("jobs", f.jobs().size())
          .evidence("jobResults", f.jobs().stream().map(LogFacts.Job::result).distinct().toList())
          .evidence("driverExitCode", run.driverExitCode())
          .measured("appDurationMs", app)
          .measured("jobTimeMs", jobTime)
          .measured("idleMs", idle)
          .measured("idleShare", share)
          .measured("beforeFirstJobMs", before)
          .measured("betweenJobsMs", between)
          .measured("afterLastJobMs", after)
          .measured("longestGapBetweenJobsMs", longestGap)
          .build();
    };
  }

  /** Garbage collection takes at least {@code minRatio} of the executors' task run time. */
  public static FaultCheck gcPressure(double minRatio) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.StageAttempt worst = null;
      double worstRatio = -1;
      for (LogFacts.StageAttempt s : f.stages()) {
        List<LogFacts.Task> ts = f.tasksOf(s.stageId(), s.attempt());
        double r = Stats.ratio(ts.stream().mapToLong(LogFacts.Task::gcTimeMs).sum(),
            ts.stream().mapToLong(LogFacts.Task::runTimeMs).sum());
        if (r > worstRatio) {
          worstRatio = r;
          worst = s;
        }
      }
      require(worst != null, "no stage");
      require(worstRatio >= minRatio, "GC took %.2f of task run time at most, below %.2f", worstRatio, minRatio);
      List<LogFacts.Task> ts = f.tasksOf(worst.stageId(), worst.attempt());
      return Findings.builder()
          .stages(List.of(worst.stageId()))
          .evidence("stageGcTimeMs", ts.stream().mapToLong(LogFacts.Task::gcTimeMs).sum())
          .evidence("stageRunTimeMs", ts.stream().mapToLong(LogFacts.Task::runTimeMs).sum())
          .measured("stageGcRatio", worstRatio)
          .measured("maxTaskGcRatio", ts.stream().mapToDouble(t -> Stats.ratio(t.gcTimeMs(), t.runTimeMs())).max().orElse(0))
          .build();
    };
  }

  /** A sort-merge join, in one of several SQL executions, whose smaller side is tiny. */
  public static FaultCheck sortMergeJoinShouldBroadcast(int minExecutions, long maxSmallSideRows) {
    return run -> {
      LogFacts f = run.facts();
      require(f.sql().size() >= minExecutions, "%d SQL executions, expected at least %d", f.sql().size(), minExecutions);
      for (LogFacts.SqlExecution x : f.sql().values()) {
        JsonNode plan = x.planInfos().get(x.planInfos().size() - 1);
        JsonNode smj = findNode(plan, "SortMergeJoin");
        if (smj == null || !smj.path("children").isArray() || smj.path("children").size() != 2) {
          continue;
        }
        String finalPlan = x.planDescriptions().get(x.planDescriptions().size() - 1);
        require(!finalPlan.contains("BroadcastHashJoin"), "execution %d also broadcasts", x.id());
        long left = leafRows(smj.path("children").get(0), f.accumulators());
        long right = leafRows(smj.path("children").get(1), f.accumulators());
        long small = Math.min(left, right);
        require(small > 0 && small <= maxSmallSideRows, "the smaller join side has %d rows, not in (0, %d]",
            small, maxSmallSideRows);
        List<Integer> stages = stagesOfExecution(f, x.id());
        return Findings.builder()
            .stages(stages)
            .evidence("sqlExecutionId", x.id())
            .evidence("joinNode", smj.path("simpleString").asText())
            .evidence("autoBroadcastJoinThreshold", f.sparkProperties().getOrDefault("spark.sql.autoBroadcastJoinThreshold", "(default)"))
            .measured("smallSideRows", small)
            .measured("largeSideRows", Math.max(left, right))
            .measured("sqlExecutions", f.sql().size())
            .build();
      }
      throw new FaultNotShownException("no SQL execution's final plan has a SortMergeJoin");
    };
  }

  /** Writing succeeds task by task, then committing the output fails and the query fails. */
  public static FaultCheck writeCommitFailure() {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.SqlExecution failed = f.sql().values().stream().filter(x -> x.errorMessage() != null).findFirst().orElse(null);
      require(failed != null, "no SQL execution ended with an error");
      String err = failed.errorMessage();
      require(err.contains("commit"), "the SQL error does not mention a commit: %s", firstLine(err));
      require(run.driverExitCode() != 0, "the driver exited with 0");
      List<Integer> stages = stagesOfExecution(f, failed.id());
      String first = firstLine(err);
      int colon = first.indexOf(": ");
      return Findings.builder()
          .stages(stages)
          .evidence("sqlExecutionId", failed.id())
          .evidence("exceptionClass", colon < 0 ? first : first.substring(0, colon))
          .evidence("message", colon < 0 ? null : first.substring(colon + 2))
          .evidence("jobResults", f.jobs().stream().filter(j -> Objects.equals(j.sqlExecutionId(), failed.id()))
              .map(LogFacts.Job::result).distinct().toList())
          .evidence("failedTasks", f.failedTasks().size())
          .evidence("driverExitCode", run.driverExitCode())
          .build();
    };
  }

  /** Everything succeeded, nothing failed, nothing spilled. */
  public static FaultCheck healthy() {
    return run -> {
      LogFacts f = run.facts();
      require(run.driverExitCode() == 0, "the driver exited with %d", run.driverExitCode());
      require(f.failedTasks().isEmpty(), "%d task attempts failed", f.failedTasks().size());
      require(!f.jobs().isEmpty() && f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())), "a job failed or none ran");
      require(f.tasks().stream().allMatch(t -> t.diskSpilled() == 0), "tasks spilled");
      return Findings.builder()
          .measured("inputRows", inputRows(f))
          .build();
    };
  }

  /**
   * Slower than the baseline on the same input, with a changed setting and many more tasks.
   */
  public static FaultCheck configRegression(double minSlowdown) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts b = requireBaseline(run);
      healthy().verify(run);
      long rows = inputRows(f);
      long baseRows = inputRows(b);
      require(rows == baseRows, "input differs from the baseline (%d vs %d rows)", rows, baseRows);
      Map<String, List<String>> diff = settingsDiff(b, f);
      require(!diff.isEmpty(), "no compared setting differs from the baseline");
      // Job time, not application time: JVM and SparkContext start-up are noise here.
      double slowdown = Stats.ratio(jobTime(f), jobTime(b));
      require(slowdown >= minSlowdown, "jobs only %.2fx slower than the baseline's, below %.2fx", slowdown, minSlowdown);
      // The culprit is the stage whose time regressed: the one that ran the changed shuffle partitions (the most
      // tasks), slower than any stage of the baseline.
      LogFacts.StageAttempt culprit = f.stages().stream().max(Comparator.comparingInt(LogFacts.StageAttempt::numTasks))
          .orElseThrow(() -> new IllegalStateException("no stage ran"));
      long baseLongest = b.stages().stream().mapToLong(s -> s.completed() - s.submitted()).max().orElse(0);
      require(culprit.completed() - culprit.submitted() > baseLongest, "stage %d (%d tasks) is no slower than the "
          + "baseline's longest stage (%d ms)", culprit.stageId(), culprit.numTasks(), baseLongest);
      return Findings.builder()
          .stages(List.of(culprit.stageId()))
          .evidence("changedSettings", diff)
          .measured("inputRows", rows)
          .measured("baselineInputRows", baseRows)
          .measured("appDurationMs", f.appDurationMs())
          .measured("baselineAppDurationMs", b.appDurationMs())
          .measured("jobTimeMs", jobTime(f))
          .measured("baselineJobTimeMs", jobTime(b))
          .measured("slowdown", slowdown)
          .measured("tasks", f.tasks().size())
          .measured("baselineTasks", b.tasks().size())
          .build();
    };
  }

  /** Slower than the baseline only because the input grew: same settings, same task counts. */
  public static FaultCheck inputGrowth(double minGrowth) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts b = requireBaseline(run);
      healthy().verify(run);
      long rows = inputRows(f);
      long baseRows = inputRows(b);
      double growth = Stats.ratio(rows, baseRows);
      require(growth >= minGrowth, "input grew %.2fx (%d vs %d rows), less than %.2fx", growth, rows, baseRows, minGrowth);
      Map<String, List<String>> diff = settingsDiff(b, f);
      require(diff.isEmpty(), "settings differ from the baseline: %s", diff);
      double slowdown = Stats.ratio(jobTime(f), jobTime(b));
      require(slowdown > 1.0, "jobs not slower than the baseline's (%.2fx)", slowdown);
      double workGrowth = Stats.ratio(taskRunTime(f), taskRunTime(b));
      require(workGrowth >= 1.5, "task run time grew only %.2fx with %.2fx the input", workGrowth, growth);
      return Findings.builder()
          .evidence("changedSettings", diff)
          .measured("inputRows", rows)
          .measured("baselineInputRows", baseRows)
          .measured("inputGrowth", growth)
          .measured("appDurationMs", f.appDurationMs())
          .measured("baselineAppDurationMs", b.appDurationMs())
          .measured("jobTimeMs", jobTime(f))
          .measured("baselineJobTimeMs", jobTime(b))
          .measured("slowdown", slowdown)
          .measured("taskRunTimeMs", taskRunTime(f))
          .measured("baselineTaskRunTimeMs", taskRunTime(b))
          .measured("tasks", f.tasks().size())
          .measured("baselineTasks", b.tasks().size())
          .build();
    };
  }

  /**
   * The log was cut off mid-line before the application ended, and {@code inner} still finds its
   * fault in what remains.
   */
  public static FaultCheck truncated(FaultCheck inner) {
    return run -> {
      require(run.facts().truncatedLines() == 1, "expected one cut-off line, found %d", run.facts().truncatedLines());
      require(run.facts().endTime() < 0, "the cut log still has its application end");
      return inner.verify(run);
    };
  }

  /**
   * The deterministic failure of {@link #deterministicFailure}, whose failed attempts (their
   * message or full stack trace) say one of {@code signatures}: the same partition fails alike on
   * every attempt for a named reason.
   */
  public static FaultCheck deterministicFailureSaying(int minAttempts, String... signatures) {
    FaultCheck inner = deterministicFailure(minAttempts, true);
    return run -> {
      Findings found = inner.verify(run);
      LogFacts f = run.facts();
      List<LogFacts.Task> culprit = f.failedTasks().stream()
          .filter(t -> t.stageId() == found.stageIds().get(0) && Objects.equals(t.index(), found.partition())
              && "ExceptionFailure".equals(t.reason()))
          .toList();
      String matched = null;
      for (String s : signatures) {
        if (culprit.stream().allMatch(t -> failureText(t).contains(s))) {
          matched = s;
          break;
        }
      }
      require(matched != null, "partition %d of stage %d failed, but not every attempt says any of %s: %s",
          found.partition(), found.stageIds().get(0), List.of(signatures), firstLine(culprit.get(0).message()));
      require(run.driverExitCode() != 0, "the driver exited with 0");
      Findings.Builder b = Findings.builder()
          .stages(found.stageIds())
          .partition(found.partition())
          .executor(culprit.get(0).executorId());
      found.evidence().forEach(b::evidence);
      b.evidence("message", firstLine(culprit.get(0).message()));
      b.evidence("signature", matched);
      String cause = lastCause(culprit.get(0).endReason().path("Full Stack Trace").asText(""));
      b.evidence("cause", cause == null ? null : firstLine(cause));
      found.measured().forEach(b::measured);
      return b.build();
    };
  }

  /**
   * The driver aborts a job because the serialized results of its tasks add up to more than
   * {@code spark.driver.maxResultSize}: Spark's "Total size of serialized results of N tasks (...)
   * is bigger than spark.driver.maxResultSize (...)" as the stage's failure, the job fails, no task
   * failed with an exception (the tasks still running are killed), and the driver exits non-zero.
   */
  public static FaultCheck resultTooLarge() {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.StageAttempt stage = f.stages().stream()
          .filter(s -> s.failureReason() != null && RESULT_TOO_LARGE.matcher(s.failureReason()).find())
          .findFirst().orElse(null);
      require(stage != null, "no stage failed because its results were bigger than spark.driver.maxResultSize;"
          + " stage failures: %s", f.stages().stream().map(LogFacts.StageAttempt::failureReason)
          .filter(Objects::nonNull).map(FaultChecks::firstLine).toList());
      Matcher m = RESULT_TOO_LARGE.matcher(stage.failureReason());
      require(m.find(), "unreachable");
      String jobResult = jobResultOfStage(f, stage.stageId());
      require("JobFailed".equals(jobResult), "expected the job to abort, but its result is %s", jobResult);
      require(f.failedTasks().stream().noneMatch(t -> "ExceptionFailure".equals(t.reason())),
          "a task failed with an exception: the results, not the tasks, must be what failed");
      require(run.driverExitCode() != 0, "the driver exited with 0");
      List<LogFacts.Task> ofStage = f.tasksOf(stage.stageId(), stage.attempt());
      return Findings.builder()
          .stages(List.of(stage.stageId()))
          .evidence("stageFailureReason", firstLine(stage.failureReason()))
          .evidence("serializedResultTasks", Integer.parseInt(m.group(1)))
          .evidence("serializedResultSize", m.group(2))
          .evidence("maxResultSize", m.group(3))
          .evidence("driverMaxResultSize", f.sparkProperties().getOrDefault("spark.driver.maxResultSize", "(default)"))
          .evidence("killedTasks", ofStage.stream().filter(t -> "TaskKilled".equals(t.reason())).count())
          .evidence("killReason", ofStage.stream().filter(t -> "TaskKilled".equals(t.reason()))
              .map(LogFacts.Task::message).findFirst().orElse(null))
          .evidence("jobResult", jobResult)
          .evidence("driverExitCode", run.driverExitCode())
          .measured("taskResultBytes", ofStage.stream().mapToLong(LogFacts.Task::resultSize).sum())
          .measured("stageTasks", stage.numTasks())
          .build();
    };
  }

  /**
   * A broadcast join fails because building its broadcast side took longer than {@code
   * spark.sql.broadcastTimeout}: a SQL execution ends with "Could not execute broadcast in N
   * secs", its broadcast job was cancelled, and the driver exits non-zero.
   */
  public static FaultCheck broadcastTimeout() {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.SqlExecution failed = f.sql().values().stream()
          .filter(x -> x.errorMessage() != null && x.errorMessage().contains("Could not execute broadcast in"))
          .findFirst().orElse(null);
      require(failed != null, "no SQL execution ended with 'Could not execute broadcast in'; SQL errors: %s",
          f.sql().values().stream().map(LogFacts.SqlExecution::errorMessage).filter(Objects::nonNull)
              .map(FaultChecks::firstLine).toList());
      List<LogFacts.Job> cancelled = f.jobs().stream()
          .filter(j -> Objects.equals(j.sqlExecutionId(), failed.id()) && "JobFailed".equals(j.result()))
          .toList();
      require(!cancelled.isEmpty(), "no job of SQL execution %d failed: the broadcast job was not cancelled",
          failed.id());
      require(run.driverExitCode() != 0, "the driver exited with 0");
      require(run.driverStderr().contains("Could not execute broadcast in"),
          "the driver log does not say 'Could not execute broadcast in'");
      List<Integer> stages = cancelled.stream().flatMap(j -> j.stageIds().stream())
          .filter(id -> f.stages().stream().anyMatch(s -> s.stageId() == id)).distinct().sorted().toList();
      LogFacts.Task killed = f.tasks().stream().filter(t -> stages.contains(t.stageId()) && "TaskKilled".equals(t.reason()))
          .findFirst().orElse(null);
      // The slow task must have ended (killed) in the log: a task left running when the
      // application ends gets its History Server duration from the log file's time.
      require(killed != null, "no task of the broadcast stages %s was killed in the log", stages);
      long stageMs = stages.stream().map(id -> f.stage(id, 0)).filter(Objects::nonNull)
          .mapToLong(s -> s.completed() - s.submitted()).max().orElse(-1);
      return Findings.builder()
          .stages(stages)
          .evidence("sqlExecutionId", failed.id())
          .evidence("sqlError", firstLine(failed.errorMessage()))
          .evidence("broadcastTimeout", f.sparkProperties().getOrDefault("spark.sql.broadcastTimeout", "(default)"))
          .evidence("cancelledJobIds", cancelled.stream().map(LogFacts.Job::jobId).toList())
          .evidence("cancelledJobMessage", firstLine(cancelled.get(0).failureMessage()))
          .evidence("killedTaskReason", firstLine(killed.message()))
          .evidence("driverExitCode", run.driverExitCode())
          .measured("broadcastStageMs", stageMs)
          .build();
    };
  }

  /**
   * A SQL query fails analysis in the driver: {@code Exception in thread "main"
   * org.apache.spark.sql.AnalysisException} naming an error class about a name that cannot be
   * resolved ({@code UNRESOLVED_COLUMN}, {@code TABLE_OR_VIEW_NOT_FOUND}, ...), with no task, stage
   * or job failed and a non-zero exit.
   */
  public static FaultCheck queryAnalysisError() {
    return run -> {
      LogFacts f = run.facts();
      require(run.driverExitCode() != 0, "the driver exited with 0");
      Matcher m = MAIN_EXCEPTION.matcher(run.driverStderr());
      require(m.find(), "the driver log has no 'Exception in thread \"main\"' line");
      require(m.group(1).endsWith("AnalysisException"), "the driver's exception is %s, not an AnalysisException",
          m.group(1));
      String message = m.group(2) == null ? "" : m.group(2);
      Matcher cls = ERROR_CLASS.matcher(message);
      require(cls.find() && (cls.group(1).startsWith("UNRESOLVED_") || cls.group(1).contains("NOT_FOUND")),
          "the AnalysisException names no unresolved column or missing table: %s", message);
      require(!message.contains("PATH_NOT_FOUND") && !message.contains("Path does not exist"),
          "the AnalysisException is about a missing input path, not the query: %s", message);
      require(f.failedTasks().isEmpty(), "%d task attempts failed", f.failedTasks().size());
      require(f.jobs().stream().allMatch(j -> "JobSucceeded".equals(j.result())), "a job failed");
      LogFacts.SqlExecution failed = f.sql().values().stream()
          .filter(x -> x.errorMessage() != null && x.errorMessage().contains(cls.group(1)))
          .findFirst().orElse(null);
      return Findings.builder()
          .evidence("exceptionClass", m.group(1))
          .evidence("message", message.replaceFirst(";\\s*$", ""))
          .evidence("errorClass", cls.group(1))
          .evidence("sqlExecutionId", failed == null ? null : failed.id())
          .evidence("jobResults", f.jobs().stream().map(LogFacts.Job::result).distinct().toList())
          .evidence("driverExitCode", run.driverExitCode())
          .measured("jobs", f.jobs().size())
          .build();
    };
  }

  /**
   * Tasks on an executor (not the driver) fail because the executor JVM may open no more files:
   * their failures say {@code Too many open files}, the stage and job abort, and the driver exits
   * non-zero.
   */
  public static FaultCheck tooManyOpenFiles() {
    return run -> {
      LogFacts f = run.facts();
      List<LogFacts.Task> failures = f.failedTasks().stream()
          .filter(t -> "ExceptionFailure".equals(t.reason()) && !"driver".equals(t.executorId())
              && failureText(t).contains("Too many open files"))
          .toList();
      require(!failures.isEmpty(), "no task on an executor failed with 'Too many open files'; failures: %s",
          f.failedTasks().stream().map(t -> t.reason() + " " + firstLine(t.message())).distinct().toList());
      LogFacts.Task first = failures.get(0);
      String stageFailure = stageFailure(f, first.stageId());
      require(stageFailure != null && stageFailure.contains("Too many open files"),
          "stage %d did not abort with 'Too many open files': %s", first.stageId(), firstLine(stageFailure));
      String jobResult = jobResultOfStage(f, first.stageId());
      require("JobFailed".equals(jobResult), "expected the job to abort, but its result is %s", jobResult);
      require(run.driverExitCode() != 0, "the driver exited with 0");
      Map<Integer, Long> byPartition = failures.stream().filter(t -> t.stageId() == first.stageId())
          .collect(Collectors.groupingBy(LogFacts.Task::index, TreeMap::new, Collectors.counting()));
      LogFacts.StageAttempt stage = f.stage(first.stageId(), first.stageAttempt());
      String executorLog = run.executorLogs().getOrDefault(first.executorId(), "");
      return Findings.builder()
          .stages(List.of(first.stageId()))
          .partition(first.index())
          .executor(first.executorId())
          .evidence("exceptionClass", first.exceptionClass())
          // The shuffle file's directory is the run's own temporary one: only its name is kept.
          .evidence("message", firstLine(first.message()).replaceAll("/\\S*/", "<dir>/"))
          .evidence("failedAttemptsByPartition", byPartition)
          .evidence("stageFailureReason", firstLine(stageFailure).replaceAll("/\\S*/", "<dir>/"))
          .evidence("jobResult", jobResult)
          .evidence("executorLogShowsIt", executorLog.contains("Too many open files"))
          .evidence("driverExitCode", run.driverExitCode())
          .measured("openFileFailures", failures.size())
          .measured("stageTasks", stage == null ? 0 : stage.numTasks())
          .build();
    };
  }

  /**
   * The cluster never grants the application an executor: a job starts but none of its tasks
   * ever runs, no executor is added, the driver keeps warning {@code Initial job has not accepted
   * any resources}, and the application gives up and exits non-zero.
   */
  public static FaultCheck executorsNotGranted(int minWarnings) {
    return run -> {
      LogFacts f = run.facts();
      require(f.executors().values().stream().noneMatch(e -> !"driver".equals(e.id())),
          "executors were added: %s", f.executors().keySet());
      require(!f.jobsStarted().isEmpty(), "no job started, so none waited for executors");
      require(f.tasks().isEmpty(), "%d tasks ran", f.tasks().size());
      String warning = "Initial job has not accepted any resources";
      long warnings = run.driverStderr().lines().filter(l -> l.contains(warning)).count();
      require(warnings >= minWarnings, "the driver log has %d '%s' warnings, expected %d or more", warnings,
          warning, minWarnings);
      require(run.driverExitCode() != 0, "the driver exited with 0");
      String line = lineContaining(run.driverStderr(), warning);
      List<Integer> waiting = f.stages().stream().map(LogFacts.StageAttempt::stageId).distinct().sorted().toList();
      long firstJob = f.jobs().stream().mapToLong(LogFacts.Job::submitted).filter(t -> t >= 0).min().orElse(-1);
      long waitedMs = f.jobs().stream().mapToLong(LogFacts.Job::completed).max().orElse(-1) - firstJob;
      return Findings.builder()
          .evidence("driverLogLine", line.replaceFirst("^\\d{2}/\\d{2}/\\d{2} \\d{2}:\\d{2}:\\d{2} ", ""))
          .evidence("waitingStageIds", waiting)
          .evidence("jobResults", f.jobs().stream().map(LogFacts.Job::result).distinct().toList())
          .evidence("jobFailure", f.jobs().stream().map(LogFacts.Job::failureMessage).filter(Objects::nonNull)
              .map(FaultChecks::firstLine).findFirst().orElse(null))
          .evidence("executorMemory", f.sparkProperties().getOrDefault("spark.executor.memory", "(default)"))
          .evidence("master", f.sparkProperties().get("spark.master"))
          .evidence("driverExitCode", run.driverExitCode())
          .measured("warnings", warnings)
          .measured("executorsAdded", 0)
          .measured("jobWaitedMs", firstJob < 0 ? -1 : waitedMs)
          .build();
    };
  }

  /**
   * A streaming query restarted on its checkpoint fails because the checkpoint's state does not
   * fit the changed query: an earlier run of the same query id ended normally, and a later run
   * terminated with an exception saying one of {@code signatures} (Spark's state schema checks);
   * the driver exits non-zero.
   */
  public static FaultCheck streamingCheckpointIncompatible(String... signatures) {
    return run -> {
      LogFacts f = run.facts();
      LogFacts.StreamingQueryRun failed = f.streamingQueries().stream()
          .filter(q -> q.exception() != null).findFirst().orElse(null);
      require(failed != null, "no streaming query terminated with an exception; runs: %s", f.streamingQueries());
      LogFacts.StreamingQueryRun earlier = f.streamingQueries().stream()
          .filter(q -> q.id().equals(failed.id()) && !q.runId().equals(failed.runId()) && q.terminated()
              && q.exception() == null && q.batches() > 0)
          .findFirst().orElse(null);
      require(earlier != null, "no earlier run of query %s processed a batch and ended normally: the failed run"
          + " was not a restart on its checkpoint", failed.id());
      String matched = null;
      for (String s : signatures) {
        if (failed.exception().contains(s)) {
          matched = s;
          break;
        }
      }
      require(matched != null, "the query's exception says none of %s: %s", List.of(signatures),
          firstLine(failed.exception()));
      require(run.driverExitCode() != 0, "the driver exited with 0");
      // Where the state store checks the schema in a task (Spark 3.5), the failing task is the culprit.
      String found = matched;
      LogFacts.Task task = f.failedTasks().stream().filter(t -> failureText(t).contains(found)).findFirst().orElse(null);
      String text = failed.exception();
      List<String> schemaLines = new ArrayList<>();
      Matcher schemaLine = STATE_SCHEMA_LINE.matcher(text);
      while (schemaLine.find()) {
        schemaLines.add(schemaLine.group().strip());
      }
      return Findings.builder()
          .stages(task == null ? List.of() : List.of(task.stageId()))
          .partition(task == null ? null : task.index())
          .executor(task == null ? null : task.executorId())
          .evidence("queryId", failed.id())
          .evidence("queryName", failed.name())
          .evidence("signature", matched)
          .evidence("exception", firstLine(text))
          .evidence("errorClass", failed.errorClass())
          .evidence("stateSchemaLines", schemaLines)
          .evidence("earlierRunBatches", earlier.batches())
          .evidence("failedTaskClass", task == null ? null : task.exceptionClass())
          .evidence("driverExitCode", run.driverExitCode())
          .measured("queryRuns", f.streamingQueries().size())
          .measured("failedTasks", f.failedTasks().size())
          .build();
    };
  }

  /** Numbers every label carries, whatever the scenario. */
  public static Map<String, Object> summary(LogFacts f) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Long> ok = f.tasks().stream().filter(LogFacts.Task::succeeded).map(LogFacts.Task::durationMs).toList();
    long run = f.tasks().stream().mapToLong(LogFacts.Task::runTimeMs).sum();
    long gc = f.tasks().stream().mapToLong(LogFacts.Task::gcTimeMs).sum();
    m.put("appDurationMs", f.appDurationMs());
    m.put("jobs", f.jobs().size());
    m.put("failedJobs", f.jobs().stream().filter(j -> !"JobSucceeded".equals(j.result())).count());
    m.put("stageAttempts", f.stages().size());
    m.put("failedStageAttempts", f.stages().stream().filter(s -> s.failureReason() != null).count());
    m.put("tasks", f.tasks().size());
    m.put("failedTasks", f.failedTasks().size());
    m.put("executorsAdded", f.executors().size());
    m.put("executorsRemoved", f.executors().values().stream().filter(e -> e.removedReason() != null).count());
    m.put("maxTaskDurationMs", Stats.max(ok));
    m.put("medianTaskDurationMs", Stats.median(ok));
    m.put("taskRunTimeMs", run);
    m.put("taskGcTimeMs", gc);
    m.put("gcRatio", Stats.ratio(gc, run));
    m.put("memoryBytesSpilled", f.tasks().stream().mapToLong(LogFacts.Task::memorySpilled).sum());
    m.put("diskBytesSpilled", f.tasks().stream().mapToLong(LogFacts.Task::diskSpilled).sum());
    m.put("sqlExecutions", f.sql().size());
    m.put("eventLogLines", f.lines());
    return m;
  }

  // ---------------------------------------------------------------- helpers

  static void require(boolean ok, String fmt, Object... args) throws FaultNotShownException {
    if (!ok) {
      throw new FaultNotShownException(String.format(java.util.Locale.ROOT, fmt, args));
    }
  }

  private static LogFacts requireBaseline(RunEvidence run) throws FaultNotShownException {
    require(run.baseline() != null, "this scenario needs its baseline run, which is missing");
    return run.baseline();
  }

  /**
   * No job, stage or task in the log, a non-zero exit, and {@code Exception in thread "main"} in
   * the driver log: the start of every check of a driver that failed before its first job.
   */
  private static Findings.Builder driverFailedBeforeAnyJob(RunEvidence run) throws FaultNotShownException {
    LogFacts f = run.facts();
    require(f.jobs().isEmpty() && f.stages().isEmpty() && f.tasks().isEmpty(),
        "the log has %d jobs, %d stages, %d tasks; expected none", f.jobs().size(), f.stages().size(), f.tasks().size());
    require(run.driverExitCode() != 0, "the driver exited with 0");
    Matcher m = MAIN_EXCEPTION.matcher(run.driverStderr());
    require(m.find(), "the driver log has no 'Exception in thread \"main\"' line");
    return Findings.builder()
        .evidence("exceptionClass", m.group(1))
        .evidence("message", m.group(2))
        .evidence("driverExitCode", run.driverExitCode())
        .evidence("eventLogHasApplicationEnd", f.endTime() >= 0);
  }

  /**
   * The driver's uncaught exception: from its {@code Exception in thread "main"} line to the end of
   * its stack trace (the first line that is neither a frame, a cause nor an indented
   * continuation), or "" when there is none.
   */
  static String mainTrace(String driverStderr) {
    int at = driverStderr.indexOf("Exception in thread \"main\" ");
    if (at < 0) {
      return "";
    }
    String[] lines = driverStderr.substring(at + "Exception in thread \"main\" ".length()).split("\n");
    StringBuilder sb = new StringBuilder(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      String l = lines[i];
      if (TRACE_END.matcher(l).find()) {
        break;
      }
      sb.append('\n').append(l);
    }
    return sb.toString();
  }

  /** The message of the first {@code Caused by: <cls>: message} of a trace (or the class alone). */
  private static String causeOfClass(String trace, String cls) {
    for (String line : trace.split("\n")) {
      String l = line.strip();
      if (l.startsWith("Caused by: " + cls)) {
        String rest = l.substring(("Caused by: " + cls).length());
        return rest.startsWith(": ") ? rest.substring(2) : cls;
      }
    }
    return null;
  }

  /** A failed task's description and full stack trace, where its cause chain is. */
  private static String failureText(LogFacts.Task t) {
    return String.valueOf(t.message()) + "\n" + t.endReason().path("Full Stack Trace").asText("");
  }

  /** The first line of {@code text} containing {@code needle}, stripped, or null. */
  private static String lineContaining(String text, String needle) {
    for (String line : text.split("\n")) {
      if (line.contains(needle)) {
        return line.strip();
      }
    }
    return null;
  }

  private static long executorsExited(LogFacts f) {
    return f.executors().values().stream().filter(e -> e.removedReason() != null
        && e.removedReason().contains("exited")).count();
  }

  /** The jobs' [submitted, completed] intervals, sorted and merged where they overlap. */
  private static List<long[]> jobIntervals(LogFacts f) {
    List<long[]> all = f.jobs().stream().filter(j -> j.submitted() >= 0 && j.completed() >= 0)
        .map(j -> new long[] {j.submitted(), j.completed()})
        .sorted(Comparator.comparingLong(iv -> iv[0])).toList();
    List<long[]> merged = new ArrayList<>();
    for (long[] iv : all) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && iv[0] <= last[1]) {
        last[1] = Math.max(last[1], iv[1]);
      } else {
        merged.add(new long[] {iv[0], iv[1]});
      }
    }
    return merged;
  }

  static Integer exitCode(String reason) {
    if (reason == null) {
      return null;
    }
    Matcher m = EXIT_CODE.matcher(reason);
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }

  /** The innermost "Caused by:" line of a stack trace, without the prefix, or null. */
  private static String lastCause(String trace) {
    String cause = null;
    for (String line : trace.split("\n")) {
      if (line.startsWith("Caused by: ")) {
        cause = line.substring("Caused by: ".length());
      }
    }
    return cause;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return null;
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String jobResultOfStage(LogFacts f, int stageId) {
    return f.jobs().stream().filter(j -> j.stageIds().contains(stageId)).map(LogFacts.Job::result)
        .findFirst().orElse(null);
  }

  private static String stageFailure(LogFacts f, int stageId) {
    return f.stages().stream().filter(s -> s.stageId() == stageId && s.failureReason() != null)
        .map(LogFacts.StageAttempt::failureReason).findFirst().orElse(null);
  }

  private static List<Integer> stagesOfExecution(LogFacts f, long executionId) {
    Set<Integer> ran = f.stages().stream().map(LogFacts.StageAttempt::stageId).collect(Collectors.toSet());
    return f.jobs().stream().filter(j -> Objects.equals(j.sqlExecutionId(), executionId))
        .flatMap(j -> j.stageIds().stream()).filter(ran::contains).distinct().sorted().toList();
  }

  /** Sum of the jobs' durations (submission to completion). */
  private static long jobTime(LogFacts f) {
    return f.jobs().stream().mapToLong(LogFacts.Job::durationMs).sum();
  }

  private static long taskRunTime(LogFacts f) {
    return f.tasks().stream().mapToLong(LogFacts.Task::runTimeMs).sum();
  }

  /** Sum of the leaf scans' "number of output rows" of every SQL execution. */
  static long inputRows(LogFacts f) {
    Set<Long> seen = new TreeSet<>();
    long total = 0;
    for (LogFacts.SqlExecution x : f.sql().values()) {
      for (JsonNode leaf : leaves(x.planInfos().get(x.planInfos().size() - 1), new ArrayList<>())) {
        long id = rowsAccumulator(leaf);
        if (id >= 0 && seen.add(id)) {
          total += f.accumulators().getOrDefault(id, 0L);
        }
      }
    }
    return total;
  }

  private static long leafRows(JsonNode subtree, Map<Long, Long> acc) {
    long total = 0;
    for (JsonNode leaf : leaves(subtree, new ArrayList<>())) {
      long id = rowsAccumulator(leaf);
      if (id >= 0) {
        total += acc.getOrDefault(id, 0L);
      }
    }
    return total;
  }

  private static long rowsAccumulator(JsonNode node) {
    for (JsonNode m : node.path("metrics")) {
      if ("number of output rows".equals(m.path("name").asText())) {
        return m.path("accumulatorId").asLong();
      }
    }
    return -1;
  }

  private static List<JsonNode> leaves(JsonNode node, List<JsonNode> out) {
    JsonNode children = node.path("children");
    if (!children.isArray() || children.isEmpty()) {
      out.add(node);
    } else {
      children.forEach(c -> leaves(c, out));
    }
    return out;
  }

  private static JsonNode findNode(JsonNode node, String name) {
    if (name.equals(node.path("nodeName").asText())) {
      return node;
    }
    for (JsonNode c : node.path("children")) {
      JsonNode hit = findNode(c, name);
      if (hit != null) {
        return hit;
      }
    }
    return null;
  }

  private static Map<String, List<String>> settingsDiff(LogFacts base, LogFacts run) {
    Map<String, List<String>> diff = new TreeMap<>();
    for (String k : COMPARED_SETTINGS) {
      String a = base.sparkProperties().get(k);
      String b = run.sparkProperties().get(k);
      if (!Objects.equals(a, b)) {
        diff.put(k, java.util.Arrays.asList(a, b));
      }
    }
    return diff;
  }

  private record StageTasks(LogFacts.StageAttempt stage, List<LogFacts.Task> tasks) {
    long median() {
      return Stats.median(tasks.stream().map(LogFacts.Task::durationMs).toList());
    }

    LogFacts.Task max() {
      return tasks.stream().max(Comparator.comparingLong(LogFacts.Task::durationMs)).orElseThrow();
    }

    double ratio() {
      return Stats.ratio(max().durationMs(), Math.max(median(), 1));
    }
  }
}

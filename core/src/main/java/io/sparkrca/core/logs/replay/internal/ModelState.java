package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.StackTrace;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.logs.replay.LogOutcome;
import io.sparkrca.core.logs.replay.LogProvenance;
import io.sparkrca.core.logs.replay.LoggedException;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.redaction.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Everything the logs said about one application, as the line handlers fill it: the application,
 * its jobs, stage attempts and their tasks, executors, events and errors, and the sections read.
 * Bounded: task rows per stage attempt, events and error groups are capped, and what was not kept
 * is counted.
 *
 * <pre>{@code
 * ModelState m = new ModelState(100_000);
 * StageState s = m.stage(3, 0);
 * }</pre>
 */
final class ModelState {
  static final int MAX_EVENTS = 10_000;
  static final int MAX_EXCEPTION_GROUPS = 500;

  final int maxTaskRowsPerStage;

  // The application.
  String appId;
  String appName;
  String sparkVersion;
  String sparkUser;
  String master;
  String attemptId;
  String javaVersion;
  long start = TimeParser.NO_TIME;
  long end = TimeParser.NO_TIME;
  /** The last time a driver's line carried. */
  long lastSeen = TimeParser.NO_TIME;
  boolean contextStopped;
  boolean shutdownHook;
  /** What SparkContext said it stopped with ({@code SparkContext is stopping with exitCode 0}). */
  Integer exitCode;
  /** What a cluster manager's final status said ({@code Final app status: FAILED, exitCode: 15}). */
  Integer finalExitCode;
  LogOutcome.Status status;
  String statusReason = "";
  LogProvenance statusAt;
  /** A cluster manager's final status (YARN's application master, spark-submit's report): it outranks the driver's own lines. */
  boolean finalStatus;
  /** Properties logged with {@code spark.logConf}, in log order, or null. */
  List<Map.Entry<String, String>> sparkProperties;

  // Jobs and stages.
  final TreeMap<Integer, JobState> jobs = new TreeMap<>();
  final TreeMap<Long, StageState> stages = new TreeMap<>();
  final Map<Integer, StageState> latest = new HashMap<>();
  int maxStageId = -1;

  // Executors.
  final LinkedHashMap<String, ExecutorState> executors = new LinkedHashMap<>();
  final Map<String, String> containerToExecutor = new HashMap<>();
  /** The container of the last {@code Completed container} line, whose reason the next line may give. */
  String lastCompletedContainer;

  // Events and errors.
  final List<LogEvent> events = new ArrayList<>();
  long eventsDropped;
  final LinkedHashMap<String, ExceptionGroup> exceptions = new LinkedHashMap<>();
  long exceptionsDropped;

  /** Hosts, executor ids and localities of task rows, numbered. */
  private final BytesPool strings = new BytesPool();

  final List<Section> sections = new ArrayList<>();
  long droppedTaskRows;
  /** Spill that no stage could be named for, in bytes (rounded as the lines round them). */
  long unattributedSpill;
  long spillLines;

  ModelState(int maxTaskRowsPerStage) {
    this.maxTaskRowsPerStage = maxTaskRowsPerStage;
  }

  int string(String s) {
    return s == null ? -1 : strings.id(s);
  }

  /** The id of the text {@code b[from, to)}, or -1 for an empty range. */
  int string(byte[] b, int from, int to) {
    return to <= from ? -1 : strings.id(b, from, to);
  }

  String string(int id) {
    return strings.string(id);
  }

  LogProvenance at(Section s, long line) {
    return new LogProvenance(s.log, line);
  }

  LogProvenance at(int section, long line) {
    return section < 0 ? null : new LogProvenance(sections.get(section).log, line);
  }

  // ------------------------------------------------------------------ stages

  StageState stage(int stageId, int attempt) {
    return stages.get(StageState.key(stageId, attempt));
  }

  /** The newest attempt of a stage, created (attempt 0, pending) when the stage is new. */
  StageState latestOrNew(int stageId) {
    StageState s = latest.get(stageId);
    if (s == null) {
      s = new StageState(stageId, 0);
      put(s);
    }
    return s;
  }

  /** The attempt a submission starts: the pending one nobody launched yet, or the next. */
  StageState submitted(int stageId) {
    StageState s = latest.get(stageId);
    if (s != null && !s.launched && s.status == StageStatus.PENDING) {
      return s;
    }
    StageState next = new StageState(stageId, s == null ? 0 : s.attempt + 1);
    next.kind = s == null ? "" : s.kind;
    next.name = s == null ? "" : s.name;
    next.jobIds.addAll(s == null ? List.of() : s.jobIds);
    put(next);
    return next;
  }

  /** Moves a stage attempt to the attempt number a line gives ({@code Adding task set 1.1}). */
  StageState renumber(StageState s, int attempt) {
    if (s.attempt == attempt) {
      return s;
    }
    StageState other = stage(s.stageId, attempt);
    if (other != null && other != s) {
      return other; // already known under that number
    }
    stages.remove(StageState.key(s.stageId, s.attempt));
    s.attempt = attempt;
    put(s);
    return s;
  }

  private void put(StageState s) {
    stages.put(StageState.key(s.stageId, s.attempt), s);
    StageState l = latest.get(s.stageId);
    if (l == null || l.attempt <= s.attempt) {
      latest.put(s.stageId, s);
    }
    maxStageId = Math.max(maxStageId, s.stageId);
  }

  /** The running (latest, unended) attempt of a stage, or the attempt a task line names. */
  StageState taskStage(int stageId, int attempt) {
    StageState s = stage(stageId, attempt);
    if (s == null) {
      StageState l = latest.get(stageId);
      if (l != null && !l.launched && l.status == StageStatus.PENDING) {
        s = renumber(l, attempt); // the log lacked the submission: the task line numbers the attempt
      } else {
        s = new StageState(stageId, attempt);
        if (l != null) {
          s.kind = l.kind;
          s.name = l.name;
          s.jobIds.addAll(l.jobIds);
        }
        put(s);
      }
      s.launched = true;
      if (s.status == StageStatus.PENDING) {
        s.status = StageStatus.ACTIVE;
      }
    }
    return s;
  }

  // ------------------------------------------------------------------ executors

  ExecutorState executor(String id) {
    return executors.computeIfAbsent(id, ExecutorState::new);
  }

  // ------------------------------------------------------------------ events and errors

  void event(LogEvent.Kind kind, String executorId, long time, String message, Integer exitCode, Long bytes,
      Integer stageId, Section s, long line) {
    if (events.size() >= MAX_EVENTS) {
      eventsDropped++;
      return;
    }
    events.add(new LogEvent(kind, Optional.ofNullable(executorId), instant(time), Redactor.standard().redactText(message),
        exitCode == null ? OptionalInt.empty() : OptionalInt.of(exitCode),
        bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes),
        stageId == null ? OptionalInt.empty() : OptionalInt.of(stageId), at(s, line)));
  }

  /** An error record, folded with those of the same emitter, headline and exception chain. */
  void exception(Section s, String level, String emitter, long time, String headline, String text, long line) {
    StackTrace trace = StackTrace.parse(text);
    String key = emitter + '\u0000' + headline + '\u0000' + trace.chain().stream()
        .map(e -> e.className() + ":" + e.message()).reduce("", (a, b) -> a + "|" + b);
    ExceptionGroup g = exceptions.get(key);
    if (g == null) {
      if (exceptions.size() >= MAX_EXCEPTION_GROUPS) {
        exceptionsDropped++;
        return;
      }
      g = new ExceptionGroup(level, emitter, s.isExecutor() ? s.executorId : null, time,
          Redactor.standard().redactText(headline), trace, text, at(s, line));
      exceptions.put(key, g);
    }
    g.count++;
  }

  static Optional<Instant> instant(long millis) {
    return millis == TimeParser.NO_TIME ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
  }

  /** Errors that repeat, folded. */
  static final class ExceptionGroup {
    final String level;
    final String emitter;
    final String executorId;
    final long time;
    final String headline;
    final StackTrace trace;
    final String text;
    final LogProvenance at;
    long count;

    ExceptionGroup(String level, String emitter, String executorId, long time, String headline, StackTrace trace,
        String text, LogProvenance at) {
      this.level = level;
      this.emitter = emitter;
      this.executorId = executorId;
      this.time = time;
      this.headline = headline;
      this.trace = trace;
      this.text = text;
      this.at = at;
    }

    LoggedException toApi() {
      return new LoggedException(level, emitter, Optional.ofNullable(executorId), instant(time), headline, trace, text,
          count, at);
    }
  }
}

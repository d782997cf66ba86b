package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.internal.LogClassifier;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.redaction.Redactor;
import java.util.List;
import java.util.Optional;

/**
 * Builds the application from records: each record goes to the handler of its emitter ({@link
 * StageLines}, {@link TaskLines}, {@link ExecutorLines}, {@link AppLines}, and here spill,
 * writes, fetches and adaptive execution); records at ERROR, and WARNs with a stack trace, that
 * no handler took become the application's exceptions. Lines no handler reads are skipped by the
 * reader ({@link #literals()}).
 *
 * <pre>{@code
 * Reconstructor r = new Reconstructor(new ModelState(100_000));
 * new LogFileReader(r, 1 << 20, ZoneOffset.UTC).read(source, List.of());
 * }</pre>
 */
final class Reconstructor implements RecordSink {
  private static final List<String> LITERALS = List.of(
      "Scheduler", "TaskSetManager", "xecutor", "Client", "SparkContext", "ApplicationMaster",
      "YarnAllocator", "HeartbeatReceiver", "Registering block manager", "Shutdown hook called",
      "Changing view acls to", "Logging events to", "Connected to Spark cluster", "Connecting to master",
      "has started running", "Submitting application", "Application report for", "(phase: ", "spilling",
      "FileFormatWriter", "SparkHadoopMapRedUtil", "ShuffleBlockFetcherIterator", "OptimizeSkewedJoin",
      "ShufflePartitionsUtil", "ecommission", "ERROR", "FATAL", "WARN");
  private static final byte[] SPILLING = Scan.lit(" spilling ");
  private static final byte[] OF = Scan.lit(" of ");
  private static final byte[] TID = Scan.lit("(TID ");
  private static final byte[] FOR_TASK = Scan.lit("for task ");
  private static final byte[] ABORT = Scan.lit("bort");
  private static final byte[] NOT_COMMITTED = Scan.lit("Not committed");
  private static final byte[] FAILED_TO_GET = Scan.lit("Failed to get block");

  private final ModelState m;
  private final Scan c = new Scan();
  private final StageLines stages;
  private final TaskLines tasks;
  private final ExecutorLines executors;
  private final AppLines app;

  Reconstructor(ModelState m) {
    this.m = m;
    this.stages = new StageLines(m);
    this.tasks = new TaskLines(m);
    this.executors = new ExecutorLines(m);
    this.app = new AppLines(m);
  }

  @Override
  public Section section(String log, String name) {
    Section s = new Section(log, name, m.sections.size());
    m.sections.add(s);
    LogClassifier.Classification byName = LogClassifier.classify(name, List.of(), Optional.empty());
    if (byName.role() != LogRole.UNKNOWN) {
      s.role = byName.role();
      s.executorId = byName.executorId().orElse(null);
      s.roleBy = "its name";
    }
    return s;
  }

  @Override
  public List<String> literals() {
    return LITERALS;
  }

  @Override
  public boolean head(Section s, RecordHead h) {
    Pending p = dispatch(s, h);
    if (p == null && (h.isError() || h.level == Levels.WARN)) {
      p = exception(h);
    }
    if (p == null || p == Pending.DONE) {
      return false;
    }
    s.pendingState = p;
    return true;
  }

  @Override
  public void complete(Section s, String continuation) {
    Object p = s.pendingState;
    if (p instanceof Pending pending) {
      pending.complete(s, continuation);
    }
  }

  private Scan message(RecordHead h) {
    return c.set(h.buf, h.msgStart, h.msgEnd);
  }

  private Pending dispatch(Section s, RecordHead h) {
    String e = h.emitter;
    switch (e) {
      case "DAGScheduler":
        return stages.dagScheduler(s, h, message(h));
      case "TaskSetManager":
        return tasks.driver(s, h, message(h));
      case "TaskSchedulerImpl", "YarnScheduler", "YarnClusterScheduler": {
        // the cluster managers' subclasses log under their own names
        Pending p = stages.taskScheduler(s, h, message(h));
        return p != null ? p : executors.taskScheduler(s, h, message(h));
      }
      case "Client":
        return app.yarnClient(s, h, message(h));
      case "Executor": {
        Pending p = executors.executorStart(s, h, message(h));
        return p != null ? p : tasks.executor(s, h, message(h));
      }
      case "SparkContext":
        return app.sparkContext(s, h, message(h));
      case "ApplicationMaster": {
        Pending p = app.applicationMaster(s, h, message(h));
        return p != null ? p : app.application(s, h, message(h));
      }
      case "YarnAllocator":
        return executors.yarnAllocator(s, h, message(h));
      case "HeartbeatReceiver":
        return executors.heartbeat(s, h, message(h));
      case "BlockManagerMasterEndpoint":
        return executors.blockManager(s, h, message(h));
      case "ShutdownHookManager":
        return app.shutdownHook(s, h, message(h));
      case PlainHeader.STDERR:
        return app.stderr(s, h, message(h));
      default:
        return other(s, h, e);
    }
  }

  private Pending other(Section s, RecordHead h, String e) {
    if (e.endsWith("ExecutorBackend")) {
      return executors.executorBackend(s, h, message(h));
    }
    if (e.endsWith("DriverEndpoint") || e.endsWith("SchedulerBackend") || e.endsWith("ClientEndpoint")) {
      Pending p = app.application(s, h, message(h));
      return p != null ? p : executors.backend(s, h, message(h));
    }
    if (e.contains("Sorter") || e.contains("AppendOnly") || e.contains("Spill")) {
      return spill(s, h, message(h));
    }
    if (e.equals("FileFormatWriter") || e.equals("SparkHadoopMapRedUtil") || e.endsWith("Committer")) {
      return write(s, h, message(h));
    }
    if (e.equals("ShuffleBlockFetcherIterator") || e.contains("BlockTransfer") || e.contains("BlockFetcher")) {
      return fetch(s, h, message(h));
    }
    if (e.equals("OptimizeSkewedJoin") || e.equals("ShufflePartitionsUtil") || e.equals("AdaptiveSparkPlanExec")
        || e.equals("CoalesceShufflePartitions")) {
      m.event(LogEvent.Kind.ADAPTIVE_EXECUTION, executorOf(s), h.time, h.message(), null, null, null, s, h.line);
      return Pending.DONE;
    }
    Pending p = app.application(s, h, message(h));
    if (p != null) {
      return p;
    }
    return executors.kubernetes(s, h, message(h));
  }

  /** {@code Thread 65 spilling sort data of 1.2 GiB to disk (1 time so far)}. */
  private Pending spill(Section s, RecordHead h, Scan c) {
    if (!c.find(SPILLING) || !c.find(OF)) {
      return null;
    }
    long bytes = c.size();
    if (bytes < 0) {
      return null;
    }
    long key = taskOfThread(s, h.thread);
    if (key < 0) {
      key = s.running.only(-1); // the executor ran one task: it spilled
    }
    StageState st = key < 0 ? null : m.stages.get(key);
    if (st != null) {
      st.memorySpilled += bytes;
    } else {
      m.unattributedSpill += bytes;
    }
    m.spillLines++;
    m.event(LogEvent.Kind.SPILL, executorOf(s), h.time, h.message(), null, bytes, st == null ? null : st.stageId, s, h.line);
    return Pending.DONE;
  }

  /** The stage key of the task a thread name says it runs ({@code Executor task launch worker for task 4.0 in stage 1.0 (TID 12)}). */
  private long taskOfThread(Section s, String thread) {
    if (thread == null) {
      return -1;
    }
    Scan t = new Scan();
    byte[] b = thread.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    t.set(b, 0, b.length);
    long tid = -1;
    if (t.find(TID)) {
      tid = t.number();
    } else if (t.find(FOR_TASK)) {
      tid = t.number();
    }
    return tid < 0 ? -1 : s.running.get(tid, -1);
  }

  private Pending write(Section s, RecordHead h, Scan c) {
    if (c.indexOf(ABORT, c.pos) >= 0 || c.indexOf(NOT_COMMITTED, c.pos) >= 0) {
      m.event(LogEvent.Kind.WRITE_ABORTED, executorOf(s), h.time, h.message(), null, null, null, s, h.line);
    }
    return null; // errors with their traces also go to the exceptions
  }

  private Pending fetch(Section s, RecordHead h, Scan c) {
    if (c.indexOf(FAILED_TO_GET, c.pos) >= 0 || h.isError()) {
      m.event(LogEvent.Kind.FETCH_FAILURE, executorOf(s), h.time, h.message(), null, null, null, s, h.line);
    }
    return null;
  }

  private static String executorOf(Section s) {
    return s.isExecutor() ? s.executorId : s.role == LogRole.DRIVER ? "driver" : s.executorId;
  }

  /** An error record no handler took: kept when at ERROR, or when its text has a stack trace. */
  private Pending exception(RecordHead h) {
    String message = h.message();
    String level = h.level;
    String emitter = h.emitter;
    long time = h.time;
    long line = h.line;
    boolean error = h.isError();
    return (s, continuation) -> {
      if (error || continuation.contains("\tat ") || continuation.contains("\n\tat ") || continuation.startsWith("Caused by")
          || continuation.contains("Traceback (most recent call last)") || continuation.contains("    at ")) {
        m.exception(s, level, emitter, time, message, Redactor.standard().redactText(Pending.join(message, continuation)), line);
      }
    };
  }
}

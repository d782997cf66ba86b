package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.internal.LogClassifier;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceFiles;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.logs.replay.LogOutcome;
import io.sparkrca.core.logs.replay.LogProvenance;
import io.sparkrca.core.logs.replay.LogRecord;
import io.sparkrca.core.logs.replay.LogSection;
import io.sparkrca.core.logs.replay.LoggedException;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.RuntimeInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The application rebuilt from logs, and how to read it: not an API (see {@link
 * io.sparkrca.core.logs.replay.LogApplication}, which answers through this).
 *
 * <pre>{@code
 * LogModel model = LogModel.read(new LogModel.Settings(ByteSources.defaults(), 1 << 20, 100_000, ZoneOffset.UTC, 10_000, true),
 *     List.of("driver.log", "executor-logs/"));
 * }</pre>
 */
public final class LogModel {
  /**
   * How logs are read.
   *
   * <pre>{@code
   * new LogModel.Settings(ByteSources.defaults(), 1 << 20, 100_000, ZoneOffset.UTC, 10_000, true);
   * }</pre>
   *
   * @param maxLineBytes lines longer than this are cut (and counted)
   * @param maxTaskRowsPerStage task rows kept per stage attempt (failed ones always kept)
   * @param zone the zone of times written without one
   * @param maxFiles the most files read from the directories and globs given
   * @param redact whether the records handed to a caller have their secrets masked
   *     (the model's texts always do)
   */
  public record Settings(ByteSources sources, int maxLineBytes, int maxTaskRowsPerStage, ZoneId zone, int maxFiles,
      boolean redact) {}

  private final ModelState m;
  private final ModelViews views;
  private final String fallbackId;
  private final ZoneId zone;
  private final boolean cutOff;
  private final long unreadable;
  private final ApplicationFacts facts;

  private LogModel(ModelState m, String fallbackId, ZoneId zone, boolean cutOff, long unreadable) {
    this.m = m;
    this.views = new ModelViews(m);
    this.fallbackId = fallbackId;
    this.zone = zone;
    this.cutOff = cutOff;
    this.unreadable = unreadable;
    this.facts = LogFacts.of(m);
  }

  // ------------------------------------------------------------------ reading

  /** Reads the logs at {@code uris} (files, directories, globs, prefixes), the driver's first. */
  public static LogModel read(Settings settings, List<String> uris) {
    List<String> files = files(settings, uris);
    ModelState m = new ModelState(settings.maxTaskRowsPerStage());
    Reconstructor r = new Reconstructor(m);
    LogFileReader reader = new LogFileReader(r, settings.maxLineBytes(), settings.zone());
    boolean cut = false;
    long unreadable = 0;
    for (String uri : files) {
      int before = m.sections.size();
      read(settings, uri, reader, m, before);
      cut |= reader.cutOff;
      unreadable += reader.overlongLines();
    }
    for (Section s : m.sections) {
      unreadable += s.unreadable;
    }
    Finisher.finish(m);
    String first = files.get(0);
    String name = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
    return new LogModel(m, name, settings.zone(), cut, unreadable);
  }

  private static void read(Settings settings, String uri, LogFileReader reader, ModelState m, int before) {
    LogStream stream = LogStream.builder().sources(settings.sources()).redact(false).build(uri);
    ByteSource source = stream.source();
    try {
      reader.read(source, stream.notes());
    } catch (IOException e) {
      SparkRcaException failure = IoErrors.translate(source.name(), e);
      Section first = before < m.sections.size() ? m.sections.get(before) : null;
      if (first == null || m.sections.subList(before, m.sections.size()).stream().allMatch(s -> s.lastLine == 0)) {
        throw failure; // nothing could be read: the caller named a log that cannot be read
      }
      first.notes.add("reading stopped after line " + first.lastLine + ": " + failure.getMessage());
      reader.cutOff = true;
    }
  }

  /** Hands each record of the log at {@code uri} to {@code visitor}, until it returns false; the sections read. */
  public static List<LogSection> forEachRecord(Settings settings, String uri, Predicate<LogRecord> visitor) {
    RecordCollector collector = new RecordCollector(visitor, settings.redact());
    LogStream stream = LogStream.builder().sources(settings.sources()).redact(false).build(uri);
    try {
      new LogFileReader(collector, settings.maxLineBytes(), settings.zone()).read(stream.source(), stream.notes());
    } catch (RecordCollector.Stop stop) {
      // the visitor had what it wanted
    } catch (IOException e) {
      throw IoErrors.translate(stream.source().name(), e);
    }
    return collector.sections().stream().map(Section::describe).toList();
  }

  /** The files named, driver logs (by name) first: executors' lines then fill in what the driver's lack. */
  private static List<String> files(Settings settings, List<String> uris) {
    if (uris.isEmpty()) {
      throw new InvalidRequestException("no log given: name the driver's log (spark-submit's output, a driver pod's "
          + "log, yarn logs output), executors' logs, or directories holding them");
    }
    SourceFiles.Listing listing = SourceFiles.expand(settings.sources(), uris, settings.maxFiles(), 4);
    if (!listing.problems().isEmpty()) {
      SourceFiles.Problem p = listing.problems().get(0);
      throw p.cause().orElseGet(() -> new InputNotFoundException(p.uri(), p.message()
          + "; check the path, or name the log files themselves"));
    }
    List<String> files = new ArrayList<>(listing.files());
    files.sort(Comparator.comparingInt(LogModel::readingOrder));
    return files;
  }

  private static int readingOrder(String uri) {
    LogRole role = LogClassifier.classify(uri, List.of(), Optional.empty()).role();
    return role == LogRole.DRIVER ? 0 : role == LogRole.UNKNOWN ? 1 : 2;
  }

  // ------------------------------------------------------------------ application

  public String appId() {
    return m.appId != null ? m.appId : fallbackId;
  }

  public ApplicationInfo info() {
    return new ApplicationInfo(appId(), m.appName == null ? "" : m.appName, Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), List.of(attempt()));
  }

  private ApplicationAttemptInfo attempt() {
    boolean done = Finisher.completed(m);
    long start = m.start == TimeParser.NO_TIME ? 0 : m.start;
    long end = done && m.end != TimeParser.NO_TIME ? m.end : -1;
    long updated = m.end != TimeParser.NO_TIME ? m.end : m.lastSeen != TimeParser.NO_TIME ? m.lastSeen : start;
    return new ApplicationAttemptInfo(attemptId(), Instant.ofEpochMilli(start), Instant.ofEpochMilli(end),
        Instant.ofEpochMilli(updated), end >= 0 ? end - start : 0, m.sparkUser == null ? "" : m.sparkUser, done,
        sparkVersion());
  }

  public Optional<String> attemptId() {
    return Optional.ofNullable(m.attemptId);
  }

  public String sparkVersion() {
    return m.sparkVersion == null ? "" : m.sparkVersion;
  }

  public Optional<String> master() {
    return Optional.ofNullable(m.master);
  }

  public LogOutcome outcome() {
    // SparkContext's code is 0 when a shutdown hook stopped it after main threw: only a success keeps it.
    Integer code = m.finalExitCode != null ? m.finalExitCode : m.status == LogOutcome.Status.SUCCEEDED ? m.exitCode : null;
    return new LogOutcome(m.status, Optional.ofNullable(code), m.statusReason,
        m.end == TimeParser.NO_TIME ? Optional.empty() : Optional.of(Instant.ofEpochMilli(m.end)),
        Optional.ofNullable(m.statusAt));
  }

  // ------------------------------------------------------------------ jobs, stages, tasks

  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    List<JobData> out = new ArrayList<>();
    for (JobState j : m.jobs.descendingMap().values()) {
      if (statuses.isEmpty() || statuses.contains(j.status)) {
        out.add(views.job(j));
      }
    }
    return out;
  }

  public Optional<JobData> job(int jobId) {
    JobState j = m.jobs.get(jobId);
    return j == null ? Optional.empty() : Optional.of(views.job(j));
  }

  public List<StageData> stages(StageQuery q) {
    List<StageData> out = new ArrayList<>();
    for (StageState st : m.stages.values()) {
      if (ModelViews.matches(st, q.statuses())) {
        out.add(views.stage(st, q));
      }
    }
    Collections.reverse(out);
    return out;
  }

  public List<StageData> stageAttempts(int stageId, StageQuery q) {
    List<StageData> out = new ArrayList<>();
    for (StageState st : m.stages.subMap(StageState.key(stageId, 0), StageState.key(stageId + 1, 0)).values()) {
      out.add(views.stage(st, q));
    }
    return out;
  }

  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery q) {
    StageState st = m.stage(stageId, attemptId);
    return st == null ? Optional.empty() : Optional.of(views.stage(st, q));
  }

  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery q) {
    StageState st = m.stage(stageId, attemptId);
    return st == null ? List.of() : views.tasks(st, q);
  }

  public List<ExecutorSummary> executors(boolean activeOnly) {
    List<ExecutorSummary> out = new ArrayList<>();
    for (ExecutorState e : m.executors.values()) {
      if (!activeOnly || e.active) {
        out.add(views.executor(e));
      }
    }
    return out;
  }

  public Optional<ApplicationEnvironmentInfo> environment() {
    if (m.sparkProperties == null) {
      return Optional.empty();
    }
    List<Map.Entry<String, String>> props = new ArrayList<>(m.sparkProperties);
    props.sort(Map.Entry.comparingByKey());
    return Optional.of(new ApplicationEnvironmentInfo(new RuntimeInfo(Optional.ofNullable(m.javaVersion), Optional.empty(),
        Optional.empty()), props, List.of(), List.of(), List.of(), List.of(), List.of()));
  }

  public ApplicationFacts facts() {
    return facts;
  }

  // ------------------------------------------------------------------ provenance

  /** Where a job starts ({@code Got job}) and ends ({@code Job N finished/failed}). */
  public Optional<LogProvenance.Span> jobLines(int jobId) {
    JobState j = m.jobs.get(jobId);
    return j == null ? Optional.empty() : Optional.of(span(j.section, j.line, j.endSection, j.endLine));
  }

  /** Where a stage attempt was submitted and where it ended. */
  public Optional<LogProvenance.Span> stageLines(int stageId, int attemptId) {
    StageState st = m.stage(stageId, attemptId);
    return st == null ? Optional.empty() : Optional.of(span(st.submittedSection, st.submittedLine, st.endedSection, st.endedLine));
  }

  /** Where a task attempt was launched and where it ended. */
  public Optional<LogProvenance.Span> taskLines(long taskId) {
    for (StageState st : m.stages.values()) {
      int r = st.tasks.find(taskId);
      if (r >= 0) {
        TaskTable t = st.tasks;
        return Optional.of(span(t.startSection[r], t.startLine[r], t.endSection[r], t.endLine[r]));
      }
    }
    return Optional.empty();
  }

  /** Where an executor was added and where it was removed. */
  public Optional<LogProvenance.Span> executorLines(String id) {
    ExecutorState e = m.executors.get(id);
    return e == null ? Optional.empty() : Optional.of(span(e.addSection, e.addLine, e.removeSection, e.removeLine));
  }

  private LogProvenance.Span span(int startSection, long startLine, int endSection, long endLine) {
    return new LogProvenance.Span(Optional.ofNullable(m.at(startSection, startLine)), Optional.ofNullable(m.at(endSection, endLine)));
  }

  // ------------------------------------------------------------------ what was read

  public List<LogSection> sections() {
    return m.sections.stream().map(Section::describe).toList();
  }

  public List<LogEvent> events() {
    return List.copyOf(m.events);
  }

  public List<LoggedException> exceptions() {
    return m.exceptions.values().stream().map(ModelState.ExceptionGroup::toApi).toList();
  }

  public Completeness completeness() {
    List<String> notes = new ArrayList<>();
    long read = m.sections.stream().filter(s -> s.records > 0).count();
    notes.add("rebuilt from " + read + " log" + (read == 1 ? "" : "s") + " of the application, not from its event log: "
        + describeLogs());
    notes.add("what logs do not show: task metrics (CPU, GC, input, output and shuffle bytes and records), spill other "
        + "than what spill lines say, SQL executions and plans, RDD storage, accumulators"
        + (m.sparkProperties == null ? ", the environment (spark.logConf was off)" : ""));
    notes.add("task durations are the driver's 'Finished task ... in N ms'; times come from the lines' headers (log4j's "
        + "default layout has whole seconds), read in " + (zone.normalized().equals(java.time.ZoneOffset.UTC) ? "UTC" : zone.getId())
        + " where a line has no zone");
    if (m.spillLines > 0) {
      notes.add(m.spillLines + " spill line" + (m.spillLines == 1 ? "" : "s") + " read; spill sizes are rounded as the "
          + "lines round them" + (m.unattributedSpill > 0 ? "; " + m.unattributedSpill
          + " bytes of it could not be tied to a stage (several tasks ran at once)" : ""));
    }
    if (m.droppedTaskRows > 0) {
      notes.add(m.droppedTaskRows + " task rows were not kept (at most " + m.maxTaskRowsPerStage + " per stage attempt; "
          + "failed tasks always kept): counts and durations stay exact, task lists cover the rows kept");
    }
    if (m.eventsDropped > 0) {
      notes.add(m.eventsDropped + " events past the first " + ModelState.MAX_EVENTS + " were not kept");
    }
    if (m.exceptionsDropped > 0) {
      notes.add(m.exceptionsDropped + " errors past " + ModelState.MAX_EXCEPTION_GROUPS + " distinct ones were not kept");
    }
    boolean ended = Finisher.completed(m);
    if (!ended) {
      notes.add("the driver's log does not show the application ending: " + m.statusReason);
    }
    for (Section s : m.sections) {
      for (String n : s.notes) {
        notes.add(s.name + ": " + n);
      }
    }
    return new Completeness(cutOff || !ended, unreadable, m.droppedTaskRows, notes);
  }

  private String describeLogs() {
    List<String> parts = new ArrayList<>();
    for (Section s : m.sections) {
      if (s.records == 0) {
        continue;
      }
      String who = s.role == LogRole.DRIVER ? "driver" : s.role == LogRole.EXECUTOR
          ? "executor " + (s.executorId == null ? "?" : s.executorId) : "unknown role";
      parts.add(Redactor.redactUri(s.name) + " (" + who + ", " + s.wrapper + s.layout + ")");
      if (parts.size() == 20) {
        parts.add("...");
        break;
      }
    }
    return String.join("; ", parts);
  }
}

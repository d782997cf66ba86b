package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.logs.replay.LogReplayProvider;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.replay.LogApplication;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.logs.replay.LogOutcome;
import io.sparkrca.core.logs.replay.LogProvenance;
import io.sparkrca.core.logs.replay.LogReplay;
import io.sparkrca.core.logs.replay.internal.LogModel;
import io.sparkrca.core.model.StageStatus;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.core.logs.replay}, compiled (see {@link JavadocExamplesTest}). */
class LogsReplayExamples {
  /** Stand-in for the caller's own code that the example of {@code LogProvenance.Span} calls. */
  private static void cite(String where) {}

  /** The example of {@code LogApplication}. */
  void logApplication() throws Exception {
    LogApplication app = LogReplay.builder().build().read(List.of("driver.log"));
    app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED))).forEach(s ->
        System.out.println(s.failureReason().orElse("") + " at "
            + app.stageProvenance(s.stageId(), s.attemptId()).flatMap(LogProvenance.Span::end).map(LogProvenance::display).orElse("?")));
  }

  /** The example of {@code LogEvent}. */
  void logEvent(LogApplication app) throws Exception {
    app.events().stream().filter(e -> e.kind() == LogEvent.Kind.EXECUTOR_EXITED)
        .forEach(e -> System.out.println(e.executorId().orElse("?") + " exit " + e.exitCode() + " at " + e.at().display()));
  }

  /** The example of {@code LogEvent.Kind}. */
  void logEventKind(LogApplication app) throws Exception {
    long lost = app.events().stream().filter(e -> e.kind() == LogEvent.Kind.EXECUTOR_REMOVED).count();
  }

  /** The example of {@code LogOutcome}. */
  void logOutcome(LogApplication app) throws Exception {
    LogOutcome o = app.outcome();
    if (o.status() == LogOutcome.Status.FAILED) System.out.println(o.reason() + " (" + o.at().map(LogProvenance::display).orElse("") + ")");
  }

  /** The example of {@code LogOutcome.Status}. */
  void logOutcomeStatus(LogApplication app) throws Exception {
    boolean failed = app.outcome().status() == LogOutcome.Status.FAILED;
  }

  /** The example of {@code LogProvenance}. */
  void logProvenance(LogApplication app) throws Exception {
    app.stageProvenance(3, 0).flatMap(LogProvenance.Span::end).ifPresent(p -> System.out.println("stage 3 failed at " + p.display()));
  }

  /** The example of {@code LogProvenance.Span}. */
  void logProvenanceSpan(LogApplication app) throws Exception {
    app.stageProvenance(2, 0).flatMap(LogProvenance.Span::end).ifPresent(p -> cite(p.display()));
  }

  /** The example of {@code LogRecord}. */
  void logRecord() throws Exception {
    LogReplay.builder().build().forEachRecord("driver.log", r -> {
      if (r.level().equals("ERROR")) System.out.println(r.at().display() + " " + r.message());
      return true;
    });
  }

  /** The example of {@code LogReplay}. */
  void logReplay() throws Exception {
    LogApplication app = LogReplay.builder().sources(ByteSources.defaults()).build()
        .read(List.of("driver.log", "executor-logs/"));   // files, directories, globs
    app.stages(StageQuery.all()).forEach(s -> System.out.println(s.stageId() + " " + s.status()));
  }

  /** The example of {@code LogReplay#forEachRecord}. */
  void logReplayForEachRecord() throws Exception {
    LogReplay.builder().build().forEachRecord("yarn-logs.txt", r -> {
      if (r.level().equals("ERROR")) System.out.println(r.section() + " " + r.text());
      return true;
    });
  }

  /** The example of {@code LogReplay.Builder}. */
  void logReplayBuilder() throws Exception {
    LogReplay replay = LogReplay.builder().zone(ZoneId.of("America/New_York")).maxTaskRowsPerStage(10_000).build();
  }

  /** The example of {@code LogSection}. */
  void logSection(LogApplication app) throws Exception {
    app.sections().forEach(s -> System.out.println(s.name() + ": " + s.role() + " " + s.layout()));
  }

  /** The example of {@code LoggedException}. */
  void loggedException(LogApplication app) throws Exception {
    app.exceptions().forEach(e -> System.out.println(e.count() + "x " + e.headline() + " at " + e.at().display()));
  }

  /** The example of {@code LogModel}. */
  void logModel() throws Exception {
    LogModel model = LogModel.read(new LogModel.Settings(ByteSources.defaults(), 1 << 20, 100_000, ZoneOffset.UTC, 10_000, true),
        List.of("driver.log", "executor-logs/"));
  }

  /** The example of {@code LogModel.Settings}. */
  void logModelSettings() throws Exception {
    LogModel.Settings settings = new LogModel.Settings(ByteSources.defaults(), 1 << 20, 100_000, ZoneOffset.UTC, 10_000, true);
  }

  /** The example of {@code io.sparkrca.core.logs.replay}. */
  void overview() throws Exception {
    LogApplication app = LogReplay.builder().build().read(List.of("driver.log", "executor-logs/"));
    System.out.println(app.outcome().status() + ": " + app.outcome().reason());
  }

  /** The example of {@code LogReplayProvider}. */
  void logReplayProvider() {
    SparkApplication app = new LogReplayProvider().rebuild(List.of("driver.log"), ByteSources.defaults());
  }
}

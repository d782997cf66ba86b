package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.eventlog.EventLogHistory;
import io.sparkrca.core.eventlog.EventLogHistoryProvider;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.NotAnEventLogException;
import io.sparkrca.core.eventlog.replay.ReplayReport;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.io.BinaryFormat;
import io.sparkrca.core.source.SourceSettings;
import java.nio.file.Path;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.core.eventlog}, compiled (see {@link JavadocExamplesTest}). */
class EventLogExamples {
  /** The example of {@code EventLogHistory}. */
  void eventLogHistory() throws Exception {
    EventLogHistory h = EventLogs.reader().build().history("/tmp/spark-events");
    h.applications().forEach(a -> System.out.println(a.id()));
    h.skipped().forEach(System.err::println); // logs that could not be read, and why
  }

  /** The example of {@code EventLogHistoryProvider}. */
  void eventLogHistoryProvider() throws Exception {
    SparkApplication app = new EventLogHistoryProvider().application("/tmp/spark-events/app-1", SourceSettings.defaults());
  }

  /** The example of {@code EventLogReader}. */
  void eventLogReader() throws Exception {
    EventLogReader reader = EventLogs.reader().strict(false).build();
    ReplayedApplication app = reader.replay("/tmp/spark-events/eventlog_v2_app-1");
    app.report().notes().forEach(System.err::println);
  }

  /** The example of {@code EventLogRef}. */
  void eventLogRef() throws Exception {
    for (EventLogRef log : EventLogs.reader().build().find("/tmp/spark-events")) {
      System.out.println(log.name() + (log.inProgress() ? " (running)" : ""));
    }
  }

  /** The example of {@code EventLogs}. */
  void eventLogs() throws Exception {
    ReplayedApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-20240101-0001"));
    System.out.println(app.info().name() + ": " + app.jobs(Set.of()).size() + " jobs");

    EventLogReader strict = EventLogs.reader().strict(true).maxTaskRowsPerStage(10_000).build();
    SparkHistory all = strict.history("/tmp/spark-events");
  }

  /** The example of {@code NotAnEventLogException}. */
  void notAnEventLogException() throws Exception {
    try {
      EventLogs.replay(Path.of("app.jar"));
    } catch (NotAnEventLogException e) {
      System.err.println(e.getMessage()); // "app.jar is a JAR (ZIP archive), not a Spark event log: ..."
      if (e.format().category() == BinaryFormat.Category.CODE) {
        // look inside it with ClassInspector instead
      }
    }
  }

  /** The example of {@code ReplayReport}. */
  void replayReport(ReplayedApplication app) throws Exception {
    ReplayReport r = app.report();
    if (r.badLineCount() > 0) System.err.println(r.badLineCount() + " lines skipped, first: " + r.badLines().get(0));
  }
}

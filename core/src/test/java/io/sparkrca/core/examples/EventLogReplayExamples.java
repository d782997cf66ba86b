package io.sparkrca.core.examples;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayOptions;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import java.nio.file.Path;

/** The Javadoc examples of {@code io.sparkrca.core.eventlog.replay}, compiled (see {@link JavadocExamplesTest}). */
class EventLogReplayExamples {
  /** The example of {@code ReplayOptions}. */
  void replayOptions() throws Exception {
    ReplayOptions lean = new ReplayOptions(false, 1 << 20, 10_000); // 1 MiB lines, 10k tasks/stage
    ReplayOptions oneThread = lean.withThreads(1);
  }

  /** The example of {@code ReplayedApplication}. */
  void replayedApplication() throws Exception {
    ReplayedApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-1"));
    app.facts().taskFailures().forEach(f -> System.out.println(f.description()));
  }
}

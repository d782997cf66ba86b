package io.sparkrca.core.app;

import io.sparkrca.core.model.ApplicationInfo;
import java.util.List;
import java.util.Optional;

/**
 * A set of applications, like a History Server holds: an event-log directory, a History Server, a
 * Dataproc region.
 *
 * <pre>{@code
 * SparkHistory history = EventLogs.reader().build().history("/tmp/spark-events");
 * for (ApplicationInfo app : history.applications()) System.out.println(app.id());
 * SparkApplication one = history.application("app-1", Optional.empty()).orElseThrow();
 * }</pre>
 */
public interface SparkHistory {

  /** Every application, most recently ended first (running ones last), attempts newest first. */
  List<ApplicationInfo> applications();

  /**
   * One attempt of one application; an empty attempt id means the application's only attempt
   * when it has no attempt ids.
   */
  Optional<? extends SparkApplication> application(String appId, Optional<String> attemptId);
}

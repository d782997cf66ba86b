package io.sparkrca.core.evidence;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.io.ByteSources;
import java.util.List;

/**
 * Rebuilds an application from the logs its driver and executors wrote, for when there is no event
 * log: {@link EvidenceCollector} asks the first provider on the class path ({@link
 * java.util.ServiceLoader}) and hands the result to the analysis like an event log's, marked as
 * rebuilt from logs. sparkrca-core's log replay ({@code io.sparkrca.core.logs.replay.LogReplay})
 * is the standard one; a platform whose logs differ (a layout of their own, times in a local zone) can
 * bring another, registered in {@code META-INF/services/io.sparkrca.core.evidence.LogApplicationProvider}.
 *
 * <pre>{@code
 * public final class EasternTimeLogs implements LogApplicationProvider {
 *   public String name() { return "logs written in US Eastern time"; }
 *   public SparkApplication rebuild(List<String> logs, ByteSources sources) {
 *     return LogReplay.builder().sources(sources).zone(ZoneId.of("America/New_York")).build().read(logs);
 *   }
 * }
 * }</pre>
 */
public interface LogApplicationProvider {
  /** A short name for notes and errors, e.g. {@code "log replay"}. */
  String name();

  /**
   * The application the logs show, with what the lines give and nothing else; its {@link
   * SparkApplication#completeness()} says what logs cannot show.
   *
   * @param logs the logs' URIs (files, directories, globs, object prefixes), driver's and executors'
   * @param sources where to read them
   * @throws io.sparkrca.core.error.SparkRcaException when no log can be read
   */
  SparkApplication rebuild(List<String> logs, ByteSources sources);
}

package io.sparkrca.core.logs.replay;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.LogApplicationProvider;
import io.sparkrca.core.io.ByteSources;
import java.util.List;

/**
 * The standard {@link LogApplicationProvider}: {@link LogReplay} with its defaults, registered for
 * {@link java.util.ServiceLoader} so that {@link io.sparkrca.core.evidence.EvidenceCollector}
 * rebuilds an application from the logs it is given when there is no event log.
 *
 * <pre>{@code
 * SparkApplication app = new LogReplayProvider().rebuild(List.of("driver.log"), ByteSources.defaults());
 * }</pre>
 */
public final class LogReplayProvider implements LogApplicationProvider {
  /** What {@link #name()} answers. */
  public static final String NAME = "log replay";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SparkApplication rebuild(List<String> logs, ByteSources sources) {
    return LogReplay.builder().sources(sources).build().read(logs);
  }
}

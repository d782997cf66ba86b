package io.sparkrca.core.summary;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.Objects;

/**
 * What to summarize: the applications at a location (an event log, a directory of them, a
 * History Server's application, any source's URI), at most {@link #maxApps()} of them. Immutable.
 *
 * <pre>{@code
 * Summaries s = SummaryRunner.standard().run(SummaryRequest.of("/var/spark-events").withMaxApps(50));
 * System.out.println(s.summaries().size() + " of " + s.logsFound() + " logs summarized");
 * }</pre>
 *
 * @param location where the applications are
 * @param maxApps the most logs of a directory summarized, 1 to {@value #MAX_APPS}
 */
public record SummaryRequest(String location, int maxApps) {
  /** How many logs of a directory are summarized by default. */
  public static final int DEFAULT_MAX_APPS = 20;
  /** The most logs one request summarizes. */
  public static final int MAX_APPS = 1000;

  public SummaryRequest {
    Objects.requireNonNull(location, "location");
    if (maxApps < 1 || maxApps > MAX_APPS) {
      throw new InvalidRequestException("maxApps must be from 1 to " + MAX_APPS + ", not " + maxApps);
    }
  }

  /** The applications at {@code location}, at most {@value #DEFAULT_MAX_APPS} of them. */
  public static SummaryRequest of(String location) {
    return new SummaryRequest(location, DEFAULT_MAX_APPS);
  }

  /** This request with another cap on the logs summarized. */
  public SummaryRequest withMaxApps(int max) {
    return new SummaryRequest(location, max);
  }
}

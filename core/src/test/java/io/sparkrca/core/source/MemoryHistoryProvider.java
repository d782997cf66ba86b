package io.sparkrca.core.source;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.List;
import java.util.Optional;

/**
 * A provider registered through {@code META-INF/services} in the test class path: {@code mem:NAME}
 * serves the 3.5.9 testkit fixture NAME, replayed.
 */
public final class MemoryHistoryProvider implements SparkHistoryProvider {
  @Override
  public String name() {
    return "memory";
  }

  @Override
  public boolean supports(String uri) {
    return uri.startsWith("mem:");
  }

  @Override
  public SparkHistory open(String uri, SourceSettings settings) {
    SparkApplication app = EventLogs.replay(TestkitFixtures.get("3.5.9", uri.substring(4)).eventLog());
    return new SparkHistory() {
      @Override
      public List<ApplicationInfo> applications() {
        return List.of(app.info());
      }

      @Override
      public Optional<SparkApplication> application(String appId, Optional<String> attemptId) {
        return appId.equals(app.info().id()) ? Optional.of(app) : Optional.empty();
      }
    };
  }
}

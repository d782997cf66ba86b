package io.sparkrca.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/** Testkit fixtures (real Spark 3.5.9 and 4.0.4 runs) replayed once per test JVM. */
final class Fixtures {
  private static final Map<String, SparkApplication> APPS = new ConcurrentHashMap<>();

  private Fixtures() {}

  static SparkApplication app(String sparkVersion, String scenario) {
    Assumptions.assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    return APPS.computeIfAbsent(sparkVersion + "/" + scenario,
        k -> EventLogs.replay(TestkitFixtures.get(sparkVersion, scenario).eventLog()));
  }

  /** The application id the fixture's label records. */
  static String id(String sparkVersion, String scenario) {
    return TestkitFixtures.get(sparkVersion, scenario).label().path("application").path("id").asText();
  }
}

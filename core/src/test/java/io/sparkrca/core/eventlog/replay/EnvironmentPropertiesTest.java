package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sparkProperties()} is the environment's Spark section and {@code systemProperty(key)} one
 * of its system properties, whichever is read first, redacted as the History Server redacts them,
 * and empty when the log has no environment.
 */
class EnvironmentPropertiesTest {

  @Test
  void areTheEnvironmentsSparkPropertiesWhicheverIsReadFirst() throws IOException {
    List<TestkitFixtures.Fixture> fixtures = TestkitFixtures.all();
    assertThat(fixtures).isNotEmpty();
    for (TestkitFixtures.Fixture f : fixtures) {
      ReplayedApplication propertiesFirst = EventLogs.replay(f.eventLog());
      List<Map.Entry<String, String>> alone = propertiesFirst.sparkProperties().orElseThrow();
      List<Map.Entry<String, String>> inEnvironment =
          propertiesFirst.environment().map(ApplicationEnvironmentInfo::sparkProperties).orElseThrow();

      ReplayedApplication environmentFirst = EventLogs.replay(f.eventLog());
      List<Map.Entry<String, String>> fromEnvironment =
          environmentFirst.environment().map(ApplicationEnvironmentInfo::sparkProperties).orElseThrow();

      assertThat(alone).as("%s/%s", f.sparkVersion(), f.scenario())
          .isNotEmpty()
          .isEqualTo(inEnvironment)
          .isEqualTo(fromEnvironment)
          .isEqualTo(environmentFirst.sparkProperties().orElseThrow())
          .isSortedAccordingTo(Map.Entry.comparingByKey());
      assertThat(new ArrayList<>(propertiesFirst.sparkConf().orElseThrow().entrySet()))
          .as("sparkConf() of %s/%s: the same properties as a map, in key order", f.sparkVersion(), f.scenario())
          .isEqualTo(alone.stream().map(e -> Map.entry(e.getKey(), e.getValue() == null ? "" : e.getValue())).toList());
      for (String key : List.of("user.timezone", "java.version", "no.such.property")) {
        assertThat(propertiesFirst.systemProperty(key)).as("%s/%s %s", f.sparkVersion(), f.scenario(), key)
            .isEqualTo(environmentFirst.environment().orElseThrow().systemProperties().stream()
                .filter(p -> p.getKey().equals(key)).map(Map.Entry::getValue).findFirst());
      }
    }
  }

  @Test
  void redactsSecretsLikeTheHistoryServer(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("app-1");
    Files.writeString(log, String.join("\n",
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.9\"}",
        "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{},"
            + "\"Spark Properties\":{\"spark.app.name\":\"x\",\"spark.my.password\":\"hunter2\","
            + "\"spark.jdbc.url\":\"jdbc:postgresql://h/db?user=a&password=hunter2\"},"
            + "\"Hadoop Properties\":{\"fs.s3a.secret.key\":\"s3cr3t\"},"
            + "\"System Properties\":{\"user.timezone\":\"UTC\",\"javax.net.ssl.trustStorePassword\":\"changeit\"},"
            + "\"Classpath Entries\":{}}",
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"x\",\"App ID\":\"app-1\",\"Timestamp\":1,\"User\":\"u\"}",
        ""));

    ReplayedApplication app = EventLogs.replay(log);

    assertThat(app.sparkProperties().orElseThrow())
        .containsExactly(
            Map.entry("spark.app.name", "x"),
            Map.entry("spark.jdbc.url", Redactor.REDACTED),
            Map.entry("spark.my.password", Redactor.REDACTED));
    assertThat(app.sparkConf().orElseThrow())
        .containsEntry("spark.my.password", Redactor.REDACTED)
        .containsEntry("spark.jdbc.url", Redactor.REDACTED)
        .doesNotContainValue("hunter2");
    assertThat(app.environment().orElseThrow().hadoopProperties())
        .containsExactly(Map.entry("fs.s3a.secret.key", Redactor.REDACTED));
    assertThat(app.systemProperty("user.timezone")).contains("UTC");
    assertThat(app.systemProperty("javax.net.ssl.trustStorePassword")).contains(Redactor.REDACTED);
  }

  @Test
  void isEmptyWhenTheLogHasNoEnvironment(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("app-2");
    Files.writeString(log,
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"x\",\"App ID\":\"app-2\",\"Timestamp\":1,\"User\":\"u\"}\n");

    ReplayedApplication app = EventLogs.replay(log);

    assertThat(app.sparkProperties()).isEmpty();
    assertThat(app.sparkConf()).isEmpty();
    assertThat(app.systemProperty("user.timezone")).isEmpty();
    assertThat(app.environment()).isEmpty();
  }
}

package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.serve.HistoryApiServer;
import io.sparkrca.historyserver.testing.FixtureDirectories;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery in the failure playbook's order, against a real server ({@code serve} over a fixture)
 * and ports where nothing listens; the default local ports are replaced by free ones, so what
 * runs on this machine's 18080 or 4040 does not matter.
 */
class HistoryServerDiscoveryTest {
  @TempDir static Path tmp;
  private static HistoryApiServer server;
  private static String nobody;

  @BeforeAll
  static void start() throws IOException {
    FixtureDirectories.Group g = FixtureDirectories.layOut(
        List.of(TestkitFixtures.get("4.0.4", "healthy")), tmp.resolve("logs"), false).get(0);
    server = HistoryApiServer.builder(g.dir().toString()).port(0).build().start();
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nobody = "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static HistoryServerDiscovery.Result discover(Map<String, String> env) {
    return HistoryServerDiscovery.discover(env::get, HistoryServerSettings.defaults(), List.of(nobody, nobody));
  }

  @Test
  void sparkHistoryUrlComesFirst() {
    HistoryServerDiscovery.Result r = discover(Map.of(HistoryServerSettings.ENV_URL, server.url()));

    assertThat(r.url()).contains(server.url());
    assertThat(r.tried()).hasSize(1);
    assertThat(r.tried().get(0)).startsWith(HistoryServerSettings.ENV_URL + "=").contains("answered");
  }

  @Test
  void aDeadUrlFallsThroughToTheLocalPortsThenTheSparkConfiguration() throws IOException {
    Path conf = Files.createDirectories(tmp.resolve("conf-port"));
    String port = server.url().replaceAll(".*:", "");
    Files.writeString(conf.resolve("spark-defaults.conf"), "# History Server\nspark.history.ui.port " + port + "\n");
    Map<String, String> env = new HashMap<>();
    env.put(HistoryServerSettings.ENV_URL, nobody);
    env.put("SPARK_CONF_DIR", conf.toString());

    HistoryServerDiscovery.Result r = discover(env);

    assertThat(r.url()).contains("http://localhost:" + port);
    assertThat(r.tried()).hasSize(4);
    assertThat(r.tried().get(0)).contains("connection refused");
    assertThat(r.tried().get(3)).contains("spark.history.ui.port").contains("answered");
  }

  @Test
  void withNoServerTheEventLogDirectoryOfSparkDefaultsIsUsed() throws IOException {
    Path home = Files.createDirectories(tmp.resolve("spark-home/conf"));
    Files.writeString(home.resolve("spark-defaults.conf"), "spark.eventLog.enabled=true\nspark.eventLog.dir = file:/var/spark-events\n");

    HistoryServerDiscovery.Result r = discover(Map.of("SPARK_HOME", home.getParent().toString()));

    assertThat(r.url()).isEmpty();
    assertThat(r.eventLogDir()).contains("file:/var/spark-events");
    assertThat(r.describe()).contains(HistoryServerSettings.ENV_URL + ": not set").contains(nobody)
        .contains("spark.eventLog.dir in ").contains("read directly");
  }

  @Test
  void nothingFoundSaysWhatWasTried() {
    HistoryServerDiscovery.Result r = discover(Map.of());

    assertThat(r.found()).isFalse();
    assertThat(r.tried()).hasSize(4);
    assertThat(r.describe()).contains("none under SPARK_CONF_DIR or SPARK_HOME/conf");
  }
}

package io.sparkrca.testkit.parity;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.testing.HistoryServerFaultsContract;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Issue 12 §4 against the real thing: the faults of {@link HistoryServerFaultsContract}, injected
 * by a loopback proxy in front of the real Spark 4.0.4 History Server (forked by the testkit) over
 * one fixture's event log.
 */
class RealHistoryServerFaultsTest extends HistoryServerFaultsContract {
  private RealHistoryServers servers;
  private Path work;

  @Override
  protected TestkitFixtures.Fixture fixture() {
    return TestkitFixtures.get("4.0.4", "executor-oom");
  }

  @Override
  protected String startUpstream() throws Exception {
    work = Files.createTempDirectory("sparkrca-shs-faults");
    servers = RealHistoryServers.start(java.util.List.of(fixture()), "4.0.4", work);
    return servers.url(fixture());
  }

  @Override
  protected void stopUpstream() {
    if (servers != null) {
      servers.close();
    }
    if (work != null) {
      try (java.util.stream.Stream<Path> all = Files.walk(work)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.io.IOException ignored) {
        // a temporary directory: best effort
      }
    }
  }
}

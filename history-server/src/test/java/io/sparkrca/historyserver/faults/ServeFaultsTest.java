package io.sparkrca.historyserver.faults;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.serve.HistoryApiServer;
import io.sparkrca.historyserver.testing.FixtureDirectories;
import io.sparkrca.historyserver.testing.HistoryServerFaultsContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The faults of {@link HistoryServerFaultsContract} with {@code serve} as the upstream (fast, in
 * this module); testkit/shs-parity runs the same contract in front of the real History Server.
 */
class ServeFaultsTest extends HistoryServerFaultsContract {
  private HistoryApiServer server;
  private Path dir;

  @Override
  protected TestkitFixtures.Fixture fixture() {
    return TestkitFixtures.get("4.0.4", "executor-oom");
  }

  @Override
  protected String startUpstream() throws Exception {
    dir = Files.createTempDirectory("sparkrca-serve-faults");
    FixtureDirectories.Group g = FixtureDirectories.layOut(List.of(fixture()), dir, false).get(0);
    server = HistoryApiServer.builder(g.dir().toString()).port(0).build().start();
    return server.url();
  }

  @Override
  protected void stopUpstream() {
    if (server != null) {
      server.close();
    }
    if (dir != null) {
      try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.io.IOException ignored) {
        // a temporary directory: best effort
      }
    }
  }
}

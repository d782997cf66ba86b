package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.ThreadRecordingFiles;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A fleet analysis replays its log on one thread: analyses run side by side, one per core, so a
 * replay that also decoded on a second thread would only crowd the other analyses.
 */
class FleetAnalysisThreadsTest {

  @Test
  void eachLogIsReadByOneThreadOnly() throws InterruptedException {
    String log = TestkitFixtures.all().stream()
        .map(TestkitFixtures.Fixture::eventLog)
        .filter(Files::isRegularFile)
        .findFirst()
        .orElseThrow()
        .toString();
    FleetLog located = FleetLogs.discover(ByteSources.defaults(), log).logs().get(0);
    ThreadRecordingFiles files = new ThreadRecordingFiles();
    FleetAnalysis analysis = FleetAnalysis.builder().sources(ByteSources.builder().add(files).build()).build();

    AtomicReference<FleetRow> row = new AtomicReference<>();
    Thread worker = new Thread(() -> row.set(analysis.analyze(located)), "fleet-analysis-1");
    worker.start();
    worker.join();

    assertThat(row.get().error()).isEmpty();
    assertThat(row.get().appId()).isPresent();
    // The evidence collector fetches on its own thread while the analysing thread waits: one
    // thread reads, and no replay thread beside it.
    assertThat(files.readers()).hasSize(1);
  }
}

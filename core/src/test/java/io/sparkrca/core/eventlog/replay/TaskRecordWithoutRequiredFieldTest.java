package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task record of a real log (Spark 3.5.9, healthy) without its executor id, which Spark's own
 * reader requires, is one skipped, reported bad line, on both parsing paths; the rest is read.
 */
class TaskRecordWithoutRequiredFieldTest {

  @ParameterizedTest(name = "{0} without {1}, fast path {2}")
  @CsvSource({
      "SparkListenerTaskEnd, Executor ID, true", "SparkListenerTaskEnd, Executor ID, false",
      "SparkListenerTaskStart, Executor ID, true", "SparkListenerTaskStart, Executor ID, false"})
  void isABadLineNamingTheFieldAndTheRestIsRead(String event, String field, boolean fastPath, @TempDir Path dir)
      throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Path fixture = TestkitFixtures.get("3.5.9", "healthy").eventLog();
    List<String> lines = Files.readAllLines(fixture, StandardCharsets.UTF_8);
    List<String> damaged = new ArrayList<>();
    int damagedLine = -1;
    for (String line : lines) {
      if (damagedLine < 0 && line.contains("\"Event\":\"" + event + "\"")) {
        String cut = line.replaceFirst("\"" + field + "\":\"[^\"]*\",", "");
        assertThat(cut).isNotEqualTo(line);
        damagedLine = damaged.size() + 1;
        line = cut;
      }
      damaged.add(line);
    }
    Path log = dir.resolve(fixture.getFileName());
    Files.write(log, damaged, StandardCharsets.UTF_8);
    long intact = EventLogs.replay(fixture).report().events();

    Replayer replayer = new Replayer(ReplayOptions.DEFAULTS, fastPath, false);
    replayer.read(io.sparkrca.core.io.ByteSource.of(log), false);
    ReplayReport report = replayer.finish(0).report();

    int line = damagedLine;
    assertThat(report.badLines()).singleElement().satisfies(b -> {
      assertThat(b.lineNumber()).isEqualTo(line);
      assertThat(b.reason()).contains("without '" + field + "'");
    });
    assertThat(report.events()).isEqualTo(intact - 1);
    assertThat(report.completed()).isTrue();
  }
}

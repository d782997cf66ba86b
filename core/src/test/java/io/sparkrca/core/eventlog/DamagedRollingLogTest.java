package io.sparkrca.core.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real two-part rolling log (Spark 4.0.4, too-many-small-tasks), copied and damaged: every
 * damage is stated as a gap naming the file, the rest is read, and nothing throws.
 */
class DamagedRollingLogTest {
  private static final String APP = "local-1795965015721";
  private static final String PART1 = "events_1_" + APP + ".zstd";
  private static final String PART2 = "events_2_" + APP + ".zstd";

  @TempDir Path tmp;
  private Path log;
  private long intactEvents;

  @BeforeEach
  void copyFixture() throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Path fixture = TestkitFixtures.get("4.0.4", "too-many-small-tasks").eventLog();
    log = tmp.resolve(fixture.getFileName().toString());
    Files.createDirectories(log);
    try (Stream<Path> files = Files.list(fixture)) {
      for (Path f : files.toList()) {
        Files.copy(f, log.resolve(f.getFileName()));
      }
    }
    assertThat(log.resolve(PART1)).exists();
    assertThat(log.resolve(PART2)).exists();
    intactEvents = EventLogs.replay(fixture).report().events();
  }

  private static ReplayedApplication replay(Path p) {
    return EventLogs.reader().build().replay(p.toString());
  }

  @Test
  void aPartNumberTooLargeForALongIsSkippedWithAGapAndTheOtherPartsAreRead() throws IOException {
    String huge = "events_99999999999999999999_" + APP + ".zstd";
    Files.copy(log.resolve(PART2), log.resolve(huge));

    ReplayedApplication app = replay(log);

    assertThat(app.report().events()).isEqualTo(intactEvents);
    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains(huge).contains("too large"));
    assertThat(app.completeness().isComplete()).isFalse();
  }

  @Test
  void aDirectoryOfLogsWithSuchAPartStillListsEveryLog() throws IOException {
    Files.copy(log.resolve(PART2), log.resolve("events_99999999999999999999_" + APP + ".zstd"));

    List<EventLogRef> found = EventLogs.reader().build().find(tmp.toString());

    assertThat(found).singleElement().satisfies(ref -> {
      assertThat(ref.files()).hasSize(2);
      assertThat(ref.gaps()).singleElement().asString().contains("events_99999999999999999999_");
    });
  }

  @Test
  void aMissingFirstPartIsStated() throws IOException {
    Files.delete(log.resolve(PART1));

    ReplayedApplication app = replay(log);

    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains("part 1 of the log is missing"));
    assertThat(app.completeness().isComplete()).isFalse();
  }

  @Test
  void anEmptyPartWithPartsAfterItIsStatedAsLost() throws IOException {
    Files.write(log.resolve(PART1), new byte[0]);

    ReplayedApplication app = replay(log);

    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains(PART1).contains("is empty though later parts"));
    assertThat(app.completeness().isComplete()).isFalse();
  }

  @Test
  void aMissingMiddlePartIsStated() throws IOException {
    Files.move(log.resolve(PART2), log.resolve("events_4_" + APP + ".zstd"));

    ReplayedApplication app = replay(log);

    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains("parts 2 to 3 of the log are missing"));
  }

  @Test
  void twoFilesWithTheSamePartNumberAreReadOnceWithAGap() throws IOException {
    Files.copy(log.resolve(PART1), log.resolve("events_01_" + APP + ".zstd"));

    ReplayedApplication app = replay(log);

    assertThat(app.report().events()).isEqualTo(intactEvents);
    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains("same part number 1"));
    assertThat(app.completeness().isComplete()).isFalse();
  }

  @Test
  void aPartCopiedUnderTheNextNumberIsNotCountedTwice() throws IOException {
    Files.copy(log.resolve(PART2), log.resolve("events_3_" + APP + ".zstd"));

    ReplayedApplication app = replay(log);

    assertThat(app.report().events()).isEqualTo(intactEvents);
    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains("events_3_").contains("exactly the bytes of " + PART2));
  }

  @Test
  void aNamedPipeInPlaceOfAPartIsAStatedGapAndNeverOpened() throws Exception {
    Files.delete(log.resolve(PART1));
    io.sparkrca.core.testkit.NamedPipes.make(log.resolve(PART1));

    ReplayedApplication app = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(60), () -> replay(log));

    assertThat(app.report().notes()).anySatisfy(n -> assertThat(n).contains(PART1).contains("is empty though later parts"));
    assertThat(app.completeness().isComplete()).isFalse();
  }

  @Test
  void theIntactLogHasNoGap() {
    ReplayedApplication app = replay(log);

    assertThat(app.report().notes()).isEmpty();
    assertThat(app.completeness().isComplete()).isTrue();
  }
}

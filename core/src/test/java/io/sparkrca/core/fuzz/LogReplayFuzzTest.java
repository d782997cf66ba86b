package io.sparkrca.core.fuzz;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.logs.replay.LogApplication;
import io.sparkrca.core.logs.replay.LogReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The log-line parser of logs-first replay ({@link LogReplay}) on mutated real driver logs: it
 * rebuilds a (partial) application or throws the library's own exception, within a time bound.
 */
class LogReplayFuzzTest {
  private static final String[] DRIVER_LOGS = {"bad-record", "executor-oom", "flaky-task", "driver-oom-collect"};
  private static byte[][] texts;
  private static Path dir;

  @BeforeContainer
  static void readFixtures() throws IOException {
    texts = new byte[DRIVER_LOGS.length][];
    for (int i = 0; i < DRIVER_LOGS.length; i++) {
      texts[i] = Fuzz.fixture(DRIVER_LOGS[i], "driver-stderr.log");
    }
    dir = Files.createTempDirectory("sparkrca-fuzz-logs");
  }

  @AfterContainer
  static void removeFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void aMutatedDriverLogRebuildsAnApplicationOrSaysWhyNot(@ForAll long seed, @ForAll Mutations mutation,
      @ForAll @IntRange(min = 0, max = 3) int log) throws IOException {
    byte[] damaged = mutation.apply(texts[log], new Random(seed));
    Path file = dir.resolve("driver-" + Math.abs(seed % 1_000_000) + ".log");
    Files.write(file, damaged);
    try {
      String input = mutation + " of " + DRIVER_LOGS[log] + "/driver-stderr.log (seed " + seed + ")";
      Fuzz.holdsContract(input, () -> {
        LogApplication app = LogReplay.builder().build().read(List.of(file.toString()));
        return app.outcome().toString().length() + app.completeness().toString().length()
            + app.jobs(Set.of()).size() + app.stages(StageQuery.all()).size() + app.executors(false).size();
      });
    } finally {
      Files.deleteIfExists(file);
    }
  }
}

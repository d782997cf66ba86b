package io.sparkrca.core.logs.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A quick measurement, not a test that runs by default: a driver log of about {@code
 * -Dsparkrca.logreplay.bench=<MB>} made by repeating the real task lines of the testkit's
 * too-many-small-tasks run (4,000 tasks a job), each copy a new job, stage and task ids, read
 * twice (the second timed). Prints MB/s, lines/s and the heap retained.
 *
 * <pre>{@code
 * mvn -B -o -pl core -am test -Dtest=LogReplayThroughputTest -Dsurefire.failIfNoSpecifiedTests=false -Dsparkrca.logreplay.bench=100
 * }</pre>
 */
class LogReplayThroughputTest {
  private static final Pattern TID = Pattern.compile("\\(TID (\\d+)\\)");

  @Test
  void readsALargeDriverLogInOnePass() throws IOException {
    String mb = System.getProperty("sparkrca.logreplay.bench");
    assumeTrue(mb != null && TestkitFixtures.root().isPresent(), "opt-in measurement: -Dsparkrca.logreplay.bench=<MB>");
    Path log = Path.of("target/logreplay-bench-" + mb + "mb.log");
    long lines = write(log, Long.parseLong(mb) << 20);
    long bytes = Files.size(log);

    LogReplay replay = LogReplay.builder().build();
    LogApplication app = null;
    double first = 0;
    double best = Double.MAX_VALUE;
    for (int run = 0; run < 5; run++) { // the first runs warm the JIT up
      System.gc();
      long start = System.nanoTime();
      app = replay.read(List.of(log.toString()));
      double seconds = (System.nanoTime() - start) / 1e9;
      first = run == 0 ? seconds : first;
      best = Math.min(best, seconds);
    }
    System.gc();
    long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();

    double mbytes = bytes / 1048576.0;
    System.out.printf(Locale.ROOT, "LogReplay: %.1f MB, %,d lines, %d jobs, %d stage attempts: first read %.2f s (%.0f MB/s), "
            + "best of 5 %.2f s (%.0f MB/s, %,.0f lines/s); heap retained by the model: %d MB%n",
        mbytes, lines, app.jobs(java.util.Set.of()).size(), app.stages(StageQuery.all()).size(), first, mbytes / first,
        best, mbytes / best, lines / best, heap >> 20);
    assertThat(app.stages(StageQuery.all())).allMatch(s -> s.numCompleteTasks() == 4000);
  }

  /** The job block of the real log repeated until {@code target} bytes, renumbered; returns the lines written. */
  private static long write(Path out, long target) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "too-many-small-tasks");
    List<String> all = Files.readAllLines(f.driverLog(), StandardCharsets.UTF_8);
    int from = indexOf(all, "DAGScheduler: Got job 0 (");
    int to = indexOf(all, "DAGScheduler: Job 0 finished: ");
    List<String> head = all.subList(0, from);
    List<String> block = all.subList(from, to + 1);
    long lines = 0;
    long written = 0;
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (String l : head) {
        w.write(l);
        w.write('\n');
        written += l.length() + 1;
        lines++;
      }
      for (int k = 0; written < target; k++) {
        for (String l : block) {
          String r = renumber(l, k);
          w.write(r);
          w.write('\n');
          written += r.length() + 1;
          lines++;
        }
      }
    }
    return lines;
  }

  private static String renumber(String line, int k) {
    String r = line.replace("job 0 (", "job " + k + " (").replace("Job 0 ", "Job " + k + " ")
        .replace("ResultStage 0 ", "ResultStage " + k + " ").replace("stage 0.0", "stage " + k + ".0")
        .replace("task set 0.0", "task set " + k + ".0").replace("TaskSet 0.0", "TaskSet " + k + ".0")
        .replace("in stage 0:", "in stage " + k + ":");
    Matcher m = TID.matcher(r);
    if (m.find()) {
      r = r.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) + 4000L * k) + r.substring(m.end(1));
    }
    return r;
  }

  private static int indexOf(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    throw new AssertionError(text);
  }
}

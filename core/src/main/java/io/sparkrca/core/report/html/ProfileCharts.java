package io.sparkrca.core.report.html;

import java.util.List;

/**
 * The charts of one run, the same in every report that has a {@link RunProfile}: the RCA, the
 * summary, and each run of a comparison.
 *
 * <pre>{@code
 * ProfileCharts.append(page, RunProfile.of(app, List.of(3)), List.of());
 * }</pre>
 */
public final class ProfileCharts {
  private ProfileCharts() {}

  /**
   * Appends the charts of {@code p}: the timeline (with {@code markers}), each stage of
   * interest's task durations and shuffle read per task, and the executors' GC share and spill.
   */
  public static void append(HtmlPage page, RunProfile p, List<Charts.Marker> markers) {
    page.raw(Charts.timeline(p, markers));
    // Pairs of charts side by side: a page half as tall paints (and screenshots) in about half the
    // time, and the two views of one stage or of the executors are read together anyway.
    // A stage's durations beside its shuffle read; stages without shuffle read two to a row.
    RunProfile.TaskDistribution pending = null;
    for (RunProfile.TaskDistribution d : p.distributions()) {
      if (d.shuffleRead().isPresent()) {
        if (pending != null) {
          page.raw(durations(pending, Charts.WIDTH));
          pending = null;
        }
        page.raw(Charts.sideBySide(
            durations(d, Charts.HALF_WIDTH),
            Charts.histogram("Shuffle read per task of " + d.label(), "shuffle-read", d.shuffleRead().get(),
                d.medianShuffleBytes(), d.maxShuffleBytes(), "the most any one task read", Charts.HALF_WIDTH)));
      } else if (pending == null) {
        pending = d;
      } else {
        page.raw(Charts.sideBySide(durations(pending, Charts.HALF_WIDTH), durations(d, Charts.HALF_WIDTH)));
        pending = null;
      }
    }
    if (pending != null) {
      page.raw(durations(pending, Charts.WIDTH));
    }
    if (!p.executorLoad().isEmpty()) {
      List<Charts.Bar> gc = p.executorLoad().stream().map(e -> new Charts.Bar("executor " + e.id(), e.gcShare())).toList();
      String gcTitle = "GC share of task time per executor";
      boolean disk = p.executorLoad().stream().anyMatch(e -> e.diskSpilled() > 0);
      if (disk || p.executorLoad().stream().anyMatch(e -> e.memorySpilled() > 0)) {
        page.raw(Charts.sideBySide(Charts.bars(gcTitle, "executor-gc", gc, "share", Charts.HALF_WIDTH),
            Charts.bars(disk ? "Spill to disk per executor" : "Spill (memory bytes) per executor", "executor-spill",
                p.executorLoad().stream().map(e -> new Charts.Bar("executor " + e.id(), disk ? e.diskSpilled()
                    : e.memorySpilled())).toList(), "bytes", Charts.HALF_WIDTH)));
      } else {
        page.raw(Charts.bars(gcTitle, "executor-gc", gc, "share"));
        page.note("No executor spilled.");
      }
    }
    if (!p.notes().isEmpty()) {
      page.list(p.notes());
    }
  }

  private static String durations(RunProfile.TaskDistribution d, int width) {
    return Charts.histogram("Task durations of " + d.label(), "task-durations", d.durations(), d.medianMs(), d.maxMs(),
        "slowest: " + d.straggler(), width);
  }
}

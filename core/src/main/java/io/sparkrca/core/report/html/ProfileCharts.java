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
    for (RunProfile.TaskDistribution d : p.distributions()) {
      page.raw(Charts.histogram("Task durations of " + d.label(), "task-durations", d.durations(), d.medianMs(),
          d.maxMs(), "slowest: " + d.straggler()));
      d.shuffleRead().ifPresent(h -> page.raw(Charts.histogram("Shuffle read per task of " + d.label(), "shuffle-read",
          h, d.medianShuffleBytes(), d.maxShuffleBytes(), "the most any one task read")));
    }
    if (!p.executorLoad().isEmpty()) {
      page.raw(Charts.bars("GC share of task time per executor", "executor-gc", p.executorLoad().stream()
          .map(e -> new Charts.Bar("executor " + e.id(), e.gcShare())).toList(), "share"));
      boolean disk = p.executorLoad().stream().anyMatch(e -> e.diskSpilled() > 0);
      if (disk || p.executorLoad().stream().anyMatch(e -> e.memorySpilled() > 0)) {
        page.raw(Charts.bars(disk ? "Spill to disk per executor" : "Spill (memory bytes) per executor", "executor-spill",
            p.executorLoad().stream().map(e -> new Charts.Bar("executor " + e.id(), disk ? e.diskSpilled()
                : e.memorySpilled())).toList(), "bytes"));
      } else {
        page.note("No executor spilled.");
      }
    }
    if (!p.notes().isEmpty()) {
      page.list(p.notes());
    }
  }

}

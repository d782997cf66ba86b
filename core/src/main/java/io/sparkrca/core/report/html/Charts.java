package io.sparkrca.core.report.html;

import static io.sparkrca.core.report.html.HtmlPage.text;

import io.sparkrca.core.format.Formats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Charts as inline SVG, drawn in Java: a timeline of jobs, stages and executors, a histogram with
 * its median and slowest value marked, horizontal bars, and paired bars for two runs side by
 * side. Each is a {@code <figure>} whose SVG has {@code role="img"} with a title and a description,
 * followed by a caption and the chart's numbers as a table (in a {@code <details>} element), so
 * that a screen reader, a text browser and a search find what the picture shows. Charts never
 * draw more than a few hundred marks: past {@value #MAX_ROWS} rows a timeline draws how many
 * stages ran at each moment plus the longest ones, and bar charts keep the largest values and say
 * how many they left out.
 *
 * <p>Every mark carries {@code data-label} and {@code data-value} attributes (the exact number it
 * draws), so that a test or a script reads the chart's values from the DOM.
 *
 * <pre>{@code
 * String svg = Charts.bars("Executor GC share", "executor-gc", List.of(new Charts.Bar("exec 1", 0.12)), "share");
 * page.raw(svg);
 * }</pre>
 */
public final class Charts {
  /** Width of a full-width chart, in CSS pixels. */
  public static final int WIDTH = 960;
  /** Width of each of two charts side by side ({@link #sideBySide(String, String)}), in CSS pixels. */
  public static final int HALF_WIDTH = 472;
  /** The most rows a timeline or bar chart draws individually. */
  public static final int MAX_ROWS = 60;
  /** Time buckets of an aggregated timeline. */
  static final int BUCKETS = 240;
  /** The most rows a chart's data table lists. */
  public static final int MAX_TABLE_ROWS = 200;

  private static final int LABEL_W = 230;
  private static final int ROW_H = 16;
  private static int seq;

  private Charts() {}

  /** One bar: its label and value. */
  public record Bar(String label, double value) {
    public Bar {
      Objects.requireNonNull(label, "label");
    }
  }

  /** Two values of one label: the baseline's and the candidate's. */
  public record Pair(String label, double baseline, double candidate) {
    public Pair {
      Objects.requireNonNull(label, "label");
    }
  }

  /** A moment to mark on a timeline. */
  public record Marker(long timeMs, String label, Kind kind) {
    /** What a marker is. */
    public enum Kind {
      /** A step of the failure chain. */
      FAILURE,
      /** An executor added. */
      EXECUTOR_ADDED,
      /** An executor removed. */
      EXECUTOR_REMOVED
    }

    public Marker {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(kind, "kind");
    }
  }

  private static synchronized String nextId(String prefix) {
    return prefix + "-" + (++seq);
  }

  /**
   * The timeline of an application: jobs, then stages (one bar each up to {@value #MAX_ROWS},
   * otherwise how many ran at each moment and the longest {@value #MAX_ROWS} / 2), executors added
   * and removed, and {@code markers} (the failure chain's events) as vertical lines.
   */
  public static String timeline(RunProfile p, List<Marker> markers) {
    long t0 = p.startMs() > 0 ? p.startMs() : p.stages().stream().mapToLong(RunProfile.Span::startMs).min().orElse(0);
    long t1 = Math.max(t0 + 1, p.endMs());
    for (RunProfile.Span s : p.stages()) {
      t1 = Math.max(t1, s.endMs());
    }
    double plotW = WIDTH - LABEL_W - 20;
    long span = t1 - t0;
    java.util.function.LongFunction<Double> x = t -> LABEL_W + plotW * Math.max(0, Math.min(span, t - t0)) / span;
    StringBuilder svg = new StringBuilder();
    StringBuilder rowsTable = new StringBuilder();
    List<List<String>> rows = new ArrayList<>();
    int y = 24;
    boolean aggregateJobs = p.jobs().size() > MAX_ROWS;
    boolean aggregateStages = p.stages().size() > MAX_ROWS;
    y = lane(svg, "jobs", p.jobs(), aggregateJobs, x, t0, span, plotW, y, rows);
    y = lane(svg, "stages", p.stages(), aggregateStages, x, t0, span, plotW, y + 6, rows);
    // Executors: one lane of add (▲) and remove (✕) marks.
    y += 6;
    svg.append("<text x=\"4\" y=\"").append(y + 11).append("\">executors (").append(p.executors().size())
        .append(")</text>\n");
    // Each executor's marks on their own up to MAX_ROWS of them (each with its tooltip); past that,
    // the others' adds and removals as one path each: the same picture in two elements.
    int drawn = 0;
    StringBuilder moreAdded = new StringBuilder();
    StringBuilder moreRemoved = new StringBuilder();
    int moreAdds = 0;
    int moreRemovals = 0;
    for (RunProfile.ExecutorSpan e : p.executors()) {
      boolean own = drawn++ < MAX_ROWS;
      double ax = x.apply(e.addMs());
      if (own) {
        svg.append("<path class=\"mark executor-added\" data-label=\"executor ").append(text(e.id()))
            .append(" added\" data-value=\"").append(e.addMs()).append("\" d=\"M").append(f(ax - 4)).append(' ')
            .append(y + 12).append("l4 -9l4 9z\" fill=\"#1f7a3a\"><title>executor ").append(text(e.id()))
            .append(" added at ").append(Instant.ofEpochMilli(e.addMs())).append("</title></path>\n");
      } else {
        moreAdds++;
        moreAdded.append('M').append(f(ax - 4)).append(' ').append(y + 12).append("l4 -9l4 9z");
      }
      if (e.removeMs() > 0) {
        double rx = x.apply(e.removeMs());
        if (own) {
          svg.append("<path class=\"mark executor-removed\" data-label=\"executor ").append(text(e.id()))
              .append(" removed\" data-value=\"").append(e.removeMs()).append("\" d=\"M").append(f(rx - 4)).append(' ')
              .append(y + 3).append("l8 9m0 -9l-8 9\" stroke=\"#b3261e\" stroke-width=\"2\"><title>executor ")
              .append(text(e.id())).append(" removed at ").append(Instant.ofEpochMilli(e.removeMs())).append(": ")
              .append(text(e.removeReason())).append("</title></path>\n");
        } else {
          moreRemovals++;
          moreRemoved.append('M').append(f(rx - 4)).append(' ').append(y + 3).append("l8 9m0 -9l-8 9");
        }
        rows.add(List.of("executor " + e.id() + " removed", Instant.ofEpochMilli(e.removeMs()).toString(), "",
            e.removeReason()));
      }
    }
    if (moreAdds > 0) {
      svg.append("<path class=\"mark executors-added\" data-label=\"").append(moreAdds)
          .append(" more executors added\" data-value=\"").append(moreAdds).append("\" d=\"").append(moreAdded)
          .append("\" fill=\"#1f7a3a\"><title>").append(moreAdds).append(" more executors added</title></path>\n");
    }
    if (moreRemovals > 0) {
      svg.append("<path class=\"mark executors-removed\" data-label=\"").append(moreRemovals)
          .append(" more executors removed\" data-value=\"").append(moreRemovals).append("\" d=\"").append(moreRemoved)
          .append("\" stroke=\"#b3261e\" stroke-width=\"2\"><title>").append(moreRemovals)
          .append(" more executors removed (see the data table)</title></path>\n");
    }
    y += ROW_H + 4;
    int top = 14;
    int failures = 0;
    for (Marker m : markers) {
      if (m.kind() != Marker.Kind.FAILURE || failures >= 20) {
        continue;
      }
      failures++;
      double mx = x.apply(m.timeMs());
      svg.append("<g class=\"mark failure\" data-label=\"").append(text(m.label())).append("\" data-value=\"")
          .append(m.timeMs()).append("\"><line x1=\"").append(f(mx)).append("\" x2=\"").append(f(mx)).append("\" y1=\"")
          .append(top).append("\" y2=\"").append(y).append("\" stroke=\"#b3261e\" stroke-dasharray=\"4 3\"/>")
          .append("<text x=\"").append(f(mx + 3)).append("\" y=\"").append(top + 8 + 11 * ((failures - 1) % 3))
          .append("\" fill=\"#b3261e\">").append(failures).append("</text><title>").append(failures).append(". ")
          .append(text(m.label())).append("</title></g>\n");
      rows.add(List.of("failure chain step " + failures, Instant.ofEpochMilli(m.timeMs()).toString(), "", m.label()));
    }
    // Time axis.
    svg.append("<line class=\"axis\" x1=\"").append(LABEL_W).append("\" x2=\"").append(f(LABEL_W + plotW))
        .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/>\n");
    for (int i = 0; i <= 5; i++) {
      double tx = LABEL_W + plotW * i / 5;
      svg.append("<text x=\"").append(f(tx)).append("\" y=\"").append(y + 14).append("\" text-anchor=\"middle\">")
          .append(Formats.humanMillis(span * i / 5.0)).append("</text>\n");
    }
    int height = y + 24;
    String id = nextId("timeline");
    String desc = "From " + Instant.ofEpochMilli(t0) + " to " + Instant.ofEpochMilli(t1) + " ("
        + Formats.humanMillis(span) + "): " + Formats.count(p.jobs().size(), "job") + ", "
        + Formats.count(p.stageAttempts(), "stage attempt")
        + (aggregateStages ? " (drawn as how many ran at once, with the longest " + MAX_ROWS / 2 + " as bars)" : "")
        + ", " + Formats.count(p.executors().size(), "executor") + " ("
        + p.executors().stream().filter(e -> e.removeMs() > 0).count() + " removed)"
        + (failures > 0 ? ", " + Formats.count(failures, "failure-chain event") + " marked" : "") + ".";
    rowsTable.append(table("Timeline data", List.of("what", "start", "duration", "detail"), rows));
    return figure("timeline", id, "Timeline of jobs, stages and executors", desc, WIDTH, height, svg.toString(),
        rowsTable.toString());
  }

  private static int lane(StringBuilder svg, String what, List<RunProfile.Span> spans, boolean aggregate,
      java.util.function.LongFunction<Double> x, long t0, long span, double plotW, int y, List<List<String>> rows) {
    svg.append("<text x=\"4\" y=\"").append(y + 11).append("\" font-weight=\"600\">").append(what).append(" (")
        .append(spans.size()).append(")</text>\n");
    y += ROW_H;
    if (!aggregate) {
      for (RunProfile.Span s : spans) {
        y = spanRow(svg, s, x, y);
        rows.add(List.of(s.id(), Instant.ofEpochMilli(s.startMs()).toString(), Formats.humanMillis(s.durationMs()),
            s.status() + ", " + Formats.count(s.tasks(), "task") + ": " + s.label()));
      }
      return y;
    }
    // How many ran on average in each interval (the overlap of the spans with it), 40 px high; the
    // peak is exact, from a sweep over every start and end.
    double[] running = new double[BUCKETS];
    double bucketMs = span / (double) BUCKETS;
    long[] starts = new long[spans.size()];
    long[] ends = new long[spans.size()];
    int k = 0;
    for (RunProfile.Span s : spans) {
      starts[k] = s.startMs();
      ends[k++] = Math.max(s.startMs(), s.endMs());
      int a = (int) Math.max(0, Math.min(BUCKETS - 1, (s.startMs() - t0) / bucketMs));
      int b = (int) Math.max(0, Math.min(BUCKETS - 1, (s.endMs() - t0) / bucketMs));
      for (int i = a; i <= b; i++) {
        double lo = Math.max(s.startMs(), t0 + i * bucketMs);
        double hi = Math.min(s.endMs(), t0 + (i + 1) * bucketMs);
        running[i] += Math.max(0, hi - lo) / bucketMs;
      }
    }
    java.util.Arrays.sort(starts);
    java.util.Arrays.sort(ends);
    int peak = 0;
    int now = 0;
    for (int i = 0, j = 0; i < starts.length; ) {
      // An end at the same instant as a start is taken first: touching spans did not overlap.
      if (j >= ends.length || starts[i] < ends[j]) {
        now++;
        i++;
        peak = Math.max(peak, now);
      } else {
        now--;
        j++;
      }
    }
    double top = 1e-9;
    for (double r : running) {
      top = Math.max(top, r);
    }
    int h = 40;
    svg.append("<g class=\"concurrency\" data-label=\"").append(what).append(" running at once\" data-value=\"")
        .append(peak).append("\">");
    // One path, a step outline over the buckets, rather than a rect per bucket: the same picture in
    // one element.
    int base = y + h;
    svg.append("<path d=\"M").append(f(x.apply(t0))).append(' ').append(base);
    for (int i = 0; i < BUCKETS; i++) {
      svg.append('V').append(f(base - h * running[i] / top)).append('H')
          .append(f(x.apply(t0 + Math.round((i + 1) * bucketMs))));
    }
    svg.append('V').append(base).append("Z\" fill=\"#9db4dc\"/>");
    svg.append("<title>at most ").append(peak).append(' ').append(what).append(" ran at once; the area is how many ran ")
        .append("on average in each interval</title></g>\n");
    svg.append("<text x=\"4\" y=\"").append(y + 26).append("\" class=\"muted\">running at once (peak ").append(peak)
        .append(")</text>\n");
    y += h + 6;
    List<RunProfile.Span> longest = spans.stream()
        .sorted(Comparator.comparingLong(RunProfile.Span::durationMs).reversed()).limit(MAX_ROWS / 2)
        .sorted(Comparator.comparingLong(RunProfile.Span::startMs)).toList();
    svg.append("<text x=\"4\" y=\"").append(y + 11).append("\">the ").append(longest.size()).append(" longest:</text>\n");
    y += ROW_H;
    for (RunProfile.Span s : longest) {
      y = spanRow(svg, s, x, y);
    }
    rows.add(List.of(what, "", "", Formats.count(spans.size(), "span") + ", at most " + peak + " at once; the " + longest.size()
        + " longest are drawn"));
    for (RunProfile.Span s : longest) {
      rows.add(List.of(s.id(), Instant.ofEpochMilli(s.startMs()).toString(), Formats.humanMillis(s.durationMs()),
          s.status() + ", " + Formats.count(s.tasks(), "task") + ": " + s.label()));
    }
    return y;
  }

  private static int spanRow(StringBuilder svg, RunProfile.Span s, java.util.function.LongFunction<Double> x, int y) {
    double a = x.apply(s.startMs());
    double w = Math.max(1.5, x.apply(s.endMs()) - a);
    String color = switch (s.status()) {
      case "FAILED" -> "#b3261e";
      case "ACTIVE", "RUNNING", "PENDING", "UNKNOWN" -> "#b26a00";
      default -> "#2458b3";
    };
    String label = s.id() + " " + s.label();
    svg.append("<text x=\"4\" y=\"").append(y + 11).append("\">").append(text(cut(label, 38))).append("</text>")
        .append("<rect class=\"bar span\" data-label=\"").append(text(s.id())).append("\" data-value=\"")
        .append(s.durationMs()).append("\" data-status=\"").append(text(s.status())).append("\" x=\"").append(f(a))
        .append("\" y=\"").append(y + 2).append("\" width=\"").append(f(w)).append("\" height=\"").append(ROW_H - 4)
        .append("\" fill=\"").append(color).append("\"><title>").append(text(label)).append(": ")
        .append(Formats.humanMillis(s.durationMs())).append(", ").append(Formats.count(s.tasks(), "task")).append(", ")
        .append(text(s.status())).append("</title></rect>\n");
    return y + ROW_H;
  }

  /**
   * A histogram of {@code h}, with the median and the slowest value (the straggler) marked.
   *
   * @param kind the figure's {@code data-chart} name, e.g. {@code task-durations}
   */
  public static String histogram(String title, String kind, RunProfile.Histogram h, double median, double max,
      String maxLabel) {
    return histogram(title, kind, h, median, max, maxLabel, WIDTH);
  }

  /** {@link #histogram(String, String, RunProfile.Histogram, double, double, String)}, {@code width} px wide. */
  public static String histogram(String title, String kind, RunProfile.Histogram h, double median, double max,
      String maxLabel, int width) {
    int plotH = 160;
    int left = 60;
    double plotW = width - left - 20;
    long lo = h.edges().get(0);
    long hi = Math.max(lo + 1, h.edges().get(h.edges().size() - 1));
    long peak = Math.max(1, h.counts().stream().mapToLong(Long::longValue).max().orElse(1));
    boolean bytes = h.unit().equals("bytes");
    StringBuilder svg = new StringBuilder();
    List<List<String>> rows = new ArrayList<>();
    int top = 24;
    double bw = plotW / h.counts().size();
    for (int i = 0; i < h.counts().size(); i++) {
      long c = h.counts().get(i);
      double bh = plotH * c / (double) peak;
      String range = value(h.edges().get(i), bytes) + " to " + value(h.edges().get(i + 1), bytes);
      svg.append("<rect class=\"bar bin\" data-label=\"").append(range).append("\" data-value=\"").append(c)
          .append("\" x=\"").append(f(left + i * bw + 0.5)).append("\" y=\"").append(f(top + plotH - bh))
          .append("\" width=\"").append(f(Math.max(1, bw - 1))).append("\" height=\"").append(f(bh))
          .append("\" fill=\"#7d9bd1\"><title>").append(Formats.count(c, "task")).append(": ").append(range).append("</title></rect>\n");
      if (c > 0) {
        rows.add(List.of(range, Long.toString(c)));
      }
    }
    java.util.function.DoubleFunction<Double> x = v -> left + plotW * Math.max(0, Math.min(1, (v - lo) / (double) (hi - lo)));
    svg.append("<g class=\"marker median\" data-label=\"median\" data-value=\"").append(num(median))
        .append("\"><line x1=\"").append(f(x.apply(median))).append("\" x2=\"").append(f(x.apply(median)))
        .append("\" y1=\"").append(top - 8).append("\" y2=\"").append(top + plotH)
        .append("\" stroke=\"#1f7a3a\" stroke-width=\"2\"/><text x=\"").append(f(x.apply(median) + 4)).append("\" y=\"")
        .append(top - 10).append("\" fill=\"#1f7a3a\">median ").append(value(median, bytes)).append("</text></g>\n");
    svg.append("<g class=\"marker straggler\" data-label=\"").append(text(maxLabel)).append("\" data-value=\"")
        .append(num(max)).append("\"><line x1=\"").append(f(x.apply(max))).append("\" x2=\"").append(f(x.apply(max)))
        .append("\" y1=\"").append(top + 4).append("\" y2=\"").append(top + plotH)
        .append("\" stroke=\"#b3261e\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/><text x=\"")
        .append(f(x.apply(max) - 4)).append("\" y=\"").append(top + 2).append("\" fill=\"#b3261e\" text-anchor=\"end\">")
        .append("max ").append(value(max, bytes)).append("</text></g>\n");
    svg.append("<line class=\"axis\" x1=\"").append(left).append("\" x2=\"").append(f(left + plotW)).append("\" y1=\"")
        .append(top + plotH).append("\" y2=\"").append(top + plotH).append("\"/>\n");
    for (int i = 0; i <= 4; i++) {
      double v = lo + (hi - lo) * i / 4.0;
      svg.append("<text x=\"").append(f(left + plotW * i / 4)).append("\" y=\"").append(top + plotH + 14)
          .append("\" text-anchor=\"middle\">").append(value(v, bytes)).append("</text>\n");
    }
    svg.append("<text x=\"").append(left - 6).append("\" y=\"").append(top + 8).append("\" text-anchor=\"end\">")
        .append(peak).append("</text><text x=\"").append(left - 6).append("\" y=\"").append(top + plotH)
        .append("\" text-anchor=\"end\">0</text>\n");
    // Axis titles: what a bar's height counts, and what the bins measure.
    svg.append("<text class=\"axis-title\" x=\"").append(f(left + plotW / 2)).append("\" y=\"").append(top + plotH + 30)
        .append("\" text-anchor=\"middle\">").append(bytes ? "bytes per task" : "task duration").append("</text>\n");
    svg.append("<text class=\"axis-title\" transform=\"rotate(-90)\" x=\"").append(-(top + plotH / 2))
        .append("\" y=\"14\" text-anchor=\"middle\">tasks</text>\n");
    String desc = Formats.count(h.total(), "task") + " from " + value(lo, bytes) + " to " + value(hi, bytes) + "; median "
        + value(median, bytes) + ", max " + value(max, bytes) + (median > 0 ? " (" + Formats.fixed(max / median, 1)
        + "x the median)" : "") + "; " + maxLabel + ".";
    return figure(kind, nextId(kind), title, desc, width, top + plotH + 38, svg.toString(),
        table(title + ": data", List.of("range", "tasks"), rows, 1));
  }

  /**
   * Horizontal bars, largest first (at most {@value #MAX_ROWS}; the rest are counted in the
   * caption). {@code unit} is {@code ms}, {@code bytes}, {@code share} (0..1) or {@code count}.
   */
  public static String bars(String title, String kind, List<Bar> bars, String unit) {
    return bars(title, kind, bars, unit, WIDTH);
  }

  /**
   * {@link #bars(String, String, List, String)}, {@code width} px wide; narrower than {@link
   * #WIDTH}, the labels get a narrower column (cut at 18 characters, in full in the tooltip and the
   * data table).
   */
  public static String bars(String title, String kind, List<Bar> bars, String unit, int width) {
    List<Bar> sorted = bars.stream().sorted(Comparator.comparingDouble(Bar::value).reversed()).toList();
    List<Bar> shown = sorted.subList(0, Math.min(MAX_ROWS, sorted.size()));
    double peak = Math.max(1e-9, shown.stream().mapToDouble(Bar::value).max().orElse(1));
    boolean narrow = width < WIDTH;
    int labelW = narrow ? 120 : LABEL_W;
    double plotW = width - labelW - (narrow ? 70 : 110);
    StringBuilder svg = new StringBuilder();
    List<List<String>> rows = new ArrayList<>();
    int y = 8;
    for (Bar b : shown) {
      double w = plotW * Math.max(0, b.value()) / peak;
      svg.append("<text x=\"4\" y=\"").append(y + 11).append("\">").append(text(cut(b.label(), narrow ? 18 : 36))).append("</text>")
          .append("<rect class=\"bar\" data-label=\"").append(text(b.label())).append("\" data-value=\"")
          .append(num(b.value())).append("\" x=\"").append(labelW).append("\" y=\"").append(y + 2).append("\" width=\"")
          .append(f(Math.max(b.value() > 0 ? 1 : 0, w))).append("\" height=\"").append(ROW_H - 4)
          .append("\" fill=\"#2458b3\"><title>").append(text(b.label())).append(": ").append(unit(b.value(), unit))
          .append("</title></rect><text x=\"").append(f(labelW + w + 4)).append("\" y=\"").append(y + 11).append("\">")
          .append(unit(b.value(), unit)).append("</text>\n");
      rows.add(List.of(b.label(), unit(b.value(), unit)));
      y += ROW_H;
    }
    String more = sorted.size() > shown.size() ? "; " + (sorted.size() - shown.size()) + " smaller ones not drawn" : "";
    String desc = Formats.count(bars.size(), "value") + (shown.isEmpty() ? "" : ", largest " + shown.get(0).label() + " at "
        + unit(shown.get(0).value(), unit)) + more + ".";
    return figure(kind, nextId(kind), title, desc, width, y + 8, svg.toString(), table(title + ": data",
        List.of("what", "value"), rows, 1));
  }

  /**
   * Paired bars: for each label, the baseline's value above the candidate's (at most {@value
   * #MAX_ROWS} labels, those with the largest difference when there are more).
   */
  public static String pairs(String title, String kind, List<Pair> pairs, String unit) {
    List<Pair> shown = pairs;
    if (pairs.size() > MAX_ROWS) {
      List<Pair> big = pairs.stream()
          .sorted(Comparator.comparingDouble((Pair p) -> Math.abs(p.candidate() - p.baseline())).reversed())
          .limit(MAX_ROWS).toList();
      shown = pairs.stream().filter(big::contains).toList();
    }
    double peak = Math.max(1e-9, shown.stream().mapToDouble(p -> Math.max(p.baseline(), p.candidate())).max().orElse(1));
    double plotW = WIDTH - LABEL_W - 110;
    StringBuilder svg = new StringBuilder();
    List<List<String>> rows = new ArrayList<>();
    svg.append("<rect x=\"").append(LABEL_W).append("\" y=\"4\" width=\"10\" height=\"10\" fill=\"#7a8699\"/><text x=\"")
        .append(LABEL_W + 14).append("\" y=\"13\">baseline</text><rect x=\"").append(LABEL_W + 90)
        .append("\" y=\"4\" width=\"10\" height=\"10\" fill=\"#2458b3\"/><text x=\"").append(LABEL_W + 104)
        .append("\" y=\"13\">this run</text>\n");
    int y = 22;
    for (Pair p : shown) {
      svg.append("<text x=\"4\" y=\"").append(y + 15).append("\">").append(text(cut(p.label(), 36))).append("</text>\n");
      y = pairBar(svg, p.label(), "baseline", p.baseline(), peak, plotW, y, "#7a8699", unit);
      y = pairBar(svg, p.label(), "candidate", p.candidate(), peak, plotW, y, "#2458b3", unit);
      y += 6;
      rows.add(List.of(p.label(), unit(p.baseline(), unit), unit(p.candidate(), unit),
          p.baseline() > 0 ? Formats.fixed(p.candidate() / p.baseline(), 2) + "x" : "n/a"));
    }
    String more = pairs.size() > shown.size() ? "; " + (pairs.size() - shown.size()) + " with smaller differences not drawn"
        : "";
    String desc = pairs.size() + " pairs (baseline, this run)" + more + ".";
    return figure(kind, nextId(kind), title, desc, WIDTH, y + 8, svg.toString(), table(title + ": data",
        List.of("what", "baseline", "this run", "ratio"), rows, 1, 2, 3));
  }

  private static int pairBar(StringBuilder svg, String label, String run, double v, double peak, double plotW, int y,
      String color, String unit) {
    double w = plotW * Math.max(0, v) / peak;
    svg.append("<rect class=\"bar ").append(run).append("\" data-label=\"").append(text(label)).append("\" data-run=\"")
        .append(run).append("\" data-value=\"").append(num(v)).append("\" x=\"").append(LABEL_W).append("\" y=\"")
        .append(y + 1).append("\" width=\"").append(f(Math.max(v > 0 ? 1 : 0, w))).append("\" height=\"10\" fill=\"")
        .append(color).append("\"><title>").append(text(label)).append(", ").append(run).append(": ")
        .append(unit(v, unit)).append("</title></rect><text x=\"").append(f(LABEL_W + w + 4)).append("\" y=\"")
        .append(y + 10).append("\">").append(unit(v, unit)).append("</text>\n");
    return y + 12;
  }

  /** A table (cells redacted and escaped; at most {@value #MAX_TABLE_ROWS} rows, then a row that says how many more). */
  public static String table(String caption, List<String> header, List<List<String>> rows, int... numeric) {
    return foldedTable(caption, header, rows, MAX_TABLE_ROWS, numeric);
  }

  /**
   * A table whose first {@code shown} rows are visible and the others (up to {@value
   * #MAX_TABLE_ROWS} in all) are in a collapsed {@code <details>} saying how many it holds, as a
   * second table with the same header; a row or two past {@code shown} are shown rather than folded.
   * Long cells show their start ({@link HtmlPage#clipped(String)}).
   */
  static String foldedTable(String caption, List<String> header, List<List<String>> rows, int shown, int... numeric) {
    List<List<String>> listed = rows.subList(0, Math.min(MAX_TABLE_ROWS, rows.size()));
    int visible = listed.size() <= shown + 2 ? listed.size() : shown;
    StringBuilder b = new StringBuilder();
    tablePart(b, caption, header, listed.subList(0, visible), visible == listed.size() ? rows.size() - listed.size() : 0,
        numeric);
    if (visible < listed.size()) {
      b.append("<details class=\"rows\"><summary>The other ").append(rows.size() - visible).append(" of ")
          .append(rows.size()).append(" rows</summary>\n");
      tablePart(b, "", header, listed.subList(visible, listed.size()), rows.size() - listed.size(), numeric);
      b.append("</details>\n");
    }
    return b.toString();
  }

  private static void tablePart(StringBuilder b, String caption, List<String> header, List<List<String>> rows,
      int notListed, int[] numeric) {
    b.append("<table>");
    if (!caption.isEmpty()) {
      b.append("<caption class=\"muted\">").append(text(caption)).append("</caption>");
    }
    b.append("<thead><tr>");
    for (int i = 0; i < header.size(); i++) {
      b.append("<th scope=\"col\"").append(isNumeric(i, numeric) ? " class=\"num\"" : "").append('>')
          .append(text(header.get(i))).append("</th>");
    }
    b.append("</tr></thead><tbody>\n");
    for (List<String> r : rows) {
      b.append("<tr>");
      for (int i = 0; i < r.size(); i++) {
        b.append("<td").append(isNumeric(i, numeric) ? " class=\"num\"" : "").append('>')
            .append(HtmlPage.clipped(r.get(i))).append("</td>");
      }
      b.append("</tr>\n");
    }
    if (notListed > 0) {
      b.append("<tr><td colspan=\"").append(header.size()).append("\" class=\"muted\">").append(notListed)
          .append(" more rows not listed</td></tr>\n");
    }
    b.append("</tbody></table>\n");
  }

  private static boolean isNumeric(int i, int[] numeric) {
    for (int n : numeric) {
      if (n == i) {
        return true;
      }
    }
    return false;
  }

  /**
   * Two charts made {@link #HALF_WIDTH} wide, side by side (one above the other on a narrow
   * screen, where each scales down): half the page height of two full-width charts.
   */
  public static String sideBySide(String left, String right) {
    return "<div class=\"pair\">\n" + left + right + "</div>\n";
  }

  private static String figure(String kind, String id, String title, String desc, int width, int height, String marks,
      String data) {
    return "<figure class=\"chart\" data-chart=\"" + kind + "\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
        + "aria-labelledby=\"" + id + "-t " + id + "-d\" width=\"" + width + "\" height=\"" + height + "\" viewBox=\"0 0 "
        + width + " " + height + "\" style=\"max-width:100%;height:auto\">\n<title id=\"" + id + "-t\">" + text(title)
        + "</title>\n<desc id=\"" + id + "-d\">" + text(desc) + "</desc>\n" + marks + "</svg>\n<figcaption>"
        + text(title) + ": " + text(desc) + "</figcaption>\n<details><summary>The numbers behind this chart</summary>\n"
        + data + "</details>\n</figure>\n";
  }

  private static String value(double v, boolean bytes) {
    return bytes ? Formats.humanBytes(v) : Formats.humanMillis(v);
  }

  private static String unit(double v, String unit) {
    return switch (unit) {
      case "ms" -> Formats.humanMillis(v);
      case "bytes" -> Formats.humanBytes(v);
      case "share" -> Formats.fixed(100 * v, 1) + "%";
      default -> v == Math.rint(v) ? Long.toString((long) v) : Formats.fixed(v, 2);
    };
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6g", v);
  }

  private static String f(double v) {
    return Formats.fixed(v, 1);
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}

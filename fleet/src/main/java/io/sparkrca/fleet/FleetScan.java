package io.sparkrca.fleet;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A fleet scan on one machine: finds every log under a root ({@link FleetLogs}), analyses them on
 * several threads ({@link FleetAnalysis}, each analysis within the {@link MemoryBudget}, so large
 * logs do not run side by side past the heap), and hands the rows to a sink in the listing's order
 * (by path) as they become available, with the {@link FleetSummary} at the end. With a {@link
 * FleetIndex} it is incremental (a log analysed before, unchanged, is not analysed again: its row
 * is reused) and resumable (each row is in the index as soon as it is analysed, so a stopped scan
 * picks up where it stopped). A log that cannot be analysed is an error row; the scan goes on.
 *
 * <pre>{@code
 * FleetScan.Result r = FleetScan.builder().threads(2).index(Path.of("index.jsonl")).build()
 *     .run("/tmp/spark-events", row -> System.out.println(row.toJson()));
 * System.err.println(r.analysed() + " analysed, " + r.reused() + " unchanged");
 * }</pre>
 *
 * <p>Memory: at most {@code max(1024, 64 x threads)} logs are queued, analysed or waiting to be
 * handed on in order (each a small row or a queued task; the analyses themselves are bounded by the
 * {@link MemoryBudget}); the summary keeps counts and a few fields per run; the index holds its rows.
 */
public final class FleetScan {
  private final FleetAnalysis analysis;
  private final int threads;
  private final Optional<Path> index;
  private final FleetOptions.Chosen options;
  private final Listener listener;

  private FleetScan(Builder b, FleetOptions.Chosen options) {
    this.analysis = b.analysis;
    this.threads = b.threads;
    this.index = b.index;
    this.options = options;
    this.listener = b.listener;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What a scan reports as it goes, for progress displays. Called from several threads. */
  public interface Listener {
    /**
     * The scan is about to analyse {@code logs} logs of {@code bytes} bytes in all; {@code reused}
     * more are unchanged since the index saw them.
     */
    default void started(int logs, long bytes, int reused) {}

    /** One log of {@code bytes} bytes was analysed into {@code row}. */
    default void analysed(FleetRow row, long bytes) {}
  }

  /**
   * What a scan did.
   *
   * @param summary the summary of every row handed on
   * @param rows how many rows were handed on
   * @param analysed how many logs were analysed now
   * @param reused how many rows came unchanged from the index
   * @param skippedInProgress in-progress logs left out
   * @param errors error rows among the rows
   * @param bytesAnalysed the bytes of the logs analysed now
   * @param elapsed how long the scan took
   */
  public record Result(FleetSummary summary, int rows, int analysed, int reused, int skippedInProgress, int errors,
      long bytesAnalysed, Duration elapsed) {
    public Result {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(elapsed, "elapsed");
    }
  }

  /**
   * Finds the logs under {@code root} and scans them.
   *
   * @throws SparkRcaException when the root cannot be listed or holds no log, the index cannot be
   *     read or written, or the sink fails
   */
  public Result run(String root, Consumer<FleetRow> sink) {
    return run(FleetLogs.discover(analysis.sources(), root, options.maxDepth()), sink);
  }

  /** Scans the logs of a listing made before. */
  public Result run(FleetLogs.Listing listing, Consumer<FleetRow> sink) {
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(sink, "sink");
    long t0 = System.nanoTime();
    FleetSummary.Builder summary = FleetSummary.builder(listing.root());
    listing.notes().forEach(summary::note);
    if (listing.skippedFiles() > 0) {
      summary.note(listing.skippedFiles() + " files under the root are not event logs by their names and were skipped");
    }
    try (FleetIndex idx = index.map(FleetIndex::open).orElse(null)) {
      if (idx != null && idx.badLines() > 0) {
        summary.note(idx.badLines() + " lines of the index " + idx.file() + " were not rows (a scan stopped mid-write?) "
            + "and were ignored");
      }
      List<Slot> plan = new ArrayList<>();
      int skipped = 0;
      long bytes = 0;
      int toAnalyse = 0;
      for (FleetLog log : listing.logs()) {
        if (options.leavesOut(log)) {
          skipped++;
          continue;
        }
        Optional<FleetRow> known = idx == null || options.reanalyze() ? Optional.empty() : idx.current(log);
        plan.add(new Slot(log, known.orElse(null)));
        if (known.isEmpty()) {
          toAnalyse++;
          bytes += log.sizeBytes();
        }
      }
      if (skipped > 0) {
        summary.note(skipped + " logs of applications still running were skipped");
      }
      listener.started(toAnalyse, bytes, plan.size() - toAnalyse);
      int[] counts = scan(plan, idx, summary, sink);
      if (idx != null) {
        idx.compact(plan.stream().map(s -> io.sparkrca.core.redaction.Redactor.redactUri(s.log.uri())).toList());
      }
      return new Result(summary.build(), plan.size(), toAnalyse, plan.size() - toAnalyse, skipped, counts[0], bytes,
          Duration.ofNanos(System.nanoTime() - t0));
    }
  }

  /** One log of the plan: its row from the index, or the analysis under way. */
  private static final class Slot {
    final FleetLog log;
    final FleetRow known;
    CompletableFuture<FleetRow> future;

    Slot(FleetLog log, FleetRow known) {
      this.log = log;
      this.known = known;
    }
  }

  private int[] scan(List<Slot> plan, FleetIndex idx, FleetSummary.Builder summary, Consumer<FleetRow> sink) {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "sparkrca-scan-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    int errors = 0;
    AtomicBoolean stopped = new AtomicBoolean();
    // Rows are handed on in the listing's order, so a slow log at the head holds back the rows
    // finished after it. The window is wide enough that the other threads keep working meanwhile
    // (a log 1,000 times slower than its neighbours is the only one that idles them). What waits
    // is a small row or a queued task; the analyses' memory is bounded by the MemoryBudget, not here.
    int window = Math.max(1024, 64 * threads);
    try {
      ArrayDeque<Slot> waiting = new ArrayDeque<>();
      int next = 0;
      while (next < plan.size() || !waiting.isEmpty()) {
        while (next < plan.size() && waiting.size() < window) {
          Slot s = plan.get(next++);
          if (s.known == null) {
            s.future = CompletableFuture.supplyAsync(() -> analyse(s.log, idx, stopped), pool);
          }
          waiting.addLast(s);
        }
        Slot head = waiting.pollFirst();
        FleetRow row = head.known != null ? head.known : await(head);
        if (row.isError()) {
          errors++;
        }
        summary.add(row);
        sink.accept(row);
      }
    } finally {
      // A scan stopped by its sink (or a failure) records nothing more in the index once run()
      // has returned: a resumed scan must find exactly what was recorded before the stop.
      stopped.set(true);
      pool.shutdownNow();
      try {
        if (!pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
          org.slf4j.LoggerFactory.getLogger(FleetScan.class)
              .warn("fleet scan: an analysis still running 30 s after the scan stopped was left behind");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return new int[] {errors};
  }

  private FleetRow analyse(FleetLog log, FleetIndex idx, AtomicBoolean stopped) {
    FleetRow row = analysis.analyze(log);
    if (idx != null && !stopped.get()) {
      idx.record(row);
    }
    listener.analysed(row, log.sizeBytes());
    return row;
  }

  private static FleetRow await(Slot s) {
    try {
      return s.future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("the scan was interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof SparkRcaException x) {
        throw x; // the index could not be written: the scan cannot keep its promise to resume
      }
      return FleetRow.error(s.log, "the analysis failed (" + c + ")");
    }
  }

  /** Builds a {@link FleetScan}. */
  public static final class Builder extends FleetOptions<Builder> {
    private FleetAnalysis analysis = FleetAnalysis.standard();
    private int threads = Runtime.getRuntime().availableProcessors();
    private Optional<Path> index = Optional.empty();
    private Listener listener = new Listener() {};

    private Builder() {}

    /** How each log is analysed (default {@link FleetAnalysis#standard()}). */
    public Builder analysis(FleetAnalysis analysis) {
      this.analysis = Objects.requireNonNull(analysis, "analysis");
      return this;
    }

    /** How many logs are analysed at once, at most (default: the processors). */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new InvalidRequestException("a scan needs at least 1 thread, not " + threads);
      }
      this.threads = threads;
      return this;
    }

    /** The index file that makes the scan incremental and resumable (default: none). */
    public Builder index(Path file) {
      this.index = Optional.of(Objects.requireNonNull(file, "file"));
      return this;
    }

    /** Who hears of progress. */
    public Builder listener(Listener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    @Override
    protected Builder self() {
      return this;
    }

    public FleetScan build() {
      return new FleetScan(this, chosen());
    }
  }
}

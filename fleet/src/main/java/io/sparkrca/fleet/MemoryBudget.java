package io.sparkrca.fleet;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.Compression;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How much heap the analyses running side by side may take: each analysis holds a lease of its
 * log's estimated need until it ends, and waits (first come, first served) while the leases held
 * leave too little room. A log whose estimate exceeds the whole budget runs alone. So small logs
 * run in parallel, and large ones do not run side by side past the heap.
 *
 * <p>The estimate follows the replay's measured footprint: about 4% of the uncompressed log at its
 * peak (a 3.47 GB, 1,000,000-task log peaks at about 145 MiB; see {@code benchmarks/RESULTS.md}),
 * doubled for the analysis and rounded up, plus a fixed part. A compressed log is taken to expand
 * as much as a large event log of its codec does ({@link #expansion}): large logs compress far
 * better than small ones, and it is the large ones the budget must not underestimate.
 *
 * <pre>{@code
 * MemoryBudget budget = MemoryBudget.ofBytes(256L << 20);
 * try (MemoryBudget.Lease lease = budget.acquire(MemoryBudget.estimate(log))) {
 *   // analyse the log
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #shared()} is one budget for the whole JVM, so analyses started by
 * different callers (a scan's threads, a Spark executor's tasks) share it.
 */
public final class MemoryBudget {
  /** The share of the maximum heap that {@link #shared()} lets analyses take. */
  public static final double SHARED_HEAP_SHARE = 0.6;
  /** Heap taken to be held per uncompressed byte of log, at the analysis's peak. */
  public static final double HEAP_PER_LOG_BYTE = 0.08;
  /** Heap taken to be held by any analysis, however small its log. */
  public static final long BASE_BYTES = 8L << 20;

  private static final MemoryBudget SHARED =
      new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * SHARED_HEAP_SHARE));

  private final long capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private long inUse;
  private long peak;
  private int running;
  private int peakRunning;

  private MemoryBudget(long capacity) {
    this.capacity = capacity;
  }

  /** The JVM's budget: {@value #SHARED_HEAP_SHARE} of the maximum heap. */
  public static MemoryBudget shared() {
    return SHARED;
  }

  /**
   * A budget of {@code capacity} bytes.
   *
   * @throws InvalidRequestException when {@code capacity} is not positive
   */
  public static MemoryBudget ofBytes(long capacity) {
    if (capacity <= 0) {
      throw new InvalidRequestException("a memory budget must be positive, not " + capacity + " bytes");
    }
    return new MemoryBudget(capacity);
  }

  /** The estimated heap an analysis of {@code log} needs at its peak. */
  public static long estimate(FleetLog log) {
    int expansion = 1;
    for (String f : log.files()) {
      expansion = Math.max(expansion, Compression.fromExtension(f).map(MemoryBudget::expansion).orElse(1));
    }
    double expanded = (double) log.sizeBytes() * expansion;
    return BASE_BYTES + (long) Math.min(Long.MAX_VALUE / 2.0, expanded * HEAP_PER_LOG_BYTE);
  }

  /**
   * How many times larger than its file an event log of this codec is taken to be: a little above
   * what large real logs measure. Spark's logs of 7-11 MB from the testkit expand 36-39 times from
   * zstd, 29-31 from gzip and 11-14 from lz4 (64 KB blocks; snappy and lzf, also block codecs,
   * compress no better), the benchmarks' 3.47 GB log 22 times from zstd, while logs of 100 KB expand
   * only 2.5-4 times: overestimating a small log costs nothing next to {@link #BASE_BYTES}.
   */
  public static int expansion(Compression codec) {
    return switch (codec) {
      case NONE -> 1;
      case ZSTD -> 40;
      case GZIP -> 32;
      case LZ4, SNAPPY, LZF -> 15;
    };
  }

  /** The budget in bytes. */
  public long capacity() {
    return capacity;
  }

  /** The bytes leased now. */
  public long inUse() {
    lock.lock();
    try {
      return inUse;
    } finally {
      lock.unlock();
    }
  }

  /** The most bytes ever leased at once. */
  public long peakInUse() {
    lock.lock();
    try {
      return peak;
    } finally {
      lock.unlock();
    }
  }

  /** The most leases ever held at once. */
  public int peakLeases() {
    lock.lock();
    try {
      return peakRunning;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until {@code bytes} (at most the whole budget) fit beside the leases held, behind every
   * earlier caller still waiting, and leases them.
   *
   * @throws SparkRcaException when the thread is interrupted while it waits
   */
  public Lease acquire(long bytes) {
    long want = Math.max(0, Math.min(bytes, capacity));
    Object ticket = new Object();
    lock.lock();
    try {
      queue.addLast(ticket);
      try {
        while (queue.peekFirst() != ticket || inUse + want > capacity) {
          changed.await();
        }
      } catch (InterruptedException e) {
        queue.remove(ticket);
        changed.signalAll();
        Thread.currentThread().interrupt();
        throw new SparkRcaException("interrupted while waiting for memory to analyse a log", e);
      }
      queue.removeFirst();
      inUse += want;
      running++;
      peak = Math.max(peak, inUse);
      peakRunning = Math.max(peakRunning, running);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    return new Lease(this, want);
  }

  private void release(long bytes) {
    lock.lock();
    try {
      inUse -= bytes;
      running--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A lease of part of the budget; closing it gives the bytes back (once). */
  public static final class Lease implements AutoCloseable {
    private final MemoryBudget budget;
    private final long bytes;
    private boolean closed;

    private Lease(MemoryBudget budget, long bytes) {
      this.budget = budget;
      this.bytes = bytes;
    }

    /** The bytes leased. */
    public long bytes() {
      return bytes;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        budget.release(bytes);
      }
    }
  }
}

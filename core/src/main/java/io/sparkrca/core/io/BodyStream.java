package io.sparkrca.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP response body as an {@link InputStream} with a low-speed limit: reads fail once they
 * have waited {@code readTimeout} in all for the next {@value #MIN_BYTES} bytes, instead of hanging
 * (the JDK's own {@code BodyHandlers.ofInputStream()} waits forever). That covers a server that
 * stops sending and one that trickles (a byte a second never lets a plain idle timeout fire); only
 * time spent waiting counts, not time the reader spends between reads. Demand is one buffer list at
 * a time, so at most one list is ever queued. Closing before the end cancels the subscription, which
 * aborts the transfer: a search that stops early does not download the rest of the object. With an
 * exchange deadline, a read that would wait past it fails too, however steadily bytes arrive until
 * then: the whole answer comes within the deadline or not at all.
 */
final class BodyStream extends InputStream implements HttpResponse.BodySubscriber<InputStream> {
  private static final Object END = new Object();
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
  /** At least this many bytes must arrive within each {@code readTimeout} of waiting. */
  static final int MIN_BYTES = 1024;

  private final long readTimeoutNanos;
  /** When the attempt must have ended ({@link System#nanoTime()}), when it has a deadline. */
  private final Optional<Long> deadlineNanos;
  private final Optional<Duration> exchangeTimeout;
  private final Runnable onClose;
  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();
  private Iterator<ByteBuffer> buffers = List.<ByteBuffer>of().iterator();
  private ByteBuffer current = EMPTY;
  private boolean ended;
  private volatile boolean closed;
  /** Waiting spent, and bytes received, since {@link #MIN_BYTES} last arrived. */
  private long windowWaitedNanos;
  private long windowBytes;

  BodyStream(Duration readTimeout) {
    this(readTimeout, Optional.empty(), 0, () -> { });
  }

  /**
   * @param exchangeTimeout the bound of the whole attempt, when it has one
   * @param startNanos when the attempt started ({@link System#nanoTime()})
   * @param onClose run once, when the stream is closed
   */
  BodyStream(Duration readTimeout, Optional<Duration> exchangeTimeout, long startNanos, Runnable onClose) {
    this.readTimeoutNanos = Objects.requireNonNull(readTimeout, "readTimeout").toNanos();
    this.exchangeTimeout = exchangeTimeout;
    this.deadlineNanos = exchangeTimeout.map(t -> startNanos + t.toNanos());
    this.onClose = onClose;
  }

  // --- BodySubscriber --------------------------------------------------------------------------

  @Override
  public CompletionStage<InputStream> getBody() {
    return CompletableFuture.completedStage(this);
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    if (!subscription.complete(s) || closed) {
      s.cancel();
      return;
    }
    s.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    queue.add(item);
  }

  @Override
  public void onError(Throwable throwable) {
    queue.add(throwable);
  }

  @Override
  public void onComplete() {
    queue.add(END);
  }

  // --- InputStream -----------------------------------------------------------------------------

  @Override
  public int read() throws IOException {
    return SingleByteRead.from(this);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!current.hasRemaining() && !advance()) {
      return -1;
    }
    int n = Math.min(len, current.remaining());
    current.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    return current.remaining();
  }

  /** Moves to the next non-empty buffer; false at the end of the body. */
  private boolean advance() throws IOException {
    while (true) {
      if (closed) {
        throw new IOException("stream closed");
      }
      if (ended) {
        return false;
      }
      if (buffers.hasNext()) {
        current = buffers.next();
        if (current.hasRemaining()) {
          return true;
        }
        continue;
      }
      Object item = queue.poll();
      if (item == null) {
        long left = Math.min(readTimeoutNanos - windowWaitedNanos, untilDeadline());
        long start = System.nanoTime();
        try {
          item = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          close();
          throw new java.io.InterruptedIOException("interrupted while reading the response body");
        } finally {
          windowWaitedNanos += System.nanoTime() - start;
        }
      }
      if (item == null && untilDeadline() <= 0) {
        close();
        throw new HttpTimeoutException("no complete answer within " + duration(exchangeTimeout.orElseThrow()));
      }
      if (item == null) {
        close();
        long ms = Duration.ofNanos(readTimeoutNanos).toMillis();
        throw new HttpTimeoutException(windowBytes == 0
            ? "no data received for " + ms + " ms while reading the response body"
            : "only " + windowBytes + " bytes received in " + ms + " ms of waiting while reading the response body "
                + "(at least " + MIN_BYTES + " are expected): the server sends too slowly or has stalled");
      }
      if (item == END) {
        ended = true;
        return false;
      }
      if (item instanceof Throwable t) {
        ended = true;
        throw t instanceof IOException io ? io : new IOException(t.getMessage(), t);
      }
      @SuppressWarnings("unchecked")
      List<ByteBuffer> list = (List<ByteBuffer>) item;
      for (ByteBuffer b : list) {
        windowBytes += b.remaining();
      }
      if (windowBytes >= MIN_BYTES) {
        windowBytes = 0;
        windowWaitedNanos = 0;
      }
      buffers = list.iterator();
      // Ask for the next list now so the network keeps flowing while this one is consumed.
      subscription.getNow(null).request(1);
    }
  }

  /** Nanoseconds left until the deadline; {@link Long#MAX_VALUE} without one. */
  private long untilDeadline() {
    return deadlineNanos.map(d -> d - System.nanoTime()).orElse(Long.MAX_VALUE);
  }

  /** {@code d} in whole seconds ("60 s"), or in milliseconds where it is not whole ("1500 ms"). */
  static String duration(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onClose.run();
    current = EMPTY;
    Flow.Subscription s = subscription.getNow(null);
    if (s != null && !ended) {
      s.cancel();
    }
    queue.clear();
    queue.add(END); // wakes a reader blocked on another thread; it then sees closed
  }
}

package io.sparkrca.gcp.internal;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An HTTP answer's body as bytes, at most {@code cap} of them: a body that declares or sends more
 * is cancelled where it passes the cap (the rest is never read) and fails with {@link TooLarge}.
 *
 * <pre>{@code
 * HttpResponse<byte[]> r = http.send(request, CappedBody.handler(64L << 20));
 * }</pre>
 */
public final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
  /** The body passed the cap; {@link #declared} is the length the server declared, when it did. */
  public static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
    private final long cap;

    TooLarge(long cap, OptionalLong declared) {
      super(declared.isPresent()
          ? "the answer declares " + declared.getAsLong() + " bytes, more than the " + cap + " allowed"
          : "the answer runs past the " + cap + " bytes allowed");
      this.cap = cap;
    }

    /** The most bytes an answer may have. */
    public long cap() {
      return cap;
    }
  }

  /** The most a Java array holds. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final long cap;
  private final OptionalLong declared;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private byte[] buf;
  private int size;
  private Flow.Subscription subscription;

  private CappedBody(long cap, OptionalLong declared) {
    this.cap = Math.min(cap, MAX_ARRAY);
    this.declared = declared;
    // Sized from the declared length when it is within the cap (no copies as it grows).
    long first = declared.isPresent() && declared.getAsLong() <= this.cap ? declared.getAsLong() : 8192;
    this.buf = new byte[(int) Math.min(this.cap, first)];
  }

  /** A body handler whose bodies are capped at {@code cap} bytes. */
  public static HttpResponse.BodyHandler<byte[]> handler(long cap) {
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be positive: " + cap);
    }
    return info -> {
      OptionalLong length = info.headers().firstValueAsLong("Content-Length");
      return new CappedBody(cap, length.isPresent() && length.getAsLong() >= 0 ? length : OptionalLong.empty());
    };
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (declared.isPresent() && declared.getAsLong() > cap) {
      s.cancel();
      result.completeExceptionally(new TooLarge(cap, declared));
      return;
    }
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      int n = b.remaining();
      if (size + (long) n > cap) {
        subscription.cancel();
        result.completeExceptionally(new TooLarge(cap, declared));
        return;
      }
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, (int) Math.min(cap, Math.max(size + (long) n, 2L * buf.length)));
      }
      b.get(buf, size, n);
      size += n;
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(size == buf.length ? buf : Arrays.copyOf(buf, size));
  }
}

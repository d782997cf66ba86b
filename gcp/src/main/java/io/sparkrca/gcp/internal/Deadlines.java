package io.sparkrca.gcp.internal;

import com.google.api.core.ApiFunction;
import com.google.api.gax.rpc.UnaryCallSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * The deadline of every unary gRPC call of a Google client (Dataproc, Cloud Logging): the whole
 * call, retries included, ends within the settings' timeout, whatever the method's own default is
 * (some allow 15 minutes), so a stalled endpoint costs the timeout, never an open-ended wait.
 *
 * <pre>{@code
 * BatchControllerSettings.Builder b = BatchControllerSettings.newBuilder();
 * b.applyToAllUnaryMethods(Deadlines.within(Duration.ofSeconds(60)));
 * }</pre>
 */
public final class Deadlines {
  private Deadlines() {}

  /** Sets each method's total timeout, and each attempt's, to {@code timeout}; the retry codes stay the method's. */
  public static ApiFunction<UnaryCallSettings.Builder<?, ?>, Void> within(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return method -> {
      method.setRetrySettings(method.getRetrySettings().toBuilder().setLogicalTimeout(timeout).build());
      return null;
    };
  }
}

package io.sparkrca.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.redaction.Redactor;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one read-only API call and turns its failure into an {@link EvidenceGap} that names the
 * request (verb, resource, namespace) and says what to do: RBAC grants for a 403, the
 * credentials for a 401, the kubeconfig's server for an unreachable one, its CA for a TLS failure.
 * A call after the time budget is spent is not made and becomes a gap too.
 */
public final class Calls {
  private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

  private final String server;
  private final long deadlineNanos;
  private final Duration budget;
  private final Duration requestTimeout;
  private final List<EvidenceGap> gaps;
  private boolean budgetGap;

  /** Calls against {@code server} that record their failures in {@code gaps}. */
  public Calls(String server, Duration budget, Duration requestTimeout, List<EvidenceGap> gaps) {
    this.server = server;
    this.budget = budget;
    this.requestTimeout = requestTimeout;
    this.deadlineNanos = System.nanoTime() + budget.toNanos();
    this.gaps = gaps;
  }

  /** One request: {@code verb} on {@code resource} (in {@code namespace}, "" when cluster-scoped). */
  public record Request(String verb, String resource, String namespace, String path) {
    /** {@code list pods in namespace spark}. */
    public String describe() {
      return verb + " " + resource + (namespace.isEmpty() ? " (cluster-scoped)" : " in namespace " + namespace);
    }
  }

  /** The gaps recorded so far. */
  public List<EvidenceGap> gaps() {
    return gaps;
  }

  /** Whether there is time left for another request. */
  public boolean timeLeft() {
    return System.nanoTime() < deadlineNanos;
  }

  /** The time budget left (zero when spent). */
  public Duration remaining() {
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  /** The time budget for the whole read. */
  public Duration budget() {
    return budget;
  }

  /** How long one request may take. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** Runs {@code call}; on failure records a gap about {@code kind} and returns empty. */
  public <T> Optional<T> run(EvidenceKind kind, Request r, Supplier<T> call) {
    return attempt(kind, r, false, call).value();
  }

  /**
   * Runs {@code call} where a 404 is an answer, not a failure (a node scaled away, a CRD that is
   * not installed): it is returned as {@link Result#notFound()} without a gap, and the caller says
   * what it means.
   */
  public <T> Result<T> runAllowingNotFound(EvidenceKind kind, Request r, Supplier<T> call) {
    return attempt(kind, r, true, call);
  }

  private <T> Result<T> attempt(EvidenceKind kind, Request r, boolean notFoundIsAnswer, Supplier<T> call) {
    if (!timeLeft()) {
      if (!budgetGap) {
        budgetGap = true;
        gaps.add(new EvidenceGap(kind, uri(r), GapReason.TIMEOUT, "not requested: the time budget of "
            + budget.toSeconds() + " s for the Kubernetes API was spent; this and later requests were skipped",
            "raise the Kubernetes time budget, or name the namespace so that fewer requests are needed"));
      }
      return new Result<>(Optional.empty(), false, "");
    }
    try {
      T value = call.get();
      if (value == null && notFoundIsAnswer) {
        return new Result<>(Optional.empty(), true, "HTTP 404: not found");
      }
      return new Result<>(Optional.ofNullable(value), false, "");
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 && notFoundIsAnswer) {
        return new Result<>(Optional.empty(), true, statusMessage(e));
      }
      LOG.debug("{} failed", r.describe(), e);
      gaps.add(gap(kind, r, e));
    } catch (RuntimeException e) {
      LOG.debug("{} failed", r.describe(), e);
      gaps.add(gap(kind, r, e));
    }
    return new Result<>(Optional.empty(), false, "");
  }

  /**
   * What a call gave: its value, or that the API server answered 404 (with its message).
   *
   * @param value the answer, empty on failure or 404
   * @param notFound whether the answer was 404
   * @param notFoundMessage the API server's message for a 404
   */
  public record Result<T>(Optional<T> value, boolean notFound, String notFoundMessage) {}

  /** Where a request went, for the gap: {@code kubernetes https://api:6443/api/v1/namespaces/spark/pods}. */
  public String uri(Request r) {
    return Redactor.redactUri(server.replaceAll("/+$", "") + r.path());
  }

  /** The gap for a failed request. */
  public EvidenceGap gap(EvidenceKind kind, Request r, Throwable failure) {
    String uri = uri(r);
    if (failure instanceof KubernetesClientException k && k.getCode() > 0) {
      String message = statusMessage(k);
      return switch (k.getCode()) {
        case 403 -> new EvidenceGap(kind, uri, GapReason.ACCESS_DENIED, "HTTP 403 Forbidden: " + message,
            "the credentials may not " + r.describe() + ": grant '" + r.verb() + "' on '" + r.resource() + "'"
                + (r.namespace().isEmpty() ? " with a ClusterRole (nodes are cluster-scoped)" : " with a Role in namespace "
                    + r.namespace()) + " (check it with: kubectl auth can-i " + r.verb() + " " + r.resource()
                + (r.namespace().isEmpty() ? "" : " -n " + r.namespace()) + ")");
        case 401 -> new EvidenceGap(kind, uri, GapReason.ACCESS_DENIED, "HTTP 401 Unauthorized: " + message,
            "the API server rejected the kubeconfig's credentials: refresh them (an expired token or exec "
                + "credential; kubectl refreshes it on its next call) or pick another context");
        case 404 -> new EvidenceGap(kind, uri, GapReason.NOT_FOUND, "HTTP 404: " + message,
            "check the namespace and the name");
        case 400 -> new EvidenceGap(kind, uri, GapReason.ERROR, "HTTP 400 Bad Request: " + message,
            "the API server refused the request as asked");
        default -> new EvidenceGap(kind, uri, k.getCode() == 504 ? GapReason.TIMEOUT : GapReason.ERROR,
            "HTTP " + k.getCode() + ": " + message, "try again; the API server answered " + k.getCode() + " to "
                + r.describe());
      };
    }
    Throwable root = failure;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      root = t;
      if (isTimeout(t)) {
        return new EvidenceGap(kind, uri, GapReason.TIMEOUT, r.describe() + " got no answer within "
            + requestTimeout.toMillis() + " ms", "the API server is slow or unreachable from here; raise the request "
            + "timeout or try again");
      }
      if (t instanceof SSLException || t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathValidatorException) {
        return new EvidenceGap(kind, uri, GapReason.ERROR, "TLS failure: " + Redactor.standard().redactText(
            String.valueOf(t.getMessage())), "the API server's certificate is not trusted: give the cluster's CA in "
            + "the kubeconfig (certificate-authority or certificate-authority-data); TLS verification is never "
            + "turned off");
      }
      if (t instanceof ConnectException || t instanceof UnknownHostException
          || t instanceof java.nio.channels.UnresolvedAddressException) {
        return new EvidenceGap(kind, uri, GapReason.ERROR, "cannot reach the API server: " + t.getClass().getSimpleName()
            + (t.getMessage() == null ? "" : ": " + Redactor.standard().redactText(t.getMessage())),
            "check the kubeconfig's server address and the network path to it");
      }
    }
    String m = root.getMessage() == null ? root.getClass().getSimpleName()
        : root.getClass().getSimpleName() + ": " + root.getMessage();
    return new EvidenceGap(kind, uri, GapReason.ERROR, r.describe() + " failed: " + Redactor.standard().redactText(m),
        "check access to the API server");
  }

  private static boolean isTimeout(Throwable t) {
    String m = String.valueOf(t.getMessage()).toLowerCase(java.util.Locale.ROOT);
    return t instanceof java.net.http.HttpTimeoutException || t instanceof java.util.concurrent.TimeoutException
        || t instanceof java.net.SocketTimeoutException
        || (t instanceof InterruptedIOException && !(t instanceof java.net.SocketException))
        || m.contains("timed out") || m.contains("timeout");
  }

  /** The API server's own message (from its Status body), redacted. */
  public static String statusMessage(KubernetesClientException k) {
    Status s = k.getStatus();
    String m = s != null && s.getMessage() != null && !s.getMessage().isBlank() ? s.getMessage() : k.getMessage();
    return Redactor.standard().redactText(m == null ? "" : m.strip());
  }
}

package io.sparkrca.core.io;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The messages of {@link HttpTransport}'s failures, each naming the call ({@code GET} and the URL
 * without credentials) and saying what to do: a request without an answer, an error status, and
 * retries that ended.
 */
final class HttpErrors {
  /** Why retries of a retryable status ended. */
  enum RetriesOver {
    /** Every attempt was used. */
    ATTEMPTS,
    /** The server asks to wait longer than one {@code Retry-After} may. */
    RETRY_AFTER,
    /** The waits of the request would pass what one {@code Retry-After} may ask for. */
    WAITED
  }

  private HttpErrors() {}

  /** The message for a request that failed without an HTTP answer. */
  static SparkRcaException failure(String call, IOException e, int attempts) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException
          || t instanceof SSLPeerUnverifiedException
          || t instanceof CertificateException) {
        return new SparkRcaException(
            call + ": TLS certificate verification failed ("
                + Redactor.redactUri(String.valueOf(t.getMessage())) + "). If a proxy on your network "
                + "inspects TLS traffic, or the server uses a private CA, add its root certificate to "
                + "the trusted CA files (it is added to the system trust); verification is never "
                + "disabled",
            e);
      }
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return new SparkRcaException(
            call + ": cannot resolve the host name; check the URL and your DNS or proxy "
                + "settings", e);
      }
      if (t instanceof java.net.ConnectException) {
        return new SparkRcaException(
            call + ": connection refused, nothing listens at that host and port; check "
                + "the URL and that the server is up", e);
      }
    }
    String what = e instanceof HttpTimeoutException ? "timed out" : "failed";
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new SparkRcaException(
        call + ": the request " + what + " after " + attempts + " attempt"
            + (attempts == 1 ? "" : "s") + " (" + Redactor.redactUri(detail) + "); check the URL, "
            + "that the server is up, and the network", e);
  }

  /**
   * The message for retries of a retryable status that ended.
   *
   * @param attempts attempts made
   * @param waited waits of the request so far
   * @param wait the wait the next retry would take (the server's {@code Retry-After}, or backoff)
   * @param detail the start of the answer's body, as {@link #snippet} gives it
   */
  static SparkRcaException retriesOver(String call, int status, RetriesOver why, int attempts, Duration waited,
      Duration wait, Duration maxRetryAfter, String detail) {
    switch (why) {
      case RETRY_AFTER:
        return new SparkRcaException(
            call + ": HTTP " + status + reason(status) + "; the server asks to retry after "
                + wait.toSeconds() + " s, longer than the "
                + maxRetryAfter.toSeconds() + " s this reader waits. Try again later");
      case WAITED:
        return new SparkRcaException(
            call + ": HTTP " + status + reason(status) + " after " + attempts + " attempts and "
                + waited.toSeconds() + " s of waiting; the server asks to wait " + wait.toSeconds()
                + " s more, past the " + maxRetryAfter.toSeconds() + " s this reader waits for one "
                + "request" + detail + ". Try again later");
      default:
        return new SparkRcaException(
            call + ": HTTP " + status + reason(status) + " after " + attempts
                + " attempts" + detail + ". The server is overloaded or failing; try again later");
    }
  }

  /** The exception for a final error status: 401, 403, 404 and 410 by name, the rest as refused. */
  static RuntimeException status(String call, String name, int status, String detail, boolean sentCredentials) {
    switch (status) {
      case 401:
        return new AccessDeniedException(
            name,
            "HTTP 401 Unauthorized" + detail,
            sentCredentials
                ? "the credentials sent were rejected; check that the token is valid and not expired"
                : "the server requires credentials; send them as a header of the HTTP settings "
                    + "(HttpSettings.builder().header(\"Authorization\", \"Bearer TOKEN\"), or "
                    + "bearerTokenFromEnv(VAR) to read the token from the environment)");
      case 403:
        return new AccessDeniedException(
            name,
            "HTTP 403 Forbidden" + detail,
            (sentCredentials
                    ? "the credentials were accepted but may not read this object"
                    : "no credentials were sent and the server refuses anonymous reads")
                + "; ask for read access to it (for Cloud Storage, roles/storage.objectViewer) or "
                + "check the URL");
      case 404:
      case 410:
        return new InputNotFoundException(
            name,
            "HTTP " + status + detail + "; check the URL"
                + (name.contains("driveroutput")
                    ? " (a Dataproc driveroutput prefix is not an object: pass the prefix itself, "
                        + "and its numbered parts are found)"
                    : ""));
      default:
        return new UnsupportedInputException(
            call + ": HTTP " + status + reason(status) + detail + "; the server refused "
                + "the request. Check the URL and the headers");
    }
  }

  /** The refusal to send credentials in the clear. */
  static SparkRcaException plainHttpCredentials(String host) {
    return new SparkRcaException(
        "refusing to send credentials over plain http to " + host + ": anyone on the "
            + "network path could read them. Use the https URL, or allow plain http for this "
            + "host explicitly in the HTTP settings");
  }

  static String reason(int status) {
    switch (status) {
      case 408: return " Request Timeout";
      case 429: return " Too Many Requests";
      case 500: return " Internal Server Error";
      case 502: return " Bad Gateway";
      case 503: return " Service Unavailable";
      case 504: return " Gateway Timeout";
      default: return "";
    }
  }

  /** The start of an error body, as a short quoted suffix, with secrets redacted. */
  static String snippet(InputStream body) {
    try {
      byte[] head = body.readNBytes(300);
      String text = new String(head, StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
      if (text.isEmpty() || text.startsWith("<")) {
        return "";
      }
      return ": \"" + Redactor.redactUri(text) + "\"";
    } catch (IOException e) {
      return "";
    }
  }
}

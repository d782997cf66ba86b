package io.sparkrca.core.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.UnknownHostException;
import java.net.http.HttpHeaders;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * When {@link HttpTransport} tries again and how long it waits: which failures are worth another
 * attempt, exponential backoff with jitter, and the server's {@code Retry-After}.
 */
final class RetryPolicy {
  private final HttpSettings settings;

  RetryPolicy(HttpSettings settings) {
    this.settings = settings;
  }

  /** Exponential backoff with "equal jitter": between half and all of initial * 2^attempt. */
  Duration backoff(int attempt) {
    long base = settings.initialBackoff().toMillis();
    long cap = settings.maxBackoff().toMillis();
    long exp = attempt >= 30 ? cap : Math.min(cap, base << attempt);
    long half = exp / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(exp - half + 1));
  }

  /** Waits {@code wait} before retrying {@code name}, with the settings' sleeper. */
  void pause(Duration wait, String name) throws InterruptedIOException {
    try {
      settings.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry " + name);
    }
  }

  /** Parses {@code Retry-After}: delay-seconds or an HTTP date. */
  static Optional<Duration> retryAfter(HttpHeaders headers) {
    Optional<String> v = headers.firstValue("Retry-After");
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String s = v.get().trim();
    try {
      long seconds = Long.parseLong(s);
      return Optional.of(Duration.ofSeconds(Math.max(0, seconds)));
    } catch (NumberFormatException e) {
      try {
        ZonedDateTime when = ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(ZonedDateTime.now(when.getZone()), when);
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
      } catch (DateTimeParseException ignored) {
        return Optional.empty();
      }
    }
  }

  /** Whether an interrupt, as opposed to a timeout that Java reports as an interrupted transfer. */
  static boolean isInterrupt(IOException e) {
    return e instanceof InterruptedIOException && !(e instanceof HttpTimeoutException)
        && !(e instanceof java.net.SocketTimeoutException);
  }

  /** Whether a failed request may succeed if tried again. */
  static boolean isRetryable(IOException e) {
    if (isInterrupt(e)) {
      return false;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException
          || t instanceof SSLPeerUnverifiedException
          || t instanceof CertificateException
          || t instanceof UnknownHostException
          || t instanceof UnresolvedAddressException
          || t instanceof java.net.ConnectException && !(t instanceof java.net.http.HttpConnectTimeoutException)) {
        // A refused connection means nothing listens there: retrying only delays the answer.
        return false;
      }
    }
    return true;
  }
}

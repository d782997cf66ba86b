package io.sparkrca.gcp.internal;

import io.sparkrca.core.redaction.Redactor;
import java.time.Duration;

/** Small text helpers for error messages. */
public final class Messages {
  private Messages() {}

  /** The first line of {@code s}, redacted and at most 300 characters; "" for null. */
  public static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.strip();
    int nl = t.indexOf('\n');
    if (nl >= 0) {
      t = t.substring(0, nl).strip();
    }
    if (t.length() > 300) {
      t = t.substring(0, 300) + " ...";
    }
    return Redactor.standard().redactText(t);
  }

  /**
   * The error text of a call that did not end within {@code timeout}: {@code "CALL timed out: WHAT
   * within 60 s MORE; "} and what to do. The words "timed out" make it a timeout gap in evidence
   * ({@link io.sparkrca.core.evidence.GapReason#of}).
   */
  public static String timedOut(String call, String what, Duration timeout, String more) {
    return call + " timed out: " + what + " within " + duration(timeout) + more + "; check the endpoint and the "
        + "network, or allow each call more time (--gcp-timeout, GcpSettings.timeout)";
  }

  /** {@code d} in whole seconds ("60 s"), or in milliseconds where it is not whole ("1500 ms"). */
  public static String duration(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}

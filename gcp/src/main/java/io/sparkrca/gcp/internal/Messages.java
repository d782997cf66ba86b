package io.sparkrca.gcp.internal;

import io.sparkrca.core.redaction.Redactor;

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
}

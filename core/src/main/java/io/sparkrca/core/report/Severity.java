package io.sparkrca.core.report;

import io.sparkrca.core.error.InvalidRequestException;

/**
 * How much a finding matters, lowest first.
 *
 * <pre>{@code
 * boolean serious = finding.severity().isAtLeast(Severity.HIGH);
 * }</pre>
 */
public enum Severity {
  /** Worth knowing; no action needed on its own. */
  INFO,
  /** A minor inefficiency. */
  LOW,
  /** A real inefficiency or risk worth fixing. */
  MEDIUM,
  /** A likely cause of slowness or failure. */
  HIGH,
  /** The application failed or is about to. */
  CRITICAL;

  /** Whether this severity is {@code other} or worse. */
  public boolean isAtLeast(Severity other) {
    return compareTo(other) >= 0;
  }

  /** The severity named {@code text}, case-insensitively; an exception listing the names if none. */
  public static Severity parse(String text) {
    java.util.Objects.requireNonNull(text, "text");
    for (Severity s : values()) {
      if (s.name().equalsIgnoreCase(text.trim())) {
        return s;
      }
    }
    throw new InvalidRequestException(
        "unknown severity '" + text + "'; use one of INFO, LOW, MEDIUM, HIGH, CRITICAL");
  }
}

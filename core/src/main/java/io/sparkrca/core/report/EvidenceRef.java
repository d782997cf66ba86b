package io.sparkrca.core.report;

import java.util.Objects;

/**
 * Where a finding's support is: a line of a log or of the event log, a History Server path, a
 * metric, a configuration property, code, a cluster record.
 *
 * <pre>{@code
 * finding.evidence().forEach(r -> System.out.println(r.display()));
 * }</pre>
 *
 * @param kind what sort of evidence
 * @param source the log, event log, API path, property name or file (credentials removed)
 * @param line the 1-based line in {@code source}, 0 when it has none
 * @param detail what is there, e.g. the log line (redacted, capped at {@value #MAX_DETAIL} characters)
 */
public record EvidenceRef(Kind kind, String source, long line, String detail) {
  /** The most characters of detail kept. */
  public static final int MAX_DETAIL = 2000;

  /** Kinds of evidence. */
  public enum Kind {
    EVENT_LOG,
    LOG,
    API,
    METRIC,
    CONFIG,
    CODE,
    CLUSTER
  }

  public EvidenceRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(detail, "detail");
    if (detail.length() > MAX_DETAIL) {
      detail = detail.substring(0, MAX_DETAIL) + " ...[truncated]";
    }
  }

  /** {@code source:line: detail}. */
  public String display() {
    return source + (line > 0 ? ":" + line : "") + (detail.isEmpty() ? "" : ": " + detail);
  }
}

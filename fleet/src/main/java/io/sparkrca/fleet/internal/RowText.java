package io.sparkrca.fleet.internal;

import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.fleet.FleetRow;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Text of fleet rows: the partition date, cleaned messages, CSV and Markdown cells. */
public final class RowText {
  /** The longest message or title kept in a row. */
  public static final int MAX_TEXT = 2000;

  private RowText() {}

  /** The UTC day of {@code start}, else of {@code modified}, else {@code "unknown"}. */
  public static String date(Optional<Instant> start, Optional<Instant> modified) {
    Optional<Instant> t = start.isPresent() ? start : modified;
    return t.map(i -> i.atOffset(ZoneOffset.UTC).toLocalDate().toString()).orElse("unknown");
  }

  /** Redacted, on one line, at most {@value #MAX_TEXT} characters (saying so when cut). */
  public static String clean(String text) {
    String s = Redactor.standard().redactText(text == null ? "" : text).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT) + "... (cut at " + MAX_TEXT + " characters)";
  }

  /** A number of core-hours rounded to 6 decimals. */
  public static double hours(double value) {
    if (!Double.isFinite(value) || value <= 0) {
      return 0;
    }
    return Math.round(value * 1e6) / 1e6;
  }

  /** The number without an exponent ({@code 0.000123}, {@code 12.5}, {@code 0}). */
  public static String plain(double value) {
    return value == 0 ? "0" : BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  public static String csv(FleetRow r) {
    Optional<FleetRow.Cause> c = r.rootCause();
    List<String> cells = List.of(
        r.path(), Long.toString(r.sizeBytes()), str(r.modifiedTime()), Boolean.toString(r.inProgress()), r.date(),
        r.appId().orElse(""), r.attemptId().orElse(""), r.name().orElse(""), r.user().orElse(""),
        r.sparkVersion().orElse(""), str(r.startTime()), str(r.endTime()), str(r.durationMs()),
        str(r.outcome()), str(r.verdict()), c.map(x -> x.kind().name()).orElse(""),
        c.map(x -> x.confidence().name()).orElse(""), c.map(FleetRow.Cause::title).orElse(""),
        c.map(x -> x.culpritStages().stream().map(String::valueOf).collect(Collectors.joining(" "))).orElse(""),
        Long.toString(r.wastedMs()), plain(r.wastedCoreHours()), plain(r.coreHours()),
        r.topRecommendation().orElse(""), r.error().orElse(""));
    StringBuilder sb = new StringBuilder();
    for (String cell : cells) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(csvCell(cell));
    }
    return sb.toString();
  }

  /** A CSV cell, quoted when it holds a comma, quote or line break. */
  static String csvCell(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static String str(Optional<?> v) {
    return v.map(String::valueOf).orElse("");
  }
}

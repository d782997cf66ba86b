package io.sparkrca.fleet;

import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.fleet.internal.FleetJson;
import io.sparkrca.fleet.internal.RowText;
import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One application of a fleet, as {@code sparkrca scan} and the {@code sparkrca-spark} job write it:
 * which log, which application, how it ended, its root cause (as {@code sparkrca rca} names it:
 * {@code appId} is the report's {@code application.id}, {@code rootCause.kind} its {@code
 * rootCause.kind}), what it cost and wasted, and the first thing to do. A log that could not be
 * analysed is an error row: the log's fields and {@link #error()}, nothing else.
 *
 * <p>Wasted time: for a failed application, its whole run (nothing it computed was delivered); for
 * one that finished with a problem, the wall time the root cause's finding explains; for a healthy
 * one, none. Core-hours are the executors' cores times the time each was up (the driver's, in local
 * mode), wasted core-hours the same share of them as the wasted time is of the run.
 *
 * <pre>{@code
 * FleetRow row = FleetAnalysis.standard().analyze(log);
 * row.rootCause().ifPresent(c -> System.out.println(row.appId().orElse("?") + " " + c.kind()));
 * System.out.println(row.toJson()); // one line of JSON Lines
 * }</pre>
 *
 * <p>Serializable (as its {@link #toJson() JSON line}), so that a Spark job can keep rows in its
 * cache, spill them or ship them as they are, and read each one once.
 *
 * @param path the log (a file or a rolling directory), credentials removed
 * @param sizeBytes the log's size
 * @param modifiedTime when the log last changed, when the store tells
 * @param inProgress whether the application was still running when the log was read
 * @param date the UTC day of the application's start ({@code yyyy-MM-dd}), or of the log's last
 *     change when the start is unknown, or {@code "unknown"}; the Spark job's Parquet partition
 * @param appId the application id
 * @param attemptId the attempt, when the application has attempts
 * @param name the application name
 * @param user who ran it
 * @param sparkVersion the Spark version that wrote the log
 * @param startTime when it started
 * @param endTime when it ended
 * @param durationMs how long it ran
 * @param outcome how it ended
 * @param verdict healthy, a problem, or undetermined
 * @param rootCause the root cause
 * @param wastedMs the wall time wasted (see above)
 * @param wastedCoreHours the core-hours wasted (see above), to 6 decimals
 * @param coreHours the core-hours the application held, to 6 decimals
 * @param topRecommendation the first recommendation's action
 * @param error why the log could not be analysed (an error row)
 */
public record FleetRow(
    String path,
    long sizeBytes,
    Optional<Instant> modifiedTime,
    boolean inProgress,
    String date,
    Optional<String> appId,
    Optional<String> attemptId,
    Optional<String> name,
    Optional<String> user,
    Optional<String> sparkVersion,
    Optional<Instant> startTime,
    Optional<Instant> endTime,
    Optional<Long> durationMs,
    Optional<ApplicationRef.Outcome> outcome,
    Optional<Verdict> verdict,
    Optional<Cause> rootCause,
    long wastedMs,
    double wastedCoreHours,
    double coreHours,
    Optional<String> topRecommendation,
    Optional<String> error) implements Serializable {

  /**
   * The columns of CSV output and of the Parquet table ({@link FleetParquetWriter}'s and the Spark
   * job's), in order ({@code rootCause.*} are one struct there).
   */
  public static final List<String> COLUMNS = List.of(
      "path", "sizeBytes", "modifiedTime", "inProgress", "date", "appId", "attemptId", "name", "user",
      "sparkVersion", "startTime", "endTime", "durationMs", "outcome", "verdict", "rootCause.kind",
      "rootCause.confidence", "rootCause.title", "rootCause.culpritStages", "wastedMs", "wastedCoreHours",
      "coreHours", "topRecommendation", "error");

  /**
   * The root cause, as the report's {@code rootCause} names it.
   *
   * @param kind the cause
   * @param confidence how sure
   * @param title its short title
   * @param culpritStages the culprit stages, ascending
   */
  public record Cause(RootCauseKind kind, Confidence confidence, String title, List<Integer> culpritStages) {
    public Cause {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(confidence, "confidence");
      Objects.requireNonNull(title, "title");
      culpritStages = List.copyOf(culpritStages);
    }
  }

  public FleetRow {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(modifiedTime, "modifiedTime");
    Objects.requireNonNull(date, "date");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(attemptId, "attemptId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(sparkVersion, "sparkVersion");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(endTime, "endTime");
    Objects.requireNonNull(durationMs, "durationMs");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(rootCause, "rootCause");
    Objects.requireNonNull(topRecommendation, "topRecommendation");
    Objects.requireNonNull(error, "error");
  }

  /** The error row of a log that could not be analysed. */
  public static FleetRow error(FleetLog log, String message) {
    return new FleetRow(Redactor.redactUri(log.uri()), log.sizeBytes(), log.modifiedTime(), log.inProgress(),
        RowText.date(Optional.empty(), log.modifiedTime()), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), 0, 0, 0, Optional.empty(), Optional.of(RowText.clean(message)));
  }

  /** Whether this is an error row. */
  public boolean isError() {
    return error.isPresent();
  }

  /** Whether this row still describes {@code log}: the same path, size, modification time and state. */
  public boolean describes(FleetLog log) {
    return path.equals(Redactor.redactUri(log.uri())) && sizeBytes == log.sizeBytes() && inProgress == log.inProgress()
        && modifiedTime.isPresent() && modifiedTime.equals(log.modifiedTime());
  }

  /** The row as one line of JSON (JSON Lines), fields in {@link #COLUMNS} order, absent values {@code null}. */
  public String toJson() {
    return FleetJson.writeRow(this);
  }

  /** The row written by {@link #toJson()}. */
  public static FleetRow fromJson(String json) {
    return FleetJson.readRow(json);
  }

  /** Written as its JSON line: {@code Optional} fields are not serializable, and the line is the row's stable form. */
  private Object writeReplace() {
    return new Line(toJson());
  }

  /** A row in serialized form: its JSON line, read back with {@link #fromJson(String)}. */
  private record Line(String json) implements Serializable {
    private Object readResolve() {
      return fromJson(json);
    }
  }

  /** The CSV header line for {@link #toCsv()}. */
  public static String csvHeader() {
    return String.join(",", COLUMNS);
  }

  /** The header of a Markdown table of rows (see {@link #toMarkdownRow()}). */
  public static String markdownHeader() {
    return io.sparkrca.fleet.internal.SummaryMarkdown.tableHeader();
  }

  /** The row as one line of a Markdown table (text redacted and escaped; an error row shows its error). */
  public String toMarkdownRow() {
    return io.sparkrca.fleet.internal.SummaryMarkdown.tableRow(this);
  }

  /** The row as one CSV record (RFC 4180 quoting; stages separated by spaces). */
  public String toCsv() {
    return RowText.csv(this);
  }
}

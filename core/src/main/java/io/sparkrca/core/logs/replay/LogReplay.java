package io.sparkrca.core.logs.replay;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.logs.replay.internal.LogModel;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Rebuilds an application from the logs its driver and executors wrote, when there is no event log:
 * spark-submit's output (also inside an Airflow task log), a Dataproc {@code driveroutput}, {@code
 * yarn logs -applicationId} output, {@code kubectl logs} of a driver or executor pod (with {@code
 * --timestamps} or {@code --prefix}), a Databricks {@code log4j-active.log}, Spark 4's structured
 * JSON logs, or a Cloud Logging export. Each log is read in one streaming pass (any codec, any URI
 * scheme {@link ByteSources} reads), its layout told from its first lines, whose it is told by its
 * content; the result answers like any {@link io.sparkrca.core.app.SparkApplication}, with what
 * the lines give and nothing else, and says what logs cannot show in its {@link
 * LogApplication#completeness()}.
 *
 * <pre>{@code
 * LogApplication app = LogReplay.builder().sources(ByteSources.defaults()).build()
 *     .read(List.of("driver.log", "executor-logs/"));   // files, directories, globs
 * app.stages(StageQuery.all()).forEach(s -> System.out.println(s.stageId() + " " + s.status()));
 * }</pre>
 *
 * <p>Damaged logs (cut off, garbage, lines that are too long) give a partial application with the
 * damage in its completeness notes; a log that cannot be read at all throws a {@link
 * io.sparkrca.core.error.SparkRcaException} naming it. Instances are immutable.
 */
public final class LogReplay {
  /** The default line cap: 1 MiB (a longer line is cut there and counted). */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
  /** The default task rows kept per stage attempt. */
  public static final int DEFAULT_MAX_TASK_ROWS_PER_STAGE = 100_000;
  /** The default most files read from the directories and globs named. */
  public static final int DEFAULT_MAX_FILES = 10_000;

  private final LogModel.Settings settings;

  private LogReplay(Builder b) {
    this.settings = new LogModel.Settings(b.sources, b.maxLineBytes, b.maxTaskRowsPerStage, b.zone, b.maxFiles, b.redact);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads the logs named (files, directories, local globs, object prefixes, a Dataproc {@code
   * driveroutput} prefix): the driver's and any executors', in any order.
   *
   * @throws io.sparkrca.core.error.SparkRcaException when a name gives no file, or a file cannot be read
   */
  public LogApplication read(List<String> logs) {
    Objects.requireNonNull(logs, "logs");
    return new LogApplication(LogModel.read(settings, logs));
  }

  /**
   * Streams the records of one log, normalised whatever its layout, to {@code visitor} until it
   * returns false; returns the sections the log held (one, or one per YARN container or pod).
   * Their text is redacted unless the builder said otherwise ({@link Builder#redact}).
   *
   * <pre>{@code
   * LogReplay.builder().build().forEachRecord("yarn-logs.txt", r -> {
   *   if (r.level().equals("ERROR")) System.out.println(r.section() + " " + r.text());
   *   return true;
   * });
   * }</pre>
   */
  public List<LogSection> forEachRecord(String log, Predicate<LogRecord> visitor) {
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(visitor, "visitor");
    return LogModel.forEachRecord(settings, log, visitor);
  }

  /**
   * Settings of a {@link LogReplay}.
   *
   * <pre>{@code
   * LogReplay replay = LogReplay.builder().zone(ZoneId.of("America/New_York")).maxTaskRowsPerStage(10_000).build();
   * }</pre>
   */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
    private int maxTaskRowsPerStage = DEFAULT_MAX_TASK_ROWS_PER_STAGE;
    private ZoneId zone = ZoneOffset.UTC;
    private int maxFiles = DEFAULT_MAX_FILES;
    private boolean redact = true;

    private Builder() {}

    /**
     * Whether the records {@link LogReplay#forEachRecord} hands out have secrets masked (default
     * true, as {@link io.sparkrca.core.logs.LogStream} does). The application's texts (task errors,
     * events, exceptions, the outcome) are always masked.
     */
    public Builder redact(boolean redact) {
      this.redact = redact;
      return this;
    }

    /** Where logs are read from (default {@link ByteSources#defaults()}). */
    public Builder sources(ByteSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /**
     * The zone of times written without one (log4j's default layout): the zone of the JVMs that
     * wrote the logs, which the lines do not say. Default UTC.
     */
    public Builder zone(ZoneId zone) {
      this.zone = Objects.requireNonNull(zone, "zone");
      return this;
    }

    /** Lines longer than this are cut there, and counted (default 1 MiB, 1 KiB to 256 MiB). */
    public Builder maxLineBytes(int bytes) {
      if (bytes < 1024 || bytes > LineReader.MAX_LINE_CAP) {
        throw new InvalidRequestException("the line cap must be between 1024 bytes and " + LineReader.MAX_LINE_CAP
            + " bytes, was " + bytes);
      }
      this.maxLineBytes = bytes;
      return this;
    }

    /**
     * Task rows kept per stage attempt (default {@value LogReplay#DEFAULT_MAX_TASK_ROWS_PER_STAGE}):
     * counts and durations of a stage stay exact, its task list covers the rows kept, failed and
     * killed attempts are always kept, and the completeness says how many were not.
     */
    public Builder maxTaskRowsPerStage(int rows) {
      if (rows < 0) {
        throw new InvalidRequestException("maxTaskRowsPerStage must be 0 or more (0 keeps only failed tasks), was " + rows);
      }
      this.maxTaskRowsPerStage = rows;
      return this;
    }

    /** The most files read from the directories and globs named (default {@value LogReplay#DEFAULT_MAX_FILES}). */
    public Builder maxFiles(int files) {
      if (files < 1) {
        throw new InvalidRequestException("maxFiles must be at least 1, was " + files);
      }
      this.maxFiles = files;
      return this;
    }

    public LogReplay build() {
      return new LogReplay(this);
    }
  }
}

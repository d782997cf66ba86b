package io.sparkrca.spark;

import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.analysis.rca.RcaRunner;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkFirehoseListener;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskGettingResult;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.util.JsonProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Spark listener that diagnoses the application it listens to: when the application ends (or
 * fails), it writes the RCA report as JSON and Markdown ({@code <appId>.rca.json}, {@code
 * <appId>.rca.md}) to a configured directory in any Hadoop file system, and logs the one-line root
 * cause in the driver log. Every run leaves its own diagnosis, with no History Server and no
 * second job.
 *
 * <pre>{@code
 * spark-submit --jars sparkrca-spark.jar \
 *   --conf spark.extraListeners=io.sparkrca.spark.RcaListener \
 *   --conf spark.sparkrca.reportDir=gs://bucket/sparkrca/reports \
 *   app.jar
 * }</pre>
 *
 * <p>How: it records the events it is given (as Spark's own event log writes them, in Spark's
 * JSON, to a temporary file on the driver's disk, so memory stays bounded), and at the end analyses
 * that record with the same engine as {@code sparkrca rca}. It needs no event log to be enabled.
 * Settings:
 *
 * <ul>
 *   <li>{@code spark.sparkrca.reportDir}: where the reports go (default: {@code spark.eventLog.dir}
 *       when event logging is on, else the reports are only logged);
 *   <li>{@code spark.sparkrca.maxRecordBytes}: past this size the record keeps jobs and stages but
 *       no more task events (default 1 GiB), and the driver log says so;
 *   <li>{@code spark.sparkrca.analysisTimeoutSeconds}: the longest the analysis may take at the
 *       end (default 120 s).
 * </ul>
 *
 * <p>A listener must never break the application it watches: every failure here is logged, once,
 * and swallowed.
 */
public class RcaListener extends SparkFirehoseListener {
  /** The standard engine without the HTML charts' profile: the listener writes JSON and Markdown. */
  private static final RcaRunner RUNNER = RcaRunner.builder().engine(RcaEngine.builder().charts(false).build()).build();
  /** The setting naming the report directory. */
  public static final String REPORT_DIR = "spark.sparkrca.reportDir";
  /** The setting bounding the record's size. */
  public static final String MAX_RECORD_BYTES = "spark.sparkrca.maxRecordBytes";
  /** The setting bounding the analysis time. */
  public static final String ANALYSIS_TIMEOUT = "spark.sparkrca.analysisTimeoutSeconds";
  /** What starts the line this listener logs, so that it can be found in a driver log. */
  public static final String LOG_PREFIX = "sparkrca root cause:";

  private static final Logger LOG = LoggerFactory.getLogger(RcaListener.class);

  private final Optional<String> reportDir;
  private final long maxRecordBytes;
  private final Duration timeout;
  private final Configuration hadoop;
  private java.nio.file.Path record;
  private BufferedWriter out;
  private long written;
  private long droppedTaskEvents;
  private boolean failed;
  private String appId = "unknown-app";
  private Optional<String> attemptId = Optional.empty();

  /** The listener Spark creates from {@code spark.extraListeners}. */
  public RcaListener(SparkConf conf) {
    Objects.requireNonNull(conf, "conf");
    Optional<String> dir = Optional.ofNullable(conf.get(REPORT_DIR, null)).filter(s -> !s.isBlank());
    if (dir.isEmpty() && conf.getBoolean("spark.eventLog.enabled", false)) {
      dir = Optional.ofNullable(conf.get("spark.eventLog.dir", null)).filter(s -> !s.isBlank());
    }
    this.reportDir = dir;
    this.maxRecordBytes = conf.getLong(MAX_RECORD_BYTES, 1L << 30);
    this.timeout = Duration.ofSeconds(conf.getLong(ANALYSIS_TIMEOUT, 120));
    this.hadoop = SparkHadoopUtil.get().newConfiguration(conf);
    if (reportDir.isEmpty()) {
      LOG.warn("sparkrca: no {} (nor spark.eventLog.dir) is set: the root cause will only be logged", REPORT_DIR);
    }
  }

  @Override
  public void onEvent(SparkListenerEvent event) {
    if (failed) {
      return;
    }
    try {
      if (event instanceof SparkListenerExecutorMetricsUpdate || event instanceof SparkListenerBlockUpdated
          || !event.logEvent()) {
        return; // what Spark's own event log leaves out by default
      }
      if (event instanceof SparkListenerApplicationStart s) {
        appId = s.appId().isDefined() ? s.appId().get() : appId;
        attemptId = s.appAttemptId().isDefined() ? Optional.of(s.appAttemptId().get()) : Optional.empty();
      }
      boolean taskEvent = event instanceof SparkListenerTaskEnd || event instanceof SparkListenerTaskStart
          || event instanceof SparkListenerTaskGettingResult;
      if (taskEvent && written > maxRecordBytes) {
        if (droppedTaskEvents++ == 0) {
          LOG.warn("sparkrca: the event record passed {} bytes ({}); task events are no longer recorded, so the "
              + "report's task metrics will be partial", maxRecordBytes, MAX_RECORD_BYTES);
        }
        return;
      }
      write(JsonProtocol.sparkEventToJsonString(event));
      if (event instanceof SparkListenerApplicationEnd) {
        finish();
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      failed = true;
      LOG.warn("sparkrca: could not record the application's events, so it will not be diagnosed: {}", e.toString());
      closeQuietly();
    }
  }

  private void write(String json) throws IOException {
    if (out == null) {
      record = Files.createTempFile("sparkrca-events-", ".json");
      record.toFile().deleteOnExit();
      out = Files.newBufferedWriter(record, StandardCharsets.UTF_8);
      // The event log's first line: the replay reads the Spark version from it.
      line("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"" + sparkVersion() + "\"}");
    }
    line(json);
  }

  private void line(String s) throws IOException {
    out.write(s);
    out.write('\n');
    written += s.length() + 1;
  }

  /** Closes the record, analyses it, writes and logs the result. */
  private void finish() throws IOException {
    out.close();
    out = null;
    try {
      Evidence evidence = EvidenceCollector.builder().loadServiceProviders(false).timeout(timeout)
          .application(record.toString()).build().collect();
      RcaReport report = RUNNER.run(evidence);
      String name = fileStem();
      Optional<String> where = Optional.empty();
      if (reportDir.isPresent()) {
        String dir = reportDir.get().endsWith("/") ? reportDir.get() : reportDir.get() + "/";
        writeText(dir + name + ".rca.json", report.toJson());
        writeText(dir + name + ".rca.md", report.toMarkdown());
        where = Optional.of(Redactor.redactUri(dir + name + ".rca.{json,md}"));
      }
      LOG.warn("{} {} {} ({}): {}{}", LOG_PREFIX, appId, report.rootCause().kind(),
          report.rootCause().confidence().name().toLowerCase(Locale.ROOT).replace('_', ' '),
          Redactor.redactUri(report.rootCause().title()), where.map(w -> "; report: " + w).orElse(""));
    } finally {
      Files.deleteIfExists(record);
    }
  }

  private String fileStem() {
    String s = appId + attemptId.map(a -> "_" + a).orElse("");
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private void writeText(String uri, String text) throws IOException {
    Path p = new Path(URI.create(uri));
    // A private instance: Hadoop's cached one may be closed by its own shutdown hook while we write.
    try (FileSystem fs = FileSystem.newInstance(p.toUri(), hadoop); OutputStream o = fs.create(p, true)) {
      o.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private void closeQuietly() {
    try {
      if (out != null) {
        out.close();
      }
      if (record != null) {
        Files.deleteIfExists(record);
      }
    } catch (IOException e) {
      // nothing more to do: the warning is logged
    }
  }

  /** The running Spark's version, from the file spark-core ships. */
  static String sparkVersion() {
    try (InputStream in = SparkConf.class.getResourceAsStream("/spark-version-info.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("version", "unknown");
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

}

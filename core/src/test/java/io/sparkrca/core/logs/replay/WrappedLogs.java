package io.sparkrca.core.logs.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Test inputs in the layouts the testkit fixtures lack, made from a fixture's real logs: each
 * real line is kept as Spark wrote it and wrapped the way the layout wraps it (YARN's aggregated
 * sections, Airflow's prefix, kubectl's timestamps and pod prefixes, Cloud Logging entries), or
 * its header re-rendered with another log4j pattern (the message and continuation lines
 * untouched). Wrappers take their times from the real line's header.
 *
 * <pre>{@code
 * List<String> logs = WrappedLogs.write(WrappedLogs.Layout.YARN_AGGREGATED, fixture, tempDir);
 * LogApplication app = LogReplay.builder().build().read(logs);
 * }</pre>
 */
final class WrappedLogs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter LOG4J = DateTimeFormatter.ofPattern("yy/MM/dd HH:mm:ss", Locale.ROOT);
  private static final String APP = "1795962689745_0001";

  /** The layouts made. */
  enum Layout {
    YARN_AGGREGATED,
    AIRFLOW,
    AIRFLOW_ISO,
    KUBECTL_TIMESTAMPS,
    KUBECTL_PREFIX,
    CLOUD_LOGGING_ARRAY,
    CLOUD_LOGGING_LINES,
    LOG4J_ISO_THREAD_FULL_NAMES,
    LOG4J_HADOOP_SOURCE,
    LOG4J_NO_TIME
  }

  /** One record of a real log: its header line, the lines that follow it, and the header's time. */
  record Record(String header, List<String> rest, long time, String origin) {
    List<String> lines() {
      List<String> all = new ArrayList<>();
      all.add(header);
      all.addAll(rest);
      return all;
    }
  }

  private WrappedLogs() {}

  /** Writes the fixture's logs in {@code layout} under {@code dir}; the names to read. */
  static List<String> write(Layout layout, TestkitFixtures.Fixture f, Path dir) {
    try {
      return switch (layout) {
        case YARN_AGGREGATED -> List.of(yarn(f, dir).toString());
        case AIRFLOW -> withExecutors(f, airflow(f, dir, false));
        case AIRFLOW_ISO -> withExecutors(f, airflow(f, dir, true));
        case KUBECTL_TIMESTAMPS -> kubectl(f, dir);
        case KUBECTL_PREFIX -> List.of(kubectlPrefix(f, dir).toString());
        case CLOUD_LOGGING_ARRAY -> List.of(cloudLoggingArray(f, dir).toString());
        case CLOUD_LOGGING_LINES -> withExecutors(f, cloudLoggingLines(f, dir));
        case LOG4J_ISO_THREAD_FULL_NAMES, LOG4J_HADOOP_SOURCE, LOG4J_NO_TIME -> relayout(layout, f, dir);
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> withExecutors(TestkitFixtures.Fixture f, Path driver) {
    List<String> logs = new ArrayList<>();
    logs.add(driver.toString());
    executorLogs(f).forEach(p -> logs.add(p.toString()));
    return logs;
  }

  static List<Path> executorLogs(TestkitFixtures.Fixture f) {
    Path dir = f.dir().resolve("executor-logs");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".stderr")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The records of a real log4j log; lines before the first header form a record of their own (time of the first header). */
  static List<Record> records(Path log, String origin) throws IOException {
    List<Record> out = new ArrayList<>();
    String header = null;
    List<String> rest = new ArrayList<>();
    List<String> preamble = new ArrayList<>();
    long time = 0;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Long t = time(line);
      if (t != null) {
        if (header != null) {
          out.add(new Record(header, rest, time, origin));
        } else if (!preamble.isEmpty()) {
          out.add(new Record(preamble.get(0), preamble.subList(1, preamble.size()), t, origin));
        }
        header = line;
        rest = new ArrayList<>();
        time = t;
      } else if (header == null) {
        preamble.add(line);
      } else {
        rest.add(line);
      }
    }
    if (header != null) {
      out.add(new Record(header, rest, time, origin));
    } else if (!preamble.isEmpty()) {
      out.add(new Record(preamble.get(0), preamble.subList(1, preamble.size()), 0, origin));
    }
    return out;
  }

  private static Long time(String line) {
    if (line.length() < 18 || line.charAt(2) != '/' || line.charAt(5) != '/' || line.charAt(8) != ' ' || line.charAt(17) != ' ') {
      return null;
    }
    try {
      return LocalDateTime.parse(line.substring(0, 17), LOG4J).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (RuntimeException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------ YARN

  private static Path yarn(TestkitFixtures.Fixture f, Path dir) throws IOException {
    StringBuilder sb = new StringBuilder();
    String driver = "container_e01_" + APP + "_01_000001";
    section(sb, driver, "localhost", "stdout", Files.readString(f.dir().resolve("driver-stdout.log")), false);
    section(sb, driver, "localhost", "stderr", Files.readString(f.driverLog()), false);
    int n = 2;
    for (Path e : executorLogs(f)) {
      String container = String.format(Locale.ROOT, "container_e01_%s_01_%06d", APP, n++);
      section(sb, container, "localhost", "stderr", Files.readString(e), n % 2 == 0); // Hadoop 2's headers for some
    }
    Path out = dir.resolve("application_" + APP + ".log");
    Files.writeString(out, sb);
    return out;
  }

  private static void section(StringBuilder sb, String container, String host, String type, String content, boolean hadoop2) {
    sb.append("\n\nContainer: ").append(container).append(" on ").append(host).append("_8041\n");
    if (!hadoop2) {
      sb.append("LogAggregationType: AGGREGATED\n");
    }
    sb.append("=".repeat(84)).append('\n');
    sb.append("LogType:").append(type).append('\n');
    sb.append(hadoop2 ? "Log Upload Time:Sun Nov 29 14:40:00 +0000 2026\n" : "LogLastModifiedTime:Sun Nov 29 14:40:00 +0000 2026\n");
    sb.append("LogLength:").append(content.getBytes(StandardCharsets.UTF_8).length).append('\n');
    sb.append(hadoop2 ? "Log Contents:\n" : "LogContents:\n");
    sb.append(content);
    if (!content.endsWith("\n")) {
      sb.append('\n');
    }
    sb.append("End of LogType:").append(type).append('\n');
    if (!hadoop2) {
      sb.append("*".repeat(117)).append('\n');
    }
  }

  // ------------------------------------------------------------------ Airflow

  /** The driver's output as Airflow's SparkSubmitHook logs it, with Airflow's own lines around and between its records. */
  private static Path airflow(TestkitFixtures.Fixture f, Path dir, boolean iso) throws IOException {
    List<String> out = new ArrayList<>();
    List<Record> records = records(f.driverLog(), "driver");
    long first = records.isEmpty() ? 0 : records.get(0).time();
    out.add(airflowLine(first, "taskinstance.py:1157", "INFO", "Dependencies all met for dep_context=non-requeueable deps", iso));
    out.add(airflowLine(first, "base.py:84", "INFO", "Using connection ID 'spark_default' for task execution.", iso));
    boolean between = false;
    for (Record r : records) {
      for (String line : r.lines()) {
        out.add(airflowLine(r.time(), "spark_submit.py:490", "INFO", line, iso));
      }
      if (!r.rest().isEmpty() && !between) {
        // Airflow's own line right after a record with a trace: it must not join the trace
        out.add(airflowLine(r.time(), "local_task_job_runner.py:225", "INFO", "Task is still running; heartbeat", iso));
        between = true;
      }
    }
    long last = records.isEmpty() ? 0 : records.get(records.size() - 1).time();
    out.add(airflowLine(last, "taskinstance.py:1400", "INFO", "Marking task as SUCCESS. dag_id=spark_job, task_id=submit", iso));
    Path file = dir.resolve("dag_id=spark_job").resolve("run_id=manual").resolve("task_id=submit").resolve("attempt=1.log");
    Files.createDirectories(file.getParent());
    Files.write(file, out);
    return file;
  }

  private static String airflowLine(long time, String source, String level, String message, boolean iso) {
    Instant t = Instant.ofEpochMilli(time);
    String stamp = iso
        ? DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ", Locale.ROOT).withZone(ZoneOffset.UTC).format(t)
        : DateTimeFormatter.ofPattern("yyyy-MM-dd, HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC).format(t);
    return "[" + stamp + "] {" + source + "} " + level + " - " + message;
  }

  // ------------------------------------------------------------------ kubectl

  private static List<String> kubectl(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    out.add(stamped(f.driverLog(), dir.resolve("sparkrca-app-driver.log"), "driver"));
    for (Path e : executorLogs(f)) {
      String id = e.getFileName().toString().replace(".stderr", "");
      out.add(stamped(e, dir.resolve("sparkrca-app-exec-" + (Integer.parseInt(id) + 1) + ".log"), id));
    }
    return out;
  }

  private static String stamped(Path log, Path out, String origin) throws IOException {
    List<String> lines = new ArrayList<>();
    long nanos = 0;
    for (Record r : records(log, origin)) {
      for (String line : r.lines()) {
        lines.add(rfc3339Nano(r.time(), nanos++) + " " + line);
      }
    }
    Files.write(out, lines);
    return out.toString();
  }

  private static String rfc3339Nano(long millis, long counter) {
    Instant t = Instant.ofEpochMilli(millis).plusNanos(counter % 1_000_000 * 1000 + 123);
    return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC).format(t);
  }

  /** Every pod's log in one {@code kubectl logs --prefix --timestamps} capture, records merged by time. */
  private static Path kubectlPrefix(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<Record> all = new ArrayList<>(records(f.driverLog(), "pod/sparkrca-app-driver/spark-kubernetes-driver"));
    for (Path e : executorLogs(f)) {
      String id = e.getFileName().toString().replace(".stderr", "");
      all.addAll(records(e, "pod/sparkrca-app-exec-" + (Integer.parseInt(id) + 1) + "/spark-kubernetes-executor"));
    }
    all.sort(Comparator.comparingLong(Record::time)); // stable: each log's records keep their order
    List<String> lines = new ArrayList<>();
    long n = 0;
    for (Record r : all) {
      for (String line : r.lines()) {
        lines.add("[" + r.origin() + "] " + rfc3339Nano(r.time(), n++) + " " + line);
      }
    }
    Path out = dir.resolve("kubectl-logs-prefix.log");
    Files.write(out, lines);
    return out;
  }

  // ------------------------------------------------------------------ Cloud Logging

  /**
   * {@code gcloud logging read --format=json}: a pretty-printed array of YARN container entries
   * (Dataproc's {@code yarn-userlogs}), one per record (a trace is one entry), every container's
   * merged by time.
   */
  private static Path cloudLoggingArray(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<Record> all = new ArrayList<>(records(f.driverLog(), "container_e01_" + APP + "_01_000001"));
    int n = 2;
    for (Path e : executorLogs(f)) {
      all.addAll(records(e, String.format(Locale.ROOT, "container_e01_%s_01_%06d", APP, n++)));
    }
    all.sort(Comparator.comparingLong(Record::time));
    ArrayNode entries = JSON.createArrayNode();
    int id = 0;
    for (Record r : all) {
      ObjectNode e = entries.addObject();
      e.put("insertId", "sparkrca" + id++);
      ObjectNode payload = e.putObject("jsonPayload");
      payload.put("application", "application_" + APP);
      payload.put("container", r.origin());
      payload.put("container_logname", "stderr");
      payload.put("filename", "application_" + APP + "." + r.origin() + ".stderr");
      payload.put("message", String.join("\n", r.lines()));
      ObjectNode resource = e.putObject("resource");
      resource.put("type", "cloud_dataproc_cluster");
      resource.putObject("labels").put("cluster_name", "sparkrca").put("region", "europe-west1");
      e.put("timestamp", Instant.ofEpochMilli(r.time()).toString());
      e.put("severity", severity(r.header()));
      e.put("logName", "projects/sparkrca-test/logs/yarn-userlogs");
    }
    Path out = dir.resolve("cloud-logging-export.json");
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), entries);
    return out;
  }

  /** Dataproc's {@code dataproc.job.driver} entries, one JSON object per line, one per log line. */
  private static Path cloudLoggingLines(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Record r : records(f.driverLog(), "driver")) {
      for (String line : r.lines()) {
        ObjectNode e = JSON.createObjectNode();
        e.put("textPayload", line);
        e.putObject("resource").put("type", "cloud_dataproc_job").putObject("labels").put("job_id", "sparkrca-job");
        e.put("timestamp", Instant.ofEpochMilli(r.time()).toString());
        e.put("severity", severity(r.header()));
        e.put("logName", "projects/sparkrca-test/logs/dataproc.job.driver");
        lines.add(JSON.writeValueAsString(e));
      }
    }
    Path out = dir.resolve("driver-entries.jsonl");
    Files.write(out, lines);
    return out;
  }

  private static String severity(String header) {
    for (String level : List.of("ERROR", "WARN", "INFO", "DEBUG")) {
      if (header.length() > 18 && header.startsWith(level + " ", 18)) {
        return level.equals("WARN") ? "WARNING" : level;
      }
    }
    return "DEFAULT";
  }

  // ------------------------------------------------------------------ other log4j patterns

  /** The logs with each header re-rendered in another log4j pattern; messages and continuation lines untouched. */
  private static List<String> relayout(Layout layout, TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    out.add(relayout(layout, f.driverLog(), dir.resolve("driver-" + layout.name().toLowerCase(Locale.ROOT) + ".log")));
    for (Path e : executorLogs(f)) {
      out.add(relayout(layout, e, dir.resolve(e.getFileName().toString())));
    }
    return out;
  }

  private static String relayout(Layout layout, Path log, Path out) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Long t = time(line);
      int colon = t == null ? -1 : line.indexOf(": ", 18);
      int space = t == null ? -1 : line.indexOf(' ', 18);
      if (t == null || colon < 0 || space < 0 || space > colon) {
        lines.add(line);
        continue;
      }
      String level = line.substring(18, space);
      String logger = line.substring(space + 1, colon);
      String message = line.substring(colon + 2);
      LocalDateTime when = LocalDateTime.ofInstant(Instant.ofEpochMilli(t), ZoneOffset.UTC);
      lines.add(switch (layout) {
        case LOG4J_ISO_THREAD_FULL_NAMES -> when.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS", Locale.ROOT))
            + " " + level + " [driver-thread] org.apache.spark." + logger + ": " + message;
        case LOG4J_HADOOP_SOURCE -> when.atOffset(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx", Locale.ROOT))
            + " " + String.format(Locale.ROOT, "%-5s", level) + " spark." + logger + " (Logging.scala:logInfo(60)) - " + message;
        default -> level + " " + logger + ": " + message;
      });
    }
    Files.write(out, lines);
    return out.toString();
  }
}

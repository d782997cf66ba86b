package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.logs.replay.LogOutcome;
import io.sparkrca.core.redaction.Redactor;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The application: its id, name, Spark version, user, master, configuration (when {@code
 * spark.logConf} logged it) and how it ended, from {@code SparkContext}, the event-log writer,
 * the cluster manager's client and application master, and what the JVM or Python printed:
 *
 * <ul>
 *   <li>{@code Running Spark version 3.5.1} (which also says the log is the driver's), {@code
 *       Submitted application: name}, {@code Changing view acls to: user}, {@code Logging events to
 *       file:/.../app-20240101-0001.inprogress}, {@code Connected to Spark cluster with app ID ...},
 *       {@code ApplicationAttemptId: appattempt_..._000001}, {@code Submitting application
 *       application_... to ResourceManager};
 *   <li>{@code SparkContext is stopping with exitCode 0}, {@code Successfully stopped
 *       SparkContext}, {@code Shutdown hook called};
 *   <li>{@code Exception in thread "main" ...}, a Python {@code Traceback}, {@code Error
 *       initializing SparkContext.}: the driver failed;
 *   <li>{@code ApplicationMaster: Final app status: FAILED, exitCode: 15, (reason: ...)}, {@code
 *       Unregistering ApplicationMaster with FAILED}, spark-submit's {@code final status: FAILED}
 *       and Kubernetes' {@code phase: Failed}: the cluster manager's verdict, which outranks the rest.
 * </ul>
 *
 * <pre>{@code
 * Pending p = appLines.sparkContext(section, head, scan);
 * }</pre>
 */
final class AppLines {
  private static final byte[] RUNNING_VERSION = Scan.lit("Running Spark version ");
  private static final byte[] SUBMITTED_APPLICATION = Scan.lit("Submitted application: ");
  private static final byte[] STOPPING = Scan.lit("SparkContext is stopping with exitCode ");
  private static final byte[] STOPPED = Scan.lit("Successfully stopped SparkContext");
  private static final byte[] ERROR_INITIALIZING = Scan.lit("Error initializing SparkContext");
  private static final byte[] CONFIGURATION = Scan.lit("Spark configuration:");
  private static final byte[] JAVA_VERSION = Scan.lit("Java version ");
  private static final byte[] VIEW_ACLS = Scan.lit("Changing view acls to: ");
  private static final byte[] LOGGING_EVENTS = Scan.lit("Logging events to ");
  private static final byte[] CONNECTED = Scan.lit("Connected to Spark cluster with app ID ");
  private static final byte[] MASTER_AT = Scan.lit("Connecting to master ");
  private static final byte[] APPLICATION = Scan.lit("Application ");
  private static final byte[] STARTED_RUNNING = Scan.lit(" has started running");
  private static final byte[] SUBMITTING_APPLICATION = Scan.lit("Submitting application ");
  private static final byte[] ATTEMPT_ID = Scan.lit("ApplicationAttemptId: ");
  private static final byte[] FINAL_STATUS = Scan.lit("Final app status: ");
  private static final byte[] UNREGISTERING = Scan.lit("Unregistering ApplicationMaster with ");
  private static final byte[] REPORT = Scan.lit("Application report for ");
  private static final byte[] PHASE = Scan.lit("(phase: ");
  private static final byte[] SHUTDOWN_HOOK = Scan.lit("Shutdown hook called");
  private static final byte[] MAIN = Scan.lit("Exception in thread \"main\"");
  private static final byte[] TRACEBACK = Scan.lit("Traceback (most recent call last)");

  private final ModelState m;

  AppLines(ModelState m) {
    this.m = m;
  }

  /** A {@code SparkContext} line. */
  Pending sparkContext(Section s, RecordHead h, Scan c) {
    if (c.skip(RUNNING_VERSION)) {
      m.sparkVersion = c.rest().strip();
      if (s.role != LogRole.DRIVER) {
        ExecutorLines.tell(s, LogRole.DRIVER, null, "its content: 'Running Spark version'");
      }
      if (m.start == TimeParser.NO_TIME) {
        m.start = h.time;
      }
      return Pending.DONE;
    }
    if (c.skip(SUBMITTED_APPLICATION)) {
      m.appName = c.rest();
      return Pending.DONE;
    }
    if (c.skip(JAVA_VERSION)) {
      m.javaVersion = c.rest().strip();
      return Pending.DONE;
    }
    if (c.skip(STOPPING)) {
      long code = c.number();
      if (code >= 0) {
        m.exitCode = (int) code;
      }
      return Pending.DONE;
    }
    if (c.at(STOPPED)) {
      m.contextStopped = true;
      m.end = h.time;
      if (m.status == null) {
        decide(LogOutcome.Status.SUCCEEDED, "SparkContext stopped: " + h.message(), s, h);
      }
      return Pending.DONE;
    }
    if (c.at(ERROR_INITIALIZING)) {
      String message = h.message();
      String level = h.level;
      String emitter = h.emitter;
      long time = h.time;
      long line = h.line;
      return (sec, continuation) -> {
        m.exception(sec, level, emitter, time, message, Redactor.standard().redactText(Pending.join(message, continuation)), line);
        failed("SparkContext could not start: " + firstException(continuation, message), sec, line);
      };
    }
    if (c.at(CONFIGURATION)) {
      return (sec, continuation) -> configuration(continuation);
    }
    return null;
  }

  /** A line of the event-log writer, the security manager, a backend or a cluster manager's client, about the application. */
  Pending application(Section s, RecordHead h, Scan c) {
    if (c.skip(VIEW_ACLS)) {
      if (m.sparkUser == null) {
        String users = c.rest();
        int comma = users.indexOf(',');
        m.sparkUser = (comma < 0 ? users : users.substring(0, comma)).strip();
      }
      return Pending.DONE;
    }
    if (c.skip(LOGGING_EVENTS)) {
      appIdFromEventLog(c.rest().strip());
      return Pending.DONE;
    }
    if (c.skip(CONNECTED)) {
      m.appId = c.rest().strip();
      return Pending.DONE;
    }
    if (c.skip(MASTER_AT)) {
      String master = c.rest().strip();
      // the application's client names the master by its URL; a standalone worker of a local cluster by host:port
      if (m.master == null && master.contains("://")) {
        m.master = master.endsWith("...") ? master.substring(0, master.length() - 3) : master;
      }
      return null;
    }
    if (c.skip(SUBMITTING_APPLICATION)) {
      String id = token(c.rest());
      if (id.startsWith("application_")) {
        m.appId = id;
        m.master = m.master == null ? "yarn" : m.master;
      }
      return null;
    }
    if (c.skip(APPLICATION) && c.indexOf(STARTED_RUNNING, c.pos) >= 0) {
      m.appId = token(c.rest());
      m.master = m.master == null ? "yarn" : m.master;
      return Pending.DONE;
    }
    if (c.skip(REPORT)) {
      // spark-submit's YARN client: the report's lines follow, "final status: FAILED" among them
      String message = h.message();
      long time = h.time;
      long line = h.line;
      return (sec, continuation) -> yarnReport(sec, line, time, message, continuation);
    }
    int phase = c.indexOf(PHASE, c.pos);
    if (phase >= 0) {
      c.pos = phase + PHASE.length;
      String p = c.until(')');
      String message = h.message();
      long time = h.time;
      long line = h.line;
      if ("Failed".equals(p) || "Succeeded".equals(p)) {
        return (sec, continuation) -> {
          Integer code = exitCodeIn(continuation);
          finalStatus("Failed".equals(p) ? LogOutcome.Status.FAILED : LogOutcome.Status.SUCCEEDED, code,
              Pending.join(message, continuation), sec, line, time);
        };
      }
      return Pending.DONE;
    }
    return null;
  }

  /**
   * A line of spark-submit's YARN client: the application's id, and its report, whose lines
   * ({@code final status: FAILED}) follow an empty {@code Client:} header.
   */
  Pending yarnClient(Section s, RecordHead h, Scan c) {
    if (c.atEnd() || c.b[c.pos] == ' ' && c.rest().isBlank()) {
      long time = h.time;
      long line = h.line;
      return (sec, continuation) -> yarnReport(sec, line, time, "YARN application report", continuation);
    }
    return application(s, h, c);
  }

  /** An {@code ApplicationMaster} line. */
  Pending applicationMaster(Section s, RecordHead h, Scan c) {
    if (c.skip(ATTEMPT_ID)) {
      String attempt = c.rest().strip(); // appattempt_1714557600000_0001_000001
      if (attempt.startsWith("appattempt_")) {
        String[] parts = attempt.substring("appattempt_".length()).split("_");
        if (parts.length == 3) {
          m.appId = "application_" + parts[0] + "_" + parts[1];
          m.attemptId = Integer.toString(Integer.parseInt(parts[2]));
        }
      }
      m.master = m.master == null ? "yarn" : m.master;
      return Pending.DONE;
    }
    if (c.skip(FINAL_STATUS)) {
      String status = c.until(',');
      Integer code = ExecutorLines.exitCode(h.message());
      finalStatus(yarnStatus(status == null ? c.rest() : status), code, h.message(), s, h.line, h.time);
      return Pending.DONE;
    }
    if (c.skip(UNREGISTERING) && !m.finalStatus) {
      String status = c.until(' ');
      finalStatus(yarnStatus(status == null ? c.rest() : status), null, h.message(), s, h.line, h.time);
      return Pending.DONE;
    }
    return null;
  }

  /** {@code Shutdown hook called}: the JVM is exiting. */
  Pending shutdownHook(Section s, RecordHead h, Scan c) {
    if (c.at(SHUTDOWN_HOOK) && s.role != LogRole.EXECUTOR) {
      m.shutdownHook = true;
      if (!m.contextStopped) {
        m.end = h.time;
      }
      return Pending.DONE;
    }
    return null;
  }

  /** What a JVM or Python printed without a header: an uncaught exception, a traceback. */
  Pending stderr(Section s, RecordHead h, Scan c) {
    String message = h.message();
    String level = h.level;
    String emitter = h.emitter;
    long time = h.time;
    long line = h.line;
    boolean driver = s.role != LogRole.EXECUTOR;
    boolean main = c.at(MAIN);
    boolean traceback = c.at(TRACEBACK);
    return (sec, continuation) -> {
      String text = Redactor.standard().redactText(Pending.join(message, continuation));
      String headline = traceback ? lastLine(continuation, message) : message;
      m.exception(sec, level, emitter, time, headline, text, line);
      if (driver && (main || traceback)) {
        failed(traceback ? "Python driver failed: " + headline : message, sec, line);
      }
    };
  }

  // ------------------------------------------------------------------ outcome

  private void failed(String reason, Section s, long line) {
    if (!m.finalStatus && m.status != LogOutcome.Status.FAILED) {
      m.status = LogOutcome.Status.FAILED;
      m.statusReason = Redactor.standard().redactText(reason);
      m.statusAt = m.at(s, line);
    }
  }

  private void decide(LogOutcome.Status status, String reason, Section s, RecordHead h) {
    m.status = status;
    m.statusReason = reason;
    m.statusAt = m.at(s, h.line);
  }

  private void finalStatus(LogOutcome.Status status, Integer code, String reason, Section s, long line, long time) {
    m.finalStatus = true;
    m.status = status;
    m.statusReason = Redactor.standard().redactText(reason);
    m.statusAt = m.at(s, line);
    if (code != null) {
      m.finalExitCode = code;
    }
    if (m.end == TimeParser.NO_TIME) {
      m.end = time;
    }
  }

  private void yarnReport(Section s, long line, long time, String message, String continuation) {
    int i = continuation.indexOf("final status: ");
    if (i < 0) {
      return;
    }
    String status = token(continuation.substring(i + "final status: ".length()));
    if (status.equals("UNDEFINED")) {
      return; // still running
    }
    finalStatus(yarnStatus(status), null, Pending.join(message, continuation), s, line, time);
  }

  private static LogOutcome.Status yarnStatus(String status) {
    return switch (status.strip()) {
      case "SUCCEEDED" -> LogOutcome.Status.SUCCEEDED;
      case "KILLED" -> LogOutcome.Status.KILLED;
      case "FAILED" -> LogOutcome.Status.FAILED;
      default -> LogOutcome.Status.UNKNOWN;
    };
  }

  // ------------------------------------------------------------------ details

  /**
   * The application id in an event log's name: {@code .../local-1700000000000.inprogress}, {@code
   * .../eventlog_v2_app-1/events_1_app-1.zstd}, {@code .../application_1_0001_1.lz4} (the YARN
   * attempt after the id).
   */
  private void appIdFromEventLog(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    for (String suffix : new String[] {".inprogress", ".zstd", ".lz4", ".lzf", ".snappy", ".gz"}) {
      if (name.endsWith(suffix)) {
        name = name.substring(0, name.length() - suffix.length());
      }
    }
    if (name.startsWith("events_")) {
      int second = name.indexOf('_', "events_".length());
      name = second < 0 ? name : name.substring(second + 1);
    }
    if (name.startsWith("application_")) {
      String[] parts = name.split("_");
      if (parts.length >= 3) {
        name = parts[0] + "_" + parts[1] + "_" + parts[2];
        if (parts.length == 4 && m.attemptId == null) {
          m.attemptId = parts[3];
        }
      }
    }
    if (!name.isEmpty() && m.appId == null) {
      m.appId = name;
    }
  }

  private void configuration(String continuation) {
    List<Map.Entry<String, String>> props = new ArrayList<>();
    Redactor redactor = Redactor.standard();
    for (String line : continuation.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        String key = line.substring(0, eq).strip();
        String value = line.substring(eq + 1);
        props.add(new AbstractMap.SimpleImmutableEntry<>(key, redactor.redactLikeHistoryServer(key, value)));
        if (key.equals("spark.master")) {
          m.master = value;
        }
        if (key.equals("spark.app.id") && m.appId == null) {
          m.appId = value;
        }
      }
    }
    m.sparkProperties = props;
  }

  private static String token(String s) {
    String t = s.strip();
    int end = 0;
    while (end < t.length() && !Character.isWhitespace(t.charAt(end)) && t.charAt(end) != ',' && t.charAt(end) != ')') {
      end++;
    }
    return t.substring(0, end);
  }

  private static Integer exitCodeIn(String text) {
    return ExecutorLines.exitCode(text);
  }

  private static String lastLine(String continuation, String fallback) {
    String[] lines = continuation.strip().split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].isBlank() && !Character.isWhitespace(lines[i].charAt(0))) {
        return lines[i].strip();
      }
    }
    return fallback;
  }

  private static String firstException(String continuation, String fallback) {
    for (String line : continuation.split("\n")) {
      if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        return line.strip();
      }
    }
    return fallback;
  }
}

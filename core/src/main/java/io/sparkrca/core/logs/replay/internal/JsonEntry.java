package io.sparkrca.core.logs.replay.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.evidence.LogRole;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One log entry written as JSON, read into the parts of a record:
 *
 * <ul>
 *   <li>Spark 4's structured logging ({@code spark.log.structuredLogging.enabled}, the template
 *       {@code org/apache/spark/SparkLayout.json}): {@code ts}, {@code level}, {@code msg}, {@code
 *       context} (the MDC), {@code exception} ({@code class}, {@code msg}, {@code stacktrace} of
 *       {@code class}/{@code method}/{@code file}/{@code line}) and {@code logger};
 *   <li>a Cloud Logging entry ({@code gcloud logging read --format=json}, an export): {@code
 *       timestamp}, {@code severity}, {@code textPayload} or {@code jsonPayload} (whose {@code
 *       message} may be a whole log4j line, and which may itself be a structured Spark entry), the
 *       section from {@code jsonPayload.container}, the pod's labels or the log name, and whose
 *       log it is from {@code spark-role}/{@code spark-exec-id} labels or a {@code
 *       dataproc.job.driver} log name;
 *   <li>Airflow 3's task log lines ({@code timestamp}, {@code level}, {@code event}), and any entry
 *       with a message under {@code msg}, {@code message} or {@code event}.
 * </ul>
 *
 * <pre>{@code
 * if (entry.parse(buf, start, end)) deliver(entry.message, entry.level, entry.logger, entry.time);
 * }</pre>
 */
final class JsonEntry {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TimeParser times;
  long time;
  String level;
  /** The logger's simple name, or null when the entry names none. */
  String logger;
  String message;
  /** The exception a structured entry carries, as a Java stack trace prints it; "" when none. */
  String exception;
  Map<String, String> context;
  /** The section the entry belongs to, or null for the file's own. */
  String key;
  LogRole role;
  String executorId;
  /** What kind of entry it was, for naming the layout. */
  String shape;

  JsonEntry(TimeParser times) {
    this.times = times;
  }

  /** Reads one JSON object in {@code b[from, to)}; false when it is not one, or has no message. */
  boolean parse(byte[] b, int from, int to) {
    JsonNode n;
    try {
      n = JSON.readTree(b, from, to - from);
    } catch (JsonProcessingException e) {
      return false;
    } catch (IOException e) {
      return false; // reading bytes in memory: only malformed JSON gets here
    }
    return of(n);
  }

  /** Reads an entry already parsed (an element of a JSON array); false when it has no message. */
  boolean of(JsonNode n) {
    if (n == null || !n.isObject()) {
      return false;
    }
    reset();
    JsonNode payload = n.get("jsonPayload");
    if (n.has("textPayload") || payload != null) {
      shape = "Cloud Logging entries";
      cloudLogging(n, payload);
      return message != null;
    }
    structured(n);
    return message != null;
  }

  private void reset() {
    time = TimeParser.NO_TIME;
    level = Levels.INFO;
    logger = null;
    message = null;
    exception = "";
    context = null;
    key = null;
    role = null;
    executorId = null;
    shape = "JSON lines";
  }

  /** A Spark structured entry, an Airflow 3 line or another JSON line with a message. */
  private void structured(JsonNode n) {
    message = text(n, "msg", "message", "event");
    time(text(n, "ts", "timestamp", "time", "@timestamp"));
    String lv = text(n, "level", "severity", "levelname");
    if (lv != null) {
      level = Levels.of(lv);
    }
    String lg = text(n, "logger", "logger_name", "loggerName", "class");
    if (lg != null) {
      logger = simpleName(lg);
    }
    if (n.has("ts") && n.has("msg")) {
      shape = "Spark structured JSON";
    } else if (n.has("event") && n.has("timestamp")) {
      shape = "Airflow JSON";
    }
    JsonNode ctx = n.get("context");
    if (ctx != null && ctx.isObject() && ctx.size() > 0) {
      context = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = ctx.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        context.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
      }
    }
    JsonNode ex = n.get("exception");
    if (ex != null && ex.isObject()) {
      exception = exception(ex);
    }
  }

  private void cloudLogging(JsonNode n, JsonNode payload) {
    time(text(n, "timestamp", "receiveTimestamp"));
    String severity = text(n, "severity");
    if (severity != null) {
      level = Levels.of(severity);
    }
    if (payload != null && payload.isObject()) {
      if (payload.has("msg") && payload.has("logger")) {
        long t = time;
        String lv = level;
        structured(payload);
        if (time == TimeParser.NO_TIME) {
          time = t;
        }
        if (!payload.has("level")) {
          level = lv;
        }
      } else {
        message = text(payload, "message", "msg", "textPayload");
        String lg = text(payload, "class", "logger", "logger_name");
        logger = lg == null ? null : simpleName(lg);
      }
      String container = text(payload, "container");
      if (container != null) {
        String logname = text(payload, "container_logname");
        key = logname == null ? container : container + "/" + logname;
        if (container.endsWith("_000001")) {
          role = LogRole.DRIVER; // the application master: the driver in cluster mode
        }
      }
    } else {
      message = text(n, "textPayload");
    }
    JsonNode labels = n.get("labels");
    if (labels != null) {
      String sparkRole = text(labels, "k8s-pod/spark-role", "spark-role");
      String exec = text(labels, "k8s-pod/spark-exec-id", "spark-exec-id");
      if ("driver".equals(sparkRole)) {
        role = LogRole.DRIVER;
      } else if ("executor".equals(sparkRole)) {
        role = LogRole.EXECUTOR;
        executorId = exec;
      }
    }
    JsonNode resource = n.path("resource").path("labels");
    String pod = text(resource, "pod_name");
    if (key == null && pod != null) {
      key = pod;
    }
    String logName = text(n, "logName");
    if (logName != null) {
      if (logName.contains("dataproc.job.driver")) {
        role = LogRole.DRIVER;
      }
      if (key == null) {
        int slash = logName.lastIndexOf('/');
        key = java.net.URLDecoder.decode(logName.substring(slash + 1), StandardCharsets.UTF_8);
      }
    }
  }

  private void time(String iso) {
    if (iso == null) {
      return;
    }
    byte[] b = iso.getBytes(StandardCharsets.ISO_8859_1);
    if (times.parse(b, 0, b.length) >= 0) {
      time = times.millis();
    }
  }

  /** The exception of a structured entry, as {@code Throwable.printStackTrace} writes its head. */
  private static String exception(JsonNode ex) {
    StringBuilder sb = new StringBuilder();
    String cls = text(ex, "class");
    String msg = text(ex, "msg", "message");
    sb.append(cls == null ? "" : cls);
    if (msg != null && !msg.isEmpty()) {
      sb.append(": ").append(msg);
    }
    JsonNode frames = ex.get("stacktrace");
    if (frames != null && frames.isArray()) {
      for (JsonNode f : frames) {
        if (sb.length() > io.sparkrca.core.logs.replay.LogRecord.MAX_CONTINUATION_CHARS) {
          break;
        }
        sb.append("\n\tat ").append(f.path("class").asText("")).append('.').append(f.path("method").asText(""))
            .append('(').append(f.path("file").asText("Unknown Source"));
        if (f.has("line") && f.path("line").asInt(-1) >= 0) {
          sb.append(':').append(f.path("line").asInt());
        }
        sb.append(')');
      }
    }
    return sb.toString();
  }

  private static String text(JsonNode n, String... names) {
    for (String name : names) {
      JsonNode v = n.get(name);
      if (v != null && !v.isNull() && !v.isContainerNode()) {
        return v.asText();
      }
    }
    return null;
  }

  private static String simpleName(String logger) {
    int dot = logger.lastIndexOf('.');
    return dot >= 0 ? logger.substring(dot + 1) : logger;
  }
}

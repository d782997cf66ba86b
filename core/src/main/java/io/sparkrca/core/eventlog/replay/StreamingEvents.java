package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Token-loop parsers for the events that make up almost all of a log: task start and task end.
 * They fill reused scratch objects and allocate only for strings that are kept (executor ids,
 * hosts, error text, user accumulators). Field order does not matter; unknown fields are skipped.
 */
final class StreamingEvents {
  private StreamingEvents() {}

  /** Parses the rest of a {@code SparkListenerTaskStart} object (after its "Event" field). */
  static void parseTaskStart(JsonParser p, TaskStartEvent e) throws IOException {
    e.reset();
    boolean sawInfo = false;
    boolean sawStage = false;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "Stage ID":
          e.stageId = intValue(p, name);
          sawStage = true;
          break;
        case "Stage Attempt ID":
          e.stageAttemptId = nullable(p) ? 0 : intValue(p, name);
          break;
        case "Task Info":
          parseTaskInfo(p, e.info);
          sawInfo = true;
          break;
        default:
          p.skipChildren();
      }
    }
    if (!sawInfo || !sawStage) {
      throw new BadEventException("task start without " + (sawStage ? "'Task Info'" : "'Stage ID'"));
    }
  }

  /** Parses the rest of a {@code SparkListenerTaskEnd} object (after its "Event" field). */
  static void parseTaskEnd(JsonParser p, TaskEndEvent e) throws IOException {
    e.reset();
    boolean sawInfo = false;
    boolean sawStage = false;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        case "Stage ID":
          e.stageId = intValue(p, name);
          sawStage = true;
          break;
        case "Stage Attempt ID":
          e.stageAttemptId = nullable(p) ? 0 : intValue(p, name);
          break;
        case "Task Info":
          if (value == JsonToken.VALUE_NULL) {
            e.infoMissing = true;
          } else {
            parseTaskInfo(p, e.info);
            sawInfo = true;
          }
          break;
        case "Task End Reason":
          parseReason(p, e.reason);
          break;
        case "Task Executor Metrics":
          if (value != JsonToken.VALUE_NULL) {
            parseExecutorMetrics(p, e.executorMetrics);
          }
          break;
        case "Task Metrics":
          if (value != JsonToken.VALUE_NULL) {
            parseTaskMetrics(p, e.metrics);
          }
          break;
        default:
          p.skipChildren();
      }
    }
    if (!sawStage) {
      throw new BadEventException("task end without 'Stage ID'");
    }
    if (!sawInfo) {
      e.infoMissing = true;
    }
  }

  static void parseTaskInfo(JsonParser p, TaskInfoScratch info) throws IOException {
    expectObject(p, "Task Info");
    boolean sawId = false;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "Task ID":
          info.taskId = longValue(p, name);
          sawId = true;
          break;
        case "Index":
          info.index = intValue(p, name);
          break;
        case "Attempt":
          info.attempt = nullable(p) ? 1 : intValue(p, name);
          break;
        case "Partition ID":
          info.partitionId = nullable(p) ? -1 : intValue(p, name);
          break;
        case "Launch Time":
          info.launchTime = longValue(p, name);
          break;
        case "Executor ID":
          info.executorId = stringValue(p, name);
          break;
        case "Host":
          info.host = stringValue(p, name);
          break;
        case "Locality":
          info.locality = stringValue(p, name);
          break;
        case "Speculative":
          info.speculative = !nullable(p) && booleanValue(p, name);
          break;
        case "Getting Result Time":
          info.gettingResultTime = longValue(p, name);
          break;
        case "Finish Time":
          info.finishTime = longValue(p, name);
          break;
        case "Failed":
          info.failed = booleanValue(p, name);
          break;
        case "Killed":
          info.killed = !nullable(p) && booleanValue(p, name);
          break;
        case "Accumulables":
          parseAccumulables(p, info);
          break;
        default:
          p.skipChildren();
      }
    }
    if (!sawId) {
      throw new BadEventException("'Task Info' without 'Task ID'");
    }
  }

  private static void parseAccumulables(JsonParser p, TaskInfoScratch info) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new BadEventException("'Accumulables' should be an array");
    }
    while (p.nextToken() == JsonToken.START_OBJECT) {
      long id = 0;
      String accName = null;
      boolean internalName = false;
      String update = null;
      String value = null;
      boolean internal = false;
      String metadata = null;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "ID":
            id = longValue(p, "ID");
            break;
          case "Name":
            if (v == JsonToken.VALUE_STRING && startsWithInternal(p)) {
              internalName = true;
            } else if (v != JsonToken.VALUE_NULL) {
              accName = p.getText();
            }
            break;
          case "Update":
            if (internalName || v == JsonToken.VALUE_NULL) {
              p.skipChildren();
            } else {
              update = scalarText(p);
            }
            break;
          case "Value":
            if (internalName || v == JsonToken.VALUE_NULL) {
              p.skipChildren();
            } else {
              value = scalarText(p);
            }
            break;
          case "Internal":
            internal = v == JsonToken.VALUE_TRUE;
            break;
          case "Metadata":
            metadata = v == JsonToken.VALUE_NULL ? null : p.getText();
            break;
          default:
            p.skipChildren();
        }
      }
      if (internalName) {
        continue;
      }
      // SQL metrics are marked internal: their updates go to the SQL tracker all the same.
      if (update != null) {
        long numeric = parseLongOrMin(update);
        if (numeric != Long.MIN_VALUE) {
          info.addSqlUpdate(id, numeric);
        }
      }
      if (internal) {
        continue;
      }
      if (!"sql".equals(metadata)) {
        info.addUserAccumulable(id, accName, update, value);
      }
    }
  }

  private static boolean startsWithInternal(JsonParser p) throws IOException {
    char[] chars = p.getTextCharacters();
    int off = p.getTextOffset();
    int len = p.getTextLength();
    String prefix = "internal.";
    if (len < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (chars[off + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static String scalarText(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
      // A block-status list or similar: Spark would show its text form; keep it compact.
      p.skipChildren();
      return "";
    }
    return p.getText();
  }

  static long parseLongOrMin(String s) {
    int n = s.length();
    if (n == 0 || n > 19) {
      return Long.MIN_VALUE;
    }
    int i = 0;
    boolean negative = false;
    if (s.charAt(0) == '-') {
      negative = true;
      i = 1;
      if (n == 1) {
        return Long.MIN_VALUE;
      }
    }
    long v = 0;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return Long.MIN_VALUE;
      }
      v = v * 10 + (c - '0');
    }
    return negative ? -v : v;
  }

  static void parseReason(JsonParser p, TaskEndReason r) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return;
    }
    expectObject(p, "Task End Reason");
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (v == JsonToken.VALUE_NULL) {
        continue;
      }
      switch (name) {
        case "Reason":
          r.reason = stringValue(p, name);
          break;
        case "Class Name":
          r.className = stringValue(p, name);
          break;
        case "Description":
          r.description = stringValue(p, name);
          break;
        case "Stack Trace":
          parseStackTrace(p, r);
          break;
        case "Full Stack Trace":
          r.fullStackTrace = p.getText();
          break;
        case "Block Manager Address":
          parseBlockManager(p, r);
          break;
        case "Shuffle ID":
          r.shuffleId = intValue(p, name);
          break;
        case "Map ID":
          r.mapId = longValue(p, name);
          break;
        case "Map Index":
          r.mapIndex = intValue(p, name);
          break;
        case "Reduce ID":
          r.reduceId = intValue(p, name);
          break;
        case "Message":
          r.message = p.getText();
          break;
        case "Kill Reason":
          r.killReason = p.getText();
          break;
        case "Job ID":
          r.commitJobId = intValue(p, name);
          break;
        case "Partition ID":
          r.commitPartitionId = intValue(p, name);
          break;
        case "Attempt Number":
          r.commitAttemptNumber = intValue(p, name);
          break;
        case "Exit Caused By App":
          r.exitCausedByApp = booleanValue(p, name);
          break;
        case "Executor ID":
          r.lostExecutorId = p.getText();
          break;
        case "Loss Reason":
          r.lossReason = p.getText();
          break;
        default:
          p.skipChildren();
      }
    }
  }

  private static void parseStackTrace(JsonParser p, TaskEndReason r) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return;
    }
    r.stackTracePresent = true;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String cls = null;
      String method = null;
      String file = null;
      int line = 0;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "Declaring Class":
            cls = v == JsonToken.VALUE_NULL ? null : p.getText();
            break;
          case "Method Name":
            method = v == JsonToken.VALUE_NULL ? null : p.getText();
            break;
          case "File Name":
            file = v == JsonToken.VALUE_NULL ? null : p.getText();
            break;
          case "Line Number":
            line = intValue(p, name);
            break;
          default:
            p.skipChildren();
        }
      }
      r.stackTrace.add(
          new StackTraceElement(
                  cls == null ? "" : cls, method == null ? "" : method, file, line)
              .toString());
    }
  }

  private static void parseBlockManager(JsonParser p, TaskEndReason r) throws IOException {
    expectObject(p, "Block Manager Address");
    r.hasBlockManager = true;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "Executor ID":
          r.bmExecutorId = p.getText();
          break;
        case "Host":
          r.bmHost = p.getText();
          break;
        case "Port":
          r.bmPort = intValue(p, name);
          break;
        default:
          p.skipChildren();
      }
    }
  }

  static void parseExecutorMetrics(JsonParser p, long[] into) throws IOException {
    expectObject(p, "Executor Metrics");
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      int i = PeakMetrics.indexOf(name);
      if (i >= 0) {
        into[i] = longValue(p, name);
      } else {
        p.skipChildren();
      }
    }
  }

  static void parseTaskMetrics(JsonParser p, long[] m) throws IOException {
    expectObject(p, "Task Metrics");
    TaskMetricFields.Group plain = TaskMetricFields.TASK;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      int k = plain.indexOf(name);
      if (k >= 0) {
        m[plain.targets()[k]] = metric(p, name, plain, k);
      } else if (v == JsonToken.VALUE_NULL) {
        p.skipChildren(); // a null nested object: nothing reported
      } else if (name.equals(TaskMetricFields.SHUFFLE_READ_OBJECT)) {
        parseShuffleRead(p, m);
      } else if (name.equals(TaskMetricFields.SHUFFLE_WRITE_OBJECT)) {
        parseSums(p, m, name, TaskMetricFields.SHUFFLE_WRITE);
      } else if (name.equals(TaskMetricFields.OUTPUT_OBJECT)) {
        parseSums(p, m, name, TaskMetricFields.OUTPUT);
      } else if (name.equals(TaskMetricFields.INPUT_OBJECT)) {
        parseSums(p, m, name, TaskMetricFields.INPUT);
      } else {
        p.skipChildren();
      }
    }
  }

  private static void parseShuffleRead(JsonParser p, long[] m) throws IOException {
    expectObject(p, TaskMetricFields.SHUFFLE_READ_OBJECT);
    TaskMetricFields.Group read = TaskMetricFields.SHUFFLE_READ;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      int k = read.indexOf(name);
      if (k >= 0) {
        m[read.targets()[k]] += metric(p, name, read, k);
      } else if (v != JsonToken.VALUE_NULL && name.equals(TaskMetricFields.PUSH_READ_OBJECT)) {
        parseSums(p, m, name, TaskMetricFields.PUSH_READ);
      } else {
        p.skipChildren();
      }
    }
  }

  /** An object of metrics added into {@code m}; other fields skipped. */
  private static void parseSums(JsonParser p, long[] m, String what, TaskMetricFields.Group g)
      throws IOException {
    expectObject(p, what);
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      int k = g.indexOf(name);
      if (k >= 0) {
        m[g.targets()[k]] += metric(p, name, g, k);
      } else {
        p.skipChildren();
      }
    }
  }

  /** The value of field {@code k} of {@code g}: null reads as 0 where the field may be null. */
  private static long metric(JsonParser p, String name, TaskMetricFields.Group g, int k)
      throws IOException {
    return g.optional()[k] ? optLong(p, name) : longValue(p, name);
  }

  private static void expectObject(JsonParser p, String what) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new BadEventException("'" + what + "' should be an object but is " + describe(p));
    }
  }

  private static boolean nullable(JsonParser p) {
    return p.currentToken() == JsonToken.VALUE_NULL;
  }

  static long longValue(JsonParser p, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return p.getLongValue();
    }
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      return (long) p.getDoubleValue();
    }
    throw new BadEventException("'" + field + "' should be a number but is " + describe(p));
  }

  private static long optLong(JsonParser p, String field) throws IOException {
    return p.currentToken() == JsonToken.VALUE_NULL ? 0 : longValue(p, field);
  }

  static int intValue(JsonParser p, String field) throws IOException {
    return (int) longValue(p, field);
  }

  static boolean booleanValue(JsonParser p, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_TRUE) {
      return true;
    }
    if (t == JsonToken.VALUE_FALSE) {
      return false;
    }
    throw new BadEventException("'" + field + "' should be true or false but is " + describe(p));
  }

  static String stringValue(JsonParser p, String field) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    throw new BadEventException("'" + field + "' should be a string but is " + describe(p));
  }

  private static String describe(JsonParser p) {
    JsonToken t = p.currentToken();
    if (t == null) {
      return "missing";
    }
    switch (t) {
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "a number";
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      default:
        return t.toString();
    }
  }
}

package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.ExecutorMetrics;
import java.nio.charset.StandardCharsets;

/**
 * The fast path for the two events that make up nearly all of a log, {@code SparkListenerTaskStart}
 * and {@code SparkListenerTaskEnd}: it fills the same scratch objects as {@link StreamingEvents},
 * straight from the line's bytes, without Jackson's tokenizer, name canonicalisation or strings.
 * Keys are recognised by their bytes (see {@link KeyTable}), numbers parsed in place, and values
 * nobody reads (internal accumulators, block lists) skipped by scanning for their boundaries.
 *
 * <p>It only accepts lines it understands completely: anything unusual (an escape or a non-ASCII
 * byte in a string, a value of an unexpected type, a fraction where an integer is read, a duplicate
 * key, a failure reason beyond its name, malformed JSON, trailing bytes) makes {@link #scan} answer
 * {@link #NOT_HANDLED}, and the caller parses the line with Jackson as before. So a line means the
 * same whichever path reads it; {@code TaskEventScannerTest} checks that on every line of the test
 * logs and on mutated variants of them.
 *
 * <p>It also reads {@code SparkListenerStageExecutorMetrics} (one per executor at every stage end)
 * the same way, so that those frequent small events do not keep Jackson's tree path hot.
 *
 * <p>One instance per replay (the key tables learn the key order of the log); not thread-safe.
 */
final class TaskEventScanner {
  static final int NOT_HANDLED = 0;
  static final int TASK_START = 1;
  static final int TASK_END = 2;
  static final int STAGE_EXECUTOR_METRICS = 3;

  private static final AsciiPattern EVENT_KEY = new AsciiPattern("\"Event\":");
  private static final AsciiPattern EVENT = new AsciiPattern("Event");
  private static final AsciiPattern TASK_START_NAME = new AsciiPattern("SparkListenerTaskStart");
  private static final AsciiPattern TASK_END_NAME = new AsciiPattern("SparkListenerTaskEnd");
  private static final AsciiPattern STAGE_EXECUTOR_METRICS_NAME =
      new AsciiPattern("SparkListenerStageExecutorMetrics");
  private static final AsciiPattern SUCCESS = new AsciiPattern("Success");
  private static final AsciiPattern SQL = new AsciiPattern("sql");
  private static final AsciiPattern INTERNAL_PREFIX = new AsciiPattern("internal.");

  private final ByteJsonCursor c = new ByteJsonCursor();
  private final AsciiStringCache strings = new AsciiStringCache(1024);

  // Keys in the order Spark writes them (the first guess of each table).
  private final KeyTable startKeys = new KeyTable("Stage ID", "Stage Attempt ID", "Task Info");
  private static final int S_STAGE = 0;
  private static final int S_ATTEMPT = 1;
  private static final int S_INFO = 2;

  private final KeyTable endKeys =
      new KeyTable(
          "Stage ID", "Stage Attempt ID", "Task Type", "Task End Reason", "Task Info",
          "Task Executor Metrics", "Task Metrics");
  private static final int E_STAGE = 0;
  private static final int E_ATTEMPT = 1;
  private static final int E_REASON = 3;
  private static final int E_INFO = 4;
  private static final int E_EXECUTOR_METRICS = 5;
  private static final int E_METRICS = 6;

  private final KeyTable infoKeys =
      new KeyTable(
          "Task ID", "Index", "Attempt", "Partition ID", "Launch Time", "Executor ID", "Host",
          "Locality", "Speculative", "Getting Result Time", "Finish Time", "Failed", "Killed",
          "Accumulables");
  private static final int I_TASK_ID = 0;
  private static final int I_INDEX = 1;
  private static final int I_ATTEMPT = 2;
  private static final int I_PARTITION = 3;
  private static final int I_LAUNCH = 4;
  private static final int I_EXECUTOR = 5;
  private static final int I_HOST = 6;
  private static final int I_LOCALITY = 7;
  private static final int I_SPECULATIVE = 8;
  private static final int I_GETTING_RESULT = 9;
  private static final int I_FINISH = 10;
  private static final int I_FAILED = 11;
  private static final int I_KILLED = 12;
  private static final int I_ACCUMULABLES = 13;

  private final KeyTable accumulableKeys =
      new KeyTable("ID", "Name", "Update", "Value", "Internal", "Count Failed Values", "Metadata");
  private static final int A_ID = 0;
  private static final int A_NAME = 1;
  private static final int A_UPDATE = 2;
  private static final int A_VALUE = 3;
  private static final int A_INTERNAL = 4;
  private static final int A_METADATA = 6;

  private final KeyTable reasonKeys =
      new KeyTable(
          "Reason", "Class Name", "Description", "Stack Trace", "Full Stack Trace",
          "Block Manager Address", "Shuffle ID", "Map ID", "Map Index", "Reduce ID", "Message",
          "Kill Reason", "Job ID", "Partition ID", "Attempt Number", "Exit Caused By App",
          "Executor ID", "Loss Reason");
  private static final int R_REASON = 0;
  private static final int R_CLASS = 1;
  private static final int R_DESCRIPTION = 2;
  private static final int R_STACK = 3;
  private static final int R_FULL_STACK = 4;
  private static final int R_BLOCK_MANAGER = 5;
  private static final int R_SHUFFLE = 6;
  private static final int R_MAP_ID = 7;
  private static final int R_MAP_INDEX = 8;
  private static final int R_REDUCE = 9;
  private static final int R_MESSAGE = 10;
  private static final int R_KILL_REASON = 11;
  private static final int R_JOB = 12;
  private static final int R_PARTITION = 13;
  private static final int R_ATTEMPT = 14;
  private static final int R_EXIT_BY_APP = 15;
  private static final int R_EXECUTOR = 16;
  private static final int R_LOSS_REASON = 17;

  private final KeyTable frameKeys =
      new KeyTable("Declaring Class", "Method Name", "File Name", "Line Number");
  private final KeyTable blockManagerKeys = new KeyTable("Executor ID", "Host", "Port");

  private final KeyTable stageMetricsKeys =
      new KeyTable(
          "Executor ID", "Stage ID", "Stage Attempt ID", "Executor Metrics",
          // Times the Jackson path notes (Replayer.seeTimes): such a line is left to it.
          "Timestamp", "Submission Time", "Completion Time", "time", "Stage Info");
  private static final int X_EXECUTOR = 0;
  private static final int X_STAGE = 1;
  private static final int X_ATTEMPT = 2;
  private static final int X_METRICS = 3;

  private final KeyTable executorMetricKeys = new KeyTable(ExecutorMetrics.NAMES);

  // The metric names and where they land come from TaskMetricFields, shared with the Jackson path;
  // the aliases keep the per-task loops reading static finals.
  private static final int[] METRIC_TARGETS = TaskMetricFields.TASK.targets();
  private static final boolean[] METRIC_OPTIONAL = TaskMetricFields.TASK.optional();
  /** The nested objects' keys follow the plain metrics (switch labels must be constants). */
  private static final int M_SHUFFLE_READ = 10;
  private static final int M_SHUFFLE_WRITE = 11;
  private static final int M_INPUT = 12;
  private static final int M_OUTPUT = 13;

  static {
    if (METRIC_TARGETS.length != M_SHUFFLE_READ) {
      throw new AssertionError("TaskMetricFields.TASK changed size; renumber M_SHUFFLE_READ...");
    }
  }

  private final KeyTable metricKeys =
      new KeyTable(
          TaskMetricFields.TASK.namesThen(
              TaskMetricFields.SHUFFLE_READ_OBJECT, TaskMetricFields.SHUFFLE_WRITE_OBJECT,
              TaskMetricFields.INPUT_OBJECT, TaskMetricFields.OUTPUT_OBJECT, "Updated Blocks"));

  private static final int[] SHUFFLE_READ_TARGETS = TaskMetricFields.SHUFFLE_READ.targets();
  private static final boolean[] SHUFFLE_READ_OPTIONAL = TaskMetricFields.SHUFFLE_READ.optional();
  private static final int R_PUSH = SHUFFLE_READ_TARGETS.length;
  private final KeyTable shuffleReadKeys =
      new KeyTable(TaskMetricFields.SHUFFLE_READ.namesThen(TaskMetricFields.PUSH_READ_OBJECT));

  private final KeyTable pushReadKeys = new KeyTable(TaskMetricFields.PUSH_READ.names());
  private static final int[] PUSH_READ_TARGETS = TaskMetricFields.PUSH_READ.targets();
  private static final boolean[] PUSH_READ_OPTIONAL = TaskMetricFields.PUSH_READ.optional();

  private final KeyTable shuffleWriteKeys = new KeyTable(TaskMetricFields.SHUFFLE_WRITE.names());
  private static final int[] SHUFFLE_WRITE_TARGETS = TaskMetricFields.SHUFFLE_WRITE.targets();
  private static final boolean[] SHUFFLE_WRITE_OPTIONAL = TaskMetricFields.SHUFFLE_WRITE.optional();

  private final KeyTable inputKeys = new KeyTable(TaskMetricFields.INPUT.names());
  private static final int[] INPUT_TARGETS = TaskMetricFields.INPUT.targets();
  private static final boolean[] INPUT_OPTIONAL = TaskMetricFields.INPUT.optional();
  private final KeyTable outputKeys = new KeyTable(TaskMetricFields.OUTPUT.names());
  private static final int[] OUTPUT_TARGETS = TaskMetricFields.OUTPUT.targets();
  private static final boolean[] OUTPUT_OPTIONAL = TaskMetricFields.OUTPUT.optional();

  /** The text of the last {@link #scalar()}: {@code b[scalarFrom, scalarTo)}, from -1 for null. */
  private int scalarFrom;
  private int scalarTo;

  /**
   * Parses the line {@code b[from, to)} if it is an event this scanner reads and accepts, into the
   * matching scratch object of {@code into}.
   *
   * @return {@link #TASK_START}, {@link #TASK_END} or {@link #STAGE_EXECUTOR_METRICS} when the
   *     event was parsed, {@link #NOT_HANDLED} when Jackson must read the line (the scratch objects
   *     may then hold partial values; the Jackson parsers reset them)
   */
  int scan(byte[] b, int from, int to, ParsedEvent into) {
    ByteJsonCursor c = this.c;
    c.reset(b, from, to);
    try {
      c.expect('{');
      if (!c.firstMember()) {
        return NOT_HANDLED;
      }
      // "Event" must come first, as on Jackson's streaming path.
      int p = c.p;
      if (p + EVENT_KEY.length <= to && EVENT_KEY.at(b, p)) {
        c.p = p + EVENT_KEY.length;
      } else {
        int close = c.string();
        if (!EVENT.equalsRange(b, p + 1, close)) {
          return NOT_HANDLED;
        }
        c.expect(':');
      }
      if (c.ws() != '"') {
        return NOT_HANDLED;
      }
      int nameAt = c.p;
      int close = c.string();
      if (TASK_END_NAME.equalsRange(b, nameAt + 1, close)) {
        // The task end is read here rather than in a method of its own: that keeps this method
        // larger than what the JIT compiler inlines, so both replay threads share its one
        // compiled copy instead of each compiling it (and all it inlines) into its own caller.
        TaskEndEvent e = into.taskEnd;
        e.reset();
        KeyTable keys = endKeys;
        boolean sawStage = false;
        boolean sawInfo = false;
        long seen = 0;
        int previous = -1;
        while (c.nextMember()) {
          int id = keys.key(c, previous);
          previous = id;
          seen = once(seen, id, keys);
          switch (id) {
            case E_STAGE:
              e.stageId = (int) c.integerValue();
              sawStage = true;
              break;
            case E_ATTEMPT:
              e.stageAttemptId = c.nullValue() ? 0 : (int) c.integerValue();
              break;
            case E_REASON:
              reason(e.reason);
              break;
            case E_INFO:
              if (c.nullValue()) {
                e.infoMissing = true;
              } else {
                taskInfo(e.info);
                sawInfo = true;
              }
              break;
            case E_EXECUTOR_METRICS:
              if (!c.nullValue()) {
                executorMetrics(e.executorMetrics);
              }
              break;
            case E_METRICS:
              if (!c.nullValue()) {
                taskMetrics(e.metrics);
              }
              break;
            default:
              c.skipValue();
          }
        }
        if (!sawStage || !c.atEnd()) {
          throw ByteJsonCursor.DECLINE;
        }
        if (!sawInfo) {
          e.infoMissing = true;
        }
        return TASK_END;
      }
      if (TASK_START_NAME.equalsRange(b, nameAt + 1, close)) {
        taskStart(into.taskStart);
        return TASK_START;
      }
      if (STAGE_EXECUTOR_METRICS_NAME.equalsRange(b, nameAt + 1, close)) {
        stageExecutorMetrics(into.stageMetrics);
        return STAGE_EXECUTOR_METRICS;
      }
      return NOT_HANDLED;
    } catch (ByteJsonCursor.Decline d) {
      return NOT_HANDLED;
    }
  }

  /**
   * As {@code ReplayState.onStageExecutorMetrics(JsonNode)} reads the tree: a string executor id,
   * integer stage and attempt ids, and metrics that are integers or null (0); unknown metrics and
   * fields are ignored.
   */
  private void stageExecutorMetrics(StageExecutorMetricsEvent e) {
    e.reset();
    ByteJsonCursor c = this.c;
    KeyTable keys = stageMetricsKeys;
    long seen = 0;
    int previous = -1;
    while (c.nextMember()) {
      int id = keys.key(c, previous);
      previous = id;
      seen = once(seen, id, keys);
      switch (id) {
        case X_EXECUTOR:
          if (c.ws() != '"') {
            throw ByteJsonCursor.DECLINE; // null or not a string: the Jackson path decides
          }
          e.executorId = cachedString();
          break;
        case X_STAGE:
          e.stageId = (int) c.integerValue();
          break;
        case X_ATTEMPT:
          e.stageAttemptId = (int) c.integerValue();
          break;
        case X_METRICS:
          if (!c.nullValue()) {
            peakMetrics(e.metrics);
          }
          break;
        default:
          if (id != keys.unknown) {
            throw ByteJsonCursor.DECLINE;
          }
          c.skipValue();
      }
    }
    long required = (1L << X_EXECUTOR) | (1L << X_STAGE) | (1L << X_ATTEMPT);
    if ((seen & required) != required || !c.atEnd()) {
      throw ByteJsonCursor.DECLINE;
    }
  }

  /** Peak metrics as {@code ExecutorMetricsJson} reads them: null is 0, unknown names ignored. */
  private void peakMetrics(long[] into) {
    ByteJsonCursor c = this.c;
    KeyTable keys = executorMetricKeys;
    if (!openObject()) {
      return;
    }
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      if (k == keys.unknown) {
        c.skipValue();
      } else {
        seen = once(seen, k, keys);
        into[k] = c.nullValue() ? 0 : c.integerValue();
      }
    } while (c.nextMember());
  }

  private void taskStart(TaskStartEvent e) {
    e.reset();
    ByteJsonCursor c = this.c;
    KeyTable keys = startKeys;
    boolean sawStage = false;
    boolean sawInfo = false;
    long seen = 0;
    int previous = -1;
    while (c.nextMember()) {
      int id = keys.key(c, previous);
      previous = id;
      seen = once(seen, id, keys);
      switch (id) {
        case S_STAGE:
          e.stageId = (int) c.integerValue();
          sawStage = true;
          break;
        case S_ATTEMPT:
          e.stageAttemptId = c.nullValue() ? 0 : (int) c.integerValue();
          break;
        case S_INFO:
          taskInfo(e.info);
          sawInfo = true;
          break;
        default:
          c.skipValue();
      }
    }
    if (!sawStage || !sawInfo || !c.atEnd()) {
      throw ByteJsonCursor.DECLINE;
    }
  }

  /** Marks key {@code id} seen; a known key seen twice declines (Jackson applies both). */
  private static long once(long seen, int id, KeyTable keys) {
    if (id == keys.unknown) {
      return seen;
    }
    long bit = 1L << id;
    if ((seen & bit) != 0) {
      throw ByteJsonCursor.DECLINE;
    }
    return seen | bit;
  }

  /** Opens the object at the cursor (after whitespace); whether it has a first member. */
  private boolean openObject() {
    if (c.ws() != '{') {
      throw ByteJsonCursor.DECLINE;
    }
    c.p++;
    return c.firstMember();
  }

  private void taskInfo(TaskInfoScratch info) {
    ByteJsonCursor c = this.c;
    KeyTable keys = infoKeys;
    boolean sawId = false;
    if (openObject()) {
      long seen = 0;
      int previous = -1;
      do {
        int id = keys.key(c, previous);
        previous = id;
        seen = once(seen, id, keys);
        switch (id) {
          case I_TASK_ID:
            info.taskId = c.integerValue();
            sawId = true;
            break;
          case I_INDEX:
            info.index = (int) c.integerValue();
            break;
          case I_ATTEMPT:
            info.attempt = c.nullValue() ? 1 : (int) c.integerValue();
            break;
          case I_PARTITION:
            info.partitionId = c.nullValue() ? -1 : (int) c.integerValue();
            break;
          case I_LAUNCH:
            info.launchTime = c.integerValue();
            break;
          case I_EXECUTOR:
            info.executorId = cachedString();
            break;
          case I_HOST:
            info.host = cachedString();
            break;
          case I_LOCALITY:
            info.locality = cachedString();
            break;
          case I_SPECULATIVE:
            info.speculative = !c.nullValue() && c.bool();
            break;
          case I_GETTING_RESULT:
            info.gettingResultTime = c.integerValue();
            break;
          case I_FINISH:
            info.finishTime = c.integerValue();
            break;
          case I_FAILED:
            info.failed = c.bool();
            break;
          case I_KILLED:
            info.killed = !c.nullValue() && c.bool();
            break;
          case I_ACCUMULABLES:
            accumulables(info);
            break;
          default:
            c.skipValue();
        }
      } while (c.nextMember());
    }
    if (!sawId) {
      throw ByteJsonCursor.DECLINE;
    }
  }

  /** A string (interned) or null. */
  private String cachedString() {
    int ch = c.ws();
    if (ch == '"') {
      int open = c.p;
      int close = c.string();
      return strings.get(c.b, open + 1, close);
    }
    if (ch == 'n' && c.nullValue()) {
      return null;
    }
    throw ByteJsonCursor.DECLINE;
  }

  private void accumulables(TaskInfoScratch info) {
    ByteJsonCursor c = this.c;
    if (c.nullValue()) {
      return;
    }
    if (c.ws() != '[') {
      throw ByteJsonCursor.DECLINE;
    }
    c.p++;
    if (!c.firstElement()) {
      return;
    }
    do {
      if (c.b[c.p] != '{') {
        throw ByteJsonCursor.DECLINE; // Jackson's loop would stop at a non-object element
      }
      accumulable(info);
    } while (c.nextElement());
  }

  /**
   * One accumulable, with {@code StreamingEvents.parseAccumulables}'s rules: internal metrics
   * ({@code internal.*} names) are dropped; a numeric update goes to the SQL tracker; what is
   * neither internal nor a SQL metric is kept as a user accumulator.
   */
  private void accumulable(TaskInfoScratch info) {
    ByteJsonCursor c = this.c;
    KeyTable keys = accumulableKeys;
    c.p++; // '{'
    long id = 0;
    int nameFrom = -1;
    int nameTo = -1;
    boolean internalName = false;
    int updateFrom = -1;
    int updateTo = -1;
    int valueFrom = -1;
    int valueTo = -1;
    boolean internal = false;
    boolean sqlMetadata = false;
    if (c.firstMember()) {
      long seen = 0;
      int previous = -1;
      do {
        int k = keys.key(c, previous);
        previous = k;
        seen = once(seen, k, keys);
        switch (k) {
          case A_ID:
            id = c.integerValue();
            break;
          case A_NAME:
            {
              int ch = c.ws();
              if (ch == '"') {
                int open = c.p;
                nameTo = c.string();
                nameFrom = open + 1;
                internalName = INTERNAL_PREFIX.prefixOf(c.b, nameFrom, nameTo);
              } else if (!c.nullValue()) {
                throw ByteJsonCursor.DECLINE;
              }
            }
            break;
          case A_UPDATE:
            scalar();
            updateFrom = scalarFrom;
            updateTo = scalarTo;
            break;
          case A_VALUE:
            scalar();
            valueFrom = scalarFrom;
            valueTo = scalarTo;
            break;
          case A_INTERNAL:
            internal = !c.nullValue() && c.bool();
            break;
          case A_METADATA:
            {
              int ch = c.ws();
              if (ch == '"') {
                int open = c.p;
                int close = c.string();
                sqlMetadata = SQL.equalsRange(c.b, open + 1, close);
              } else if (!c.nullValue()) {
                throw ByteJsonCursor.DECLINE;
              }
            }
            break;
          default:
            c.skipValue();
        }
      } while (c.nextMember());
    }
    if (internalName) {
      return;
    }
    byte[] b = c.b;
    // SQL metrics are marked internal: their updates go to the SQL tracker all the same.
    if (updateFrom >= 0) {
      long numeric = parseLongOrMin(b, updateFrom, updateTo);
      if (numeric != Long.MIN_VALUE) {
        info.addSqlUpdate(id, numeric);
      }
    }
    if (internal || sqlMetadata) {
      return;
    }
    info.addUserAccumulable(
        id, text(b, nameFrom, nameTo), text(b, updateFrom, updateTo), text(b, valueFrom, valueTo));
  }

  private static String text(byte[] b, int from, int to) {
    return from < 0 ? null : new String(b, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /**
   * Reads a value as Jackson's {@code getText()} sees a scalar (a string's text, a number's or
   * literal's own characters; "" for an array or object, which {@code scalarText} skips), into
   * {@link #scalarFrom}/{@link #scalarTo}; null gives -1.
   */
  private void scalar() {
    ByteJsonCursor c = this.c;
    int ch = c.ws();
    switch (ch) {
      case '"':
        {
          int open = c.p;
          scalarTo = c.string();
          scalarFrom = open + 1;
          return;
        }
      case 'n':
        c.nullValue();
        scalarFrom = -1;
        scalarTo = -1;
        return;
      case 't':
      case 'f':
        {
          int at = c.p;
          c.bool();
          scalarFrom = at;
          scalarTo = c.p;
          return;
        }
      case '[':
      case '{':
        c.skipValue();
        scalarFrom = 0;
        scalarTo = 0;
        return;
      default:
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
          scalarFrom = c.number();
          scalarTo = c.p;
          return;
        }
        throw ByteJsonCursor.DECLINE;
    }
  }

  /** {@link StreamingEvents#parseLongOrMin} over ASCII bytes. */
  static long parseLongOrMin(byte[] b, int from, int to) {
    int n = to - from;
    if (n == 0 || n > 19) {
      return Long.MIN_VALUE;
    }
    int i = from;
    boolean negative = false;
    if (b[i] == '-') {
      negative = true;
      i++;
      if (n == 1) {
        return Long.MIN_VALUE;
      }
    }
    long v = 0;
    for (; i < to; i++) {
      int d = b[i];
      if (d < '0' || d > '9') {
        return Long.MIN_VALUE;
      }
      v = v * 10 + (d - '0');
    }
    return negative ? -v : v;
  }

  /**
   * {@code StreamingEvents.parseReason}: null fields keep their defaults; strings may hold escapes
   * (stack traces do); values of other types than that method reads decline.
   */
  private void reason(TaskEndReason r) {
    ByteJsonCursor c = this.c;
    if (c.nullValue()) {
      return;
    }
    if (!openObject()) {
      return;
    }
    KeyTable keys = reasonKeys;
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      seen = once(seen, k, keys);
      if (c.nullValue()) {
        continue; // Jackson skips null reason fields: the default stays
      }
      switch (k) {
        case R_REASON:
          r.reason = reasonName();
          break;
        case R_CLASS:
          r.className = text();
          break;
        case R_DESCRIPTION:
          r.description = text();
          break;
        case R_STACK:
          stackTrace(r);
          break;
        case R_FULL_STACK:
          r.fullStackTrace = text();
          break;
        case R_BLOCK_MANAGER:
          blockManager(r);
          break;
        case R_SHUFFLE:
          r.shuffleId = (int) c.integerValue();
          break;
        case R_MAP_ID:
          r.mapId = c.integerValue();
          break;
        case R_MAP_INDEX:
          r.mapIndex = (int) c.integerValue();
          break;
        case R_REDUCE:
          r.reduceId = (int) c.integerValue();
          break;
        case R_MESSAGE:
          r.message = text();
          break;
        case R_KILL_REASON:
          r.killReason = text();
          break;
        case R_JOB:
          r.commitJobId = (int) c.integerValue();
          break;
        case R_PARTITION:
          r.commitPartitionId = (int) c.integerValue();
          break;
        case R_ATTEMPT:
          r.commitAttemptNumber = (int) c.integerValue();
          break;
        case R_EXIT_BY_APP:
          r.exitCausedByApp = c.bool();
          break;
        case R_EXECUTOR:
          r.lostExecutorId = text();
          break;
        case R_LOSS_REASON:
          r.lossReason = text();
          break;
        default:
          c.skipValue();
      }
    } while (c.nextMember());
  }

  /** The reason's name: a shared instance for the common ones. */
  private String reasonName() {
    if (c.ws() != '"') {
      throw ByteJsonCursor.DECLINE;
    }
    int open = c.p;
    int close = c.string();
    return SUCCESS.equalsRange(c.b, open + 1, close) ? "Success" : strings.get(c.b, open + 1, close);
  }

  /** A string value (not null, which callers handle), escapes decoded. */
  private String text() {
    ByteJsonCursor c = this.c;
    if (c.ws() != '"') {
      throw ByteJsonCursor.DECLINE; // Jackson would take a number's or literal's text
    }
    int open = c.p;
    int close = c.escapedString();
    return c.escaped
        ? c.decode(open + 1, close)
        : new String(c.b, open + 1, close - open - 1, StandardCharsets.ISO_8859_1);
  }

  /** A string or null, escapes decoded. */
  private String textOrNull() {
    return c.nullValue() ? null : text();
  }

  /**
   * {@code StreamingEvents.parseStackTrace}: a value other than an array is ignored; each frame
   * is rendered as {@code StackTraceElement.toString()}.
   */
  private void stackTrace(TaskEndReason r) {
    ByteJsonCursor c = this.c;
    if (c.ws() != '[') {
      c.skipValue();
      return;
    }
    r.stackTracePresent = true;
    c.p++;
    if (!c.firstElement()) {
      return;
    }
    KeyTable keys = frameKeys;
    do {
      if (c.b[c.p] != '{') {
        throw ByteJsonCursor.DECLINE; // Jackson's loop would stop inside the array
      }
      c.p++;
      String cls = null;
      String method = null;
      String file = null;
      int line = 0;
      if (c.firstMember()) {
        long seen = 0;
        int previous = -1;
        do {
          int k = keys.key(c, previous);
          previous = k;
          seen = once(seen, k, keys);
          switch (k) {
            case 0:
              cls = textOrNull();
              break;
            case 1:
              method = textOrNull();
              break;
            case 2:
              file = textOrNull();
              break;
            case 3:
              line = (int) c.integerValue();
              break;
            default:
              c.skipValue();
          }
        } while (c.nextMember());
      }
      r.stackTrace.add(
          new StackTraceElement(cls == null ? "" : cls, method == null ? "" : method, file, line)
              .toString());
    } while (c.nextElement());
  }

  /** {@code StreamingEvents.parseBlockManager}; nulls inside decline (Jackson reads "null"). */
  private void blockManager(TaskEndReason r) {
    if (!openObject()) {
      r.hasBlockManager = true;
      return;
    }
    r.hasBlockManager = true;
    ByteJsonCursor c = this.c;
    KeyTable keys = blockManagerKeys;
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      seen = once(seen, k, keys);
      switch (k) {
        case 0:
          r.bmExecutorId = text();
          break;
        case 1:
          r.bmHost = text();
          break;
        case 2:
          r.bmPort = (int) c.integerValue();
          break;
        default:
          c.skipValue();
      }
    } while (c.nextMember());
  }

  private void executorMetrics(long[] into) {
    ByteJsonCursor c = this.c;
    KeyTable keys = executorMetricKeys;
    if (!openObject()) {
      return;
    }
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      if (k == keys.unknown) {
        c.skipValue();
      } else {
        seen = once(seen, k, keys);
        into[k] = c.integerValue();
      }
    } while (c.nextMember());
  }

  private void taskMetrics(long[] m) {
    ByteJsonCursor c = this.c;
    KeyTable keys = metricKeys;
    if (!openObject()) {
      return;
    }
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      seen = once(seen, k, keys);
      if (k < METRIC_TARGETS.length) {
        m[METRIC_TARGETS[k]] = METRIC_OPTIONAL[k] && c.nullValue() ? 0 : c.integerValue();
        continue;
      }
      switch (k) {
        case M_SHUFFLE_READ:
          if (!c.nullValue()) {
            shuffleRead(m);
          }
          break;
        case M_SHUFFLE_WRITE:
          if (!c.nullValue()) {
            sums(m, shuffleWriteKeys, SHUFFLE_WRITE_TARGETS, SHUFFLE_WRITE_OPTIONAL);
          }
          break;
        case M_INPUT:
          if (!c.nullValue()) {
            sums(m, inputKeys, INPUT_TARGETS, INPUT_OPTIONAL);
          }
          break;
        case M_OUTPUT:
          if (!c.nullValue()) {
            sums(m, outputKeys, OUTPUT_TARGETS, OUTPUT_OPTIONAL);
          }
          break;
        default:
          c.skipValue();
      }
    } while (c.nextMember());
  }

  private void shuffleRead(long[] m) {
    ByteJsonCursor c = this.c;
    KeyTable keys = shuffleReadKeys;
    if (!openObject()) {
      return;
    }
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      seen = once(seen, k, keys);
      if (k < SHUFFLE_READ_TARGETS.length) {
        m[SHUFFLE_READ_TARGETS[k]] += SHUFFLE_READ_OPTIONAL[k] && c.nullValue() ? 0 : c.integerValue();
      } else if (k == R_PUSH) {
        if (!c.nullValue()) {
          sums(m, pushReadKeys, PUSH_READ_TARGETS, PUSH_READ_OPTIONAL);
        }
      } else {
        c.skipValue();
      }
    } while (c.nextMember());
  }

  /** An object of integer metrics added into {@code m}; unknown keys skipped. */
  private void sums(long[] m, KeyTable keys, int[] targets, boolean[] optional) {
    ByteJsonCursor c = this.c;
    if (!openObject()) {
      return;
    }
    long seen = 0;
    int previous = -1;
    do {
      int k = keys.key(c, previous);
      previous = k;
      seen = once(seen, k, keys);
      if (k < targets.length) {
        m[targets[k]] += optional[k] && c.nullValue() ? 0 : c.integerValue();
      } else {
        c.skipValue();
      }
    } while (c.nextMember());
  }
}

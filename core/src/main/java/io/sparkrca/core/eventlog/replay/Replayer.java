package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.io.BinaryFormat;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One streaming pass over the files of one application attempt: lines are split without copying,
 * task start and task end events (nearly all of a log) are parsed with token loops, the rare
 * events as trees. Bad lines are counted and reported, or fatal in strict mode.
 */
public final class Replayer {
  /**
   * What a strict replay's error about a bad line says to do: replay leniently, which skips bad
   * lines and reports them. A command line may say it with its own option.
   */
  public static final Remedy LENIENT =
      Remedy.of("replay.lenient", "strict mode: replay with strict(false) to skip bad lines and report them");

  /** The parser settings of every replay; the differential tests parse with the same ones. */
  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNestingDepth(200)
                  .maxNumberLength(1000)
                  .build())
          .build();

  /**
   * The mapper of the lines the byte-level readers decline, made on first use: most logs never
   * need it, and making one costs a short command tens of milliseconds (its class initializer
   * sets up date formats and locale data).
   */
  static ObjectMapper mapper() {
    return Mapper.MAPPER;
  }

  private static final class Mapper {
    static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);
  }
  /** Bytes read at a time: fewer, larger reads for logs of gigabytes. */
  private static final int READ_BUFFER = 1 << 20;
  private static final String TASK_START = "SparkListenerTaskStart";
  private static final String TASK_END = "SparkListenerTaskEnd";
  private static final String STAGE_EXECUTOR_METRICS = "SparkListenerStageExecutorMetrics";
  /**
   * Whether lines are read by {@link TaskEventScanner} and {@link EventTreeReader} first
   * (default). Turning it off ({@code -Dsparkrca.replay.fastPath=false}) reads every line with
   * Jackson: for comparisons.
   */
  static final boolean FAST_PATH =
      !"false".equals(System.getProperty("sparkrca.replay.fastPath"));
  private final ReplayOptions options;
  private final ReplayFacts facts = new ReplayFacts();
  private final SqlTracker sql = new SqlTracker(facts);
  private final ReplayState state;
  /** Scratch for the events this thread parses, by either path. */
  private final ParsedEvent parsed = new ParsedEvent();
  private final TaskStartEvent taskStart = parsed.taskStart;
  private final TaskEndEvent taskEnd = parsed.taskEnd;
  private final TaskEventScanner scanner;
  private final EventTreeReader trees = new EventTreeReader();
  private final boolean pipelined;
  private final List<ReplayReport.SourceFile> sources = new ArrayList<>();

  /** A pending parse failure: only a bad line if another line follows it. */
  private long pendingBadLine = -1;
  private String pendingReason;

  /**
   * A replay with these options: on a second thread too ({@link LinePipeline}) when {@link
   * ReplayOptions#threads()} is 2.
   */
  public Replayer(ReplayOptions options) {
    this(options, FAST_PATH, options.threads() >= 2);
  }

  /**
   * @param fastPath whether lines are read by the byte-level readers first (else all by Jackson)
   * @param pipelined whether lines are read and split on a second thread
   */
  Replayer(ReplayOptions options, boolean fastPath, boolean pipelined) {
    this.options = options;
    this.state = new ReplayState(options.maxTaskRowsPerStage(), List.of(sql), facts);
    this.scanner = fastPath ? new TaskEventScanner() : null;
    this.pipelined = pipelined;
  }

  /**
   * Reads one file of the log. Files of a rolling log are fed in order.
   *
   * @param inProgress whether the application may still be writing (a cut-off end is normal)
   */
  public void read(ByteSource source, boolean inProgress) throws IOException {
    facts.currentSource = source.name();
    try (DecodedStream in = DecodedStream.open(source, true);
        LineReader lines = new LineReader(in, lineCap(), READ_BUFFER)) {
      if (!in.compression().isCompressed()) {
        // Refuse a JAR, class or data file now rather than after reading it all as lines.
        java.util.Optional<BinaryFormat> other = BinaryFormat.detect(source.fileName(), in.head());
        if (other.isPresent()) {
          throw new NotAnEventLogException(source.name(), other.get());
        }
      }
      for (String note : in.notes()) {
        facts.note(note);
      }
      if (in.isEmpty()) {
        sources.add(new ReplayReport.SourceFile(source.name(), "none", 0, inProgress));
        return;
      }
      long eventsBefore = facts.events;
      long badBefore = facts.badLineCount;
      long lineCount = pipelined ? readPipelined(lines, source) : readDirect(lines, source);
      for (String note : in.notes()) {
        facts.note(note);
      }
      if (in.truncated()) {
        facts.truncated = true;
      }
      if (pendingBadLine >= 0) {
        // A last line that does not parse is a log cut off mid-write, as Spark treats it.
        facts.truncated = true;
        facts.note(
            source.fileName() + " ends with an incomplete line (line " + pendingBadLine + ")"
                + (inProgress ? "; the application was still running" : "; the log was cut off"));
        pendingBadLine = -1;
      }
      sources.add(
          new ReplayReport.SourceFile(
              source.name(), in.compression().isCompressed() ? in.compression().codecName() : "none",
              source.size().orElse(-1), inProgress));
      if (facts.events == eventsBefore && facts.badLineCount > badBefore && lineCount > 0) {
        throw new CorruptInputException(
            source.name() + " is not a Spark event log: none of its " + lineCount + " lines is a "
                + "Spark event (first problem: " + facts.badLines.get(0).reason() + "). Point "
                + "sparkrca at the event log directory (spark.eventLog.dir), not a driver log");
      }
    }
  }

  /**
   * States a part of the log that could not be read at all (a rolling log's missing, empty or
   * skipped part), one sentence naming the file: it becomes a note of the report, and the
   * application's {@link io.sparkrca.core.app.Completeness} counts it as unreadable.
   */
  public void partMissing(String sentence) {
    java.util.Objects.requireNonNull(sentence, "sentence");
    facts.missingParts++;
    facts.note(sentence);
  }

  /** Reads and applies every line on this thread; returns how many. */
  private long readDirect(LineReader lines, ByteSource source) throws IOException {
    long count = 0;
    while (lines.next()) {
      count++;
      facts.lines++;
      flushPending();
      if (lines.lineTruncated()) {
        overlong(source, lines.lineNumber(), lines.fullLength());
        continue;
      }
      applyLine(lines.buffer(), lines.start(), lines.length(), lines.lineNumber());
    }
    return count;
  }

  /**
   * Applies every line, in order, as {@link #readDirect} does, with reading, decoding, splitting
   * and half the parsing done by a {@link LinePipeline}; returns how many.
   */
  private long readPipelined(LineReader lines, ByteSource source) throws IOException {
    long count = 0;
    try (LinePipeline pipe = new LinePipeline(lines, source.fileName(), scanner != null)) {
      while (true) {
        LinePipeline.Batch b = pipe.next();
        for (int k = 0; k < b.count; k++) {
          count++;
          facts.lines++;
          flushPending();
          long line = b.number[k];
          byte kind = b.kind[k];
          if (kind == LinePipeline.RAW) {
            applyLine(b.data, b.start[k], b.length[k], line);
          } else if (kind == LinePipeline.OVERLONG) {
            overlong(source, line, b.fullLength[k]);
          } else {
            EventRecords.decode(kind, b.records, b.recordAt[k], pipe.strings, parsed);
            try {
              applyParsed(kind, parsed, line);
            } catch (BadEventException e) {
              recordBad(line, e.getMessage());
            }
          }
        }
        Throwable failure = b.failure;
        boolean last = b.last;
        pipe.recycle(b);
        if (failure != null) {
          LinePipeline.rethrow(failure);
        }
        if (last) {
          return count;
        }
      }
    }
  }

  private void overlong(ByteSource source, long line, long fullLength) {
    facts.overlongLines++;
    facts.note(
        source.fileName() + " line " + line + " is " + fullLength + " bytes, over the "
            + lineCap() + "-byte line cap; skipped it (raise maxLineBytes to read it)");
  }

  /** The line cap: the option, within what {@link LineReader} accepts. */
  private int lineCap() {
    return Math.min(options.maxLineBytes(), LineReader.MAX_LINE_CAP);
  }

  private void flushPending() {
    if (pendingBadLine >= 0) {
      recordBad(pendingBadLine, pendingReason);
      pendingBadLine = -1;
    }
  }

  private void recordBad(long line, String reason) {
    if (options.strict()) {
      throw new CorruptInputException(facts.currentSource + " line " + line + ": " + reason + " (", LENIENT, ")");
    }
    facts.badLine(line, reason);
  }

  private void applyLine(byte[] buf, int start, int length, long line) throws IOException {
    int i = start;
    int end = start + length;
    while (i < end && (buf[i] == ' ' || buf[i] == '\t')) {
      i++;
    }
    if (i == end) {
      return; // blank line
    }
    if (buf[i] != '{') {
      pending(line, "not a JSON object (starts with '" + printable(buf[i]) + "')");
      return;
    }
    if (scanner != null) {
      try {
        if (applyFast(buf, i, end, line)) {
          return;
        }
      } catch (JsonProcessingException e) {
        pending(line, "not valid JSON: " + e.getOriginalMessage());
        return;
      } catch (BadEventException e) {
        recordBad(line, e.getMessage());
        return;
      }
    }
    try (JsonParser p = FACTORY.createParser(buf, start, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        pending(line, "not a JSON object");
        return;
      }
      JsonToken t = p.nextToken();
      String event;
      if (t == JsonToken.FIELD_NAME && "Event".equals(p.currentName())) {
        p.nextToken();
        event = p.getValueAsString();
        if (event == null) {
          recordBad(line, "'Event' is not a string");
          return;
        }
        dispatch(event, p, null, line);
      } else {
        // "Event" is not the first field: read the whole object, then dispatch.
        ObjectNode tree = mapper().readTree(FACTORY.createParser(buf, start, length));
        JsonNode ev = tree.get("Event");
        if (ev == null || !ev.isTextual()) {
          recordBad(line, "JSON object without an 'Event' field");
          return;
        }
        dispatch(ev.textValue(), null, tree, line);
      }
    } catch (JsonProcessingException e) {
      pending(line, "not valid JSON: " + e.getOriginalMessage());
    } catch (BadEventException e) {
      recordBad(line, e.getMessage());
    }
  }

  /**
   * Applies the line if it is one the byte-level readers accept: task events and stage executor
   * metrics by {@link TaskEventScanner}, other events (but task events it declined) as trees by
   * {@link EventTreeReader}. False when Jackson must read it.
   */
  private boolean applyFast(byte[] buf, int start, int end, long line) throws IOException {
    int kind = scanner.scan(buf, start, end, parsed);
    if (kind != TaskEventScanner.NOT_HANDLED) {
      applyParsed(kind, parsed, line);
      return true;
    }
    ObjectNode tree = trees.read(buf, start, end);
    if (tree == null) {
      return false;
    }
    String event = trees.event();
    if (event.equals(TASK_START) || event.equals(TASK_END)) {
      // A task event the scanner declined: Jackson's streaming parse, whose number texts the
      // accumulators keep (a tree would reformat them).
      return false;
    }
    dispatch(event, null, tree, line);
    return true;
  }

  private void pending(long line, String reason) {
    flushPending();
    pendingBadLine = line;
    pendingReason = reason;
  }

  private static String printable(byte b) {
    return b >= 0x20 && b < 0x7f ? Character.toString((char) b) : String.format("\\x%02x", b & 0xff);
  }

  /**
   * Applies one event. Exactly one of {@code p} (positioned after the "Event" value) and {@code
   * tree} is given.
   */
  private void dispatch(String event, JsonParser p, ObjectNode tree, long line) throws IOException {
    switch (event) {
      case TASK_START:
        if (p == null) {
          p = tree.traverse(mapper());
          p.nextToken();
        }
        StreamingEvents.parseTaskStart(p, taskStart);
        applyTaskStart(taskStart, line);
        return;
      case TASK_END:
        if (p == null) {
          p = tree.traverse(mapper());
          p.nextToken();
        }
        StreamingEvents.parseTaskEnd(p, taskEnd);
        applyTaskEnd(taskEnd, line);
        return;
      default:
        break;
    }
    JsonNode e = tree != null ? tree : restAsTree(p);
    facts.countEvent(event);
    seeTimes(e);
    String simple = event.substring(event.lastIndexOf('.') + 1);
    switch (simple) {
      case "SparkListenerLogStart":
        state.onLogStart(Json.optText(e, "Spark Version").orElse(""));
        break;
      case "SparkListenerApplicationStart":
        state.onApplicationStart(e, line);
        break;
      case "SparkListenerApplicationEnd":
        state.onApplicationEnd(e, line);
        break;
      case "SparkListenerEnvironmentUpdate":
        state.onEnvironmentUpdate(e);
        break;
      case "SparkListenerResourceProfileAdded":
        state.onResourceProfileAdded(e);
        break;
      case "SparkListenerExecutorAdded":
        state.onExecutorAdded(e);
        break;
      case "SparkListenerExecutorRemoved":
        state.onExecutorRemoved(e, line);
        break;
      case "SparkListenerBlockManagerAdded":
        state.onBlockManagerAdded(e);
        break;
      case "SparkListenerJobStart":
        state.onJobStart(e, line);
        break;
      case "SparkListenerJobEnd":
        state.onJobEnd(e, line);
        break;
      case "SparkListenerStageSubmitted":
        state.onStageSubmitted(e, line);
        break;
      case "SparkListenerStageCompleted":
        state.onStageCompleted(e, line);
        break;
      case "SparkListenerExecutorMetricsUpdate":
        state.onExecutorMetricsUpdate(e);
        sql.onExecutorMetricsUpdate(e);
        break;
      case "SparkListenerStageExecutorMetrics":
        state.onStageExecutorMetrics(e);
        break;
      case "SparkListenerBlockUpdated":
        state.onBlockUpdated(e);
        break;
      case "SparkListenerUnpersistRDD":
        state.onUnpersistRdd(e);
        break;
      case "SparkListenerExecutorBlacklisted":
      case "SparkListenerExecutorExcluded":
        state.onExecutorExclusion(Json.requiredString(e, "executorId"), true);
        break;
      case "SparkListenerExecutorUnblacklisted":
      case "SparkListenerExecutorUnexcluded":
        state.onExecutorExclusion(Json.requiredString(e, "executorId"), false);
        break;
      case "SparkListenerNodeBlacklisted":
      case "SparkListenerNodeExcluded":
        state.onNodeExclusion(Json.requiredString(e, "hostId"), true);
        break;
      case "SparkListenerNodeUnblacklisted":
      case "SparkListenerNodeUnexcluded":
        state.onNodeExclusion(Json.requiredString(e, "hostId"), false);
        break;
      case "SparkListenerExecutorBlacklistedForStage":
      case "SparkListenerExecutorExcludedForStage":
        state.onExecutorExcludedForStage(
            Json.requiredInt(e, "stageId"), Json.requiredInt(e, "stageAttemptId"),
            Json.requiredString(e, "executorId"));
        break;
      case "SparkListenerNodeBlacklistedForStage":
      case "SparkListenerNodeExcludedForStage":
        state.onNodeExcludedForStage(
            Json.requiredInt(e, "stageId"), Json.requiredInt(e, "stageAttemptId"),
            Json.requiredString(e, "hostId"));
        break;
      case "SparkListenerMiscellaneousProcessAdded":
        state.onMiscellaneousProcessAdded(e);
        break;
      default:
        if (sql.handles(event)) {
          sql.onEvent(event, e, line);
        }
        // Other events (block manager removed, getting result, custom ones) change nothing the
        // History Server reports.
    }
  }

  /** Applies an event parsed by a {@link TaskEventScanner}: {@code kind} is what it returned. */
  private void applyParsed(int kind, ParsedEvent e, long line) {
    switch (kind) {
      case TaskEventScanner.TASK_END:
        applyTaskEnd(e.taskEnd, line);
        break;
      case TaskEventScanner.TASK_START:
        applyTaskStart(e.taskStart, line);
        break;
      case TaskEventScanner.STAGE_EXECUTOR_METRICS:
        facts.countEvent(STAGE_EXECUTOR_METRICS);
        state.onStageExecutorMetrics(e.stageMetrics);
        break;
      default:
        throw new AssertionError("not a parsed event kind: " + kind); // the scanner's constants
    }
  }

  private void applyTaskStart(TaskStartEvent e, long line) {
    requireTaskInfoFields(e.info, "task start");
    facts.countEvent(TASK_START);
    facts.seeTime(e.info.launchTime);
    state.onTaskStart(e, line);
  }

  private void applyTaskEnd(TaskEndEvent e, long line) {
    if (!e.infoMissing) {
      requireTaskInfoFields(e.info, "task end");
    }
    facts.countEvent(TASK_END);
    facts.seeTime(Math.max(e.info.finishTime, e.info.launchTime));
    state.onTaskEnd(e, line);
  }

  /**
   * Refuses a task event whose 'Task Info' has no 'Executor ID' (Spark's own reader cannot read
   * such a line either): the line is then a bad line, skipped and reported, instead of a task with
   * no executor that breaks the replay later. (A missing host or locality is tolerated, as the
   * seed tools tolerate it.)
   */
  private static void requireTaskInfoFields(TaskInfoScratch info, String event) {
    if (info.executorId == null) {
      throw new BadEventException(event + " of task " + info.taskId + " without 'Executor ID' in its 'Task Info'");
    }
  }

  private static final String[] TIME_FIELDS = {"Timestamp", "Submission Time", "Completion Time", "time"};

  /** Notes the times an event carries, at its top level and in its stage info. */
  private void seeTimes(JsonNode e) {
    for (String f : TIME_FIELDS) {
      JsonNode t = e.get(f);
      if (t != null && t.isIntegralNumber()) {
        facts.seeTime(t.longValue());
      }
    }
    JsonNode stage = e.get("Stage Info");
    if (stage != null) {
      for (String f : TIME_FIELDS) {
        JsonNode t = stage.get(f);
        if (t != null && t.isIntegralNumber()) {
          facts.seeTime(t.longValue());
        }
      }
    }
  }

  /** Reads the remaining fields of the current object into a tree. */
  static ObjectNode restAsTree(JsonParser p) throws IOException {
    ObjectNode node = mapper().createObjectNode();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      p.nextToken();
      node.set(name, mapper().readTree(p));
    }
    return node;
  }

  /**
   * Finishes the replay. What is still running is measured up to "now": for a finished
   * application the log's last update (as the History Server does); for one whose log has no end,
   * the latest time any event carries, which unlike the History Server's wall clock gives the
   * same answer every time.
   */
  public ReplayResult finish(long lastUpdateTime) {
    flushPending();
    if (!state.completed && facts.latestEventTime > 0) {
      lastUpdateTime = facts.latestEventTime;
    }
    facts.lastUpdateTime = lastUpdateTime;
    if (state.appId == null && facts.events > 0) {
      facts.note("the log has no application start event; it was cut before the application started");
    }
    if (state.completed && state.hasLiveTasks()) {
      facts.inconsistentAtEnd("tasks launched that never ended although the application did", state.liveTaskCount());
    }
    state.finish(lastUpdateTime);
    long dropped = 0;
    for (TaskTable t : state.taskTables.values()) {
      dropped += t.dropped();
    }
    if (dropped > 0) {
      facts.note(
          dropped + " task rows were not kept (over " + options.maxTaskRowsPerStage()
              + " per stage); stage totals are exact, task lists and quantiles cover kept rows");
    }
    ReplayReport report =
        new ReplayReport(
            sources,
            facts.lines,
            facts.events,
            facts.eventCounts(),
            facts.badLineCount,
            facts.badLines,
            facts.overlongLines,
            facts.truncated,
            state.completed,
            dropped,
            facts.notes,
            facts.inconsistencies());
    return new ReplayResult(state, sql, facts.toFacts(state.sparkVersion, state.exitCode), report, lastUpdateTime,
        facts.missingParts);
  }

  /**
   * Sets the time that stands for "now" for tasks that are still running (the log's last
   * modification, as the History Server uses); call before {@link #read}.
   */
  public void lastUpdateTime(long time) {
    facts.lastUpdateTime = time;
  }
}

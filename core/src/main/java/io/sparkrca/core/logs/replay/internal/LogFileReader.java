package io.sparkrca.core.logs.replay.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.io.ReadAheadInputStream;
import io.sparkrca.core.logs.LiteralFinder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one log file in one streaming pass and hands its records to a {@link RecordSink}: decodes
 * any codec, tells the file's layout from its first bytes (plain lines, possibly behind a {@link
 * LinePrefix}; JSON lines; a JSON array export, read with Jackson's streaming parser; or YARN's
 * aggregated {@code Container: ... LogType:stderr ... End of LogType:stderr} sections, each its
 * own {@link Section}), recognises each line's header ({@link PlainHeader}, {@link JsonEntry}),
 * and joins continuation lines to the record before them when its handler wants them.
 *
 * <p>When no record is being assembled, whole buffers of lines that hold none of the sink's
 * literals are skipped without being split into lines ({@link LineReader#skipUntil}).
 *
 * <p>Damage never stops the reading: a binary file, a cut-off end, over-long lines and unreadable
 * JSON become notes on the section. Only a source that cannot be opened fails ({@link IOException},
 * which the caller turns into the project's exception naming it).
 *
 * <pre>{@code
 * new LogFileReader(sink, 1 << 20, ZoneOffset.UTC).read(ByteSource.of(path), List.of());
 * }</pre>
 */
final class LogFileReader {
  private static final int SAMPLE_BYTES = 64 * 1024;
  private static final int READ_BUFFER = 256 * 1024;
  private static final int SAMPLE_LINES = 200;
  /** Skips in a row that skipped nothing before skipping pauses. */
  private static final int SKIP_PATIENCE = 32;
  /** Lines read one by one before skipping is tried again. */
  private static final int SKIP_PAUSE_LINES = 2048;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] CONTAINER = Scan.lit("Container: ");
  private static final byte[] LOG_TYPE = Scan.lit("LogType:");
  private static final byte[] LOG_CONTENTS = Scan.lit("LogContents:");
  private static final byte[] LOG_CONTENTS_OLD = Scan.lit("Log Contents:");
  private static final byte[] END_OF_LOG_TYPE = Scan.lit("End of LogType:");
  private static final List<String> YARN_LITERALS = List.of("Container: ", "LogType:", "LogContents:", "Log Contents:");

  private final RecordSink sink;
  private final int maxLineBytes;
  private final PlainHeader header;
  private final JsonEntry json;

  // Per file.
  /** Whether the last file read ended without its last line's end, or its stream was cut. */
  boolean cutOff;
  private String log;
  private Section main;
  private final Map<String, Section> keyed = new HashMap<>();
  private int pendingSections;
  private LinePrefix prefix = new LinePrefix(LinePrefix.Kind.NONE);
  private long overlong;
  // YARN aggregated logs.
  private String container;
  private String containerHost;
  private String logType;
  private Section yarnSection;

  LogFileReader(RecordSink sink, int maxLineBytes, java.time.ZoneId zone) {
    this.sink = sink;
    this.maxLineBytes = maxLineBytes;
    TimeParser times = new TimeParser(zone);
    this.header = new PlainHeader(times);
    this.json = new JsonEntry(new TimeParser(zone));
  }

  /** Reads {@code source}; {@code notes} are the notes made when it was opened (a resolved driver output prefix). */
  void read(ByteSource source, List<String> notes) throws IOException {
    log = source.name();
    cutOff = false;
    keyed.clear();
    pendingSections = 0;
    overlong = 0;
    container = null;
    containerHost = null;
    logType = null;
    yarnSection = null;
    main = sink.section(log, log);
    main.notes.addAll(notes);
    try (DecodedStream decoded = DecodedStream.open(source, true)) {
      main.notes.addAll(decoded.notes());
      InputStream in = decoded.compression().isCompressed() ? new ReadAheadInputStream(decoded, READ_BUFFER, 4) : decoded;
      try {
        byte[] sample = in.readNBytes(SAMPLE_BYTES);
        String binary = binary(sample);
        if (binary != null) {
          main.notes.add("not read: " + binary);
          return;
        }
        InputStream all = new SequenceInputStream(new ByteArrayInputStream(sample), in);
        if (jsonArray(sample)) {
          readJsonArray(all);
        } else {
          readLines(all, sample);
        }
      } finally {
        if (in != decoded) {
          in.close();
        }
      }
      if (decoded.truncated()) {
        main.notes.add("the " + decoded.compression().codecName() + " stream ends early: the log was cut off (or is still being written)");
        cutOff = true;
      }
    } finally {
      for (Section s : sections()) {
        endPending(s);
      }
      if (overlong > 0) {
        main.notes.add(overlong + " line" + (overlong == 1 ? " was" : "s were") + " longer than " + maxLineBytes
            + " bytes and cut there");
      }
    }
  }

  /** Lines cut at the line cap in the last file read. */
  long overlongLines() {
    return overlong;
  }

  private List<Section> sections() {
    List<Section> all = new ArrayList<>();
    all.add(main);
    all.addAll(keyed.values());
    if (yarnSection != null && !all.contains(yarnSection)) {
      all.add(yarnSection);
    }
    return all;
  }

  // ------------------------------------------------------------------ lines

  private void readLines(InputStream in, byte[] sample) throws IOException {
    cutOff = false;
    List<byte[]> head = sampleLines(sample);
    boolean yarn = yarnAggregated(head);
    if (!yarn) {
      prefix = LinePrefix.detect(head);
      main.wrapper = prefix.kind.label;
    } else {
      prefix = new LinePrefix(LinePrefix.Kind.NONE);
      main.wrapper = "YARN aggregated > ";
      main.layout = "container headers";
    }
    LineReader.Candidates skip = skipper(sample, yarn);
    boolean lastUnterminated = false;
    int fruitless = 0;
    long pausedUntil = 0;
    try (LineReader r = new LineReader(in, maxLineBytes, READ_BUFFER)) {
      while (true) {
        if (skip != null && pendingSections == 0 && r.lineNumber() >= pausedUntil && settled(yarn)) {
          // Where nearly every line is one the handlers read (task lines), looking for the next
          // costs more than it saves: after a run of skips that skipped nothing, read on a while.
          if (r.skipUntil(skip, 0, null) > 0) {
            fruitless = 0;
          } else if (++fruitless == SKIP_PATIENCE) {
            fruitless = 0;
            pausedUntil = r.lineNumber() + SKIP_PAUSE_LINES;
          }
        }
        if (!r.next()) {
          break;
        }
        if (r.lineTruncated()) {
          overlong++;
        }
        lastUnterminated = r.lineUnterminated();
        byte[] b = r.buffer();
        int from = r.start();
        int to = from + r.length();
        if (to > from && b[to - 1] == '\r') {
          to--;
        }
        if (yarn) {
          yarnLine(b, from, to, r.lineNumber());
        } else {
          prefixedLine(main, b, from, to, r.lineNumber());
        }
      }
      if (lastUnterminated && r.lineNumber() > 0) {
        main.notes.add("the log ends in the middle of line " + r.lineNumber() + " (no line end): it was cut off, or is still being written");
        cutOff = true;
      }
    }
  }

  /** Whether the layout of the lines being read is known, so that lines may be skipped. */
  private boolean settled(boolean yarn) {
    if (yarn) {
      return yarnSection != null && known(yarnSection);
    }
    if (!keyed.isEmpty()) {
      for (Section s : keyed.values()) {
        if (!known(s)) {
          return false;
        }
      }
      return true;
    }
    return known(main);
  }

  private static boolean known(Section s) {
    return s.timed || s.noTime;
  }

  private LineReader.Candidates skipper(byte[] sample, boolean yarn) {
    List<String> literals = new ArrayList<>(sink.literals());
    if (literals.isEmpty()) {
      return null;
    }
    if (yarn) {
      literals.addAll(YARN_LITERALS);
      literals.add("End of LogType:");
    }
    // A JVM's or Python's own errors start records without a header.
    literals.add("Exception in thread");
    literals.add("Traceback (most recent call last)");
    return LiteralFinder.anyOf(literals, sample);
  }

  private void prefixedLine(Section s, byte[] b, int from, int to, long number) {
    int channel = 0;
    Section target = s;
    if (prefix.kind != LinePrefix.Kind.NONE) {
      prefix.strip(b, from, to);
      from = prefix.start;
      channel = prefix.channel;
      if (prefix.key != null) {
        target = keyedSection(prefix.key);
      }
    }
    line(target, b, from, to, number, channel, true);
  }

  /** One line of a section: a JSON entry, a header, or a continuation. */
  private void line(Section s, byte[] b, int from, int to, long number, int channel, boolean jsonAllowed) {
    s.line(number);
    if (jsonAllowed && from < to && b[from] == '{') {
      if (json.parse(b, from, to)) {
        jsonEntry(s, number, channel);
        return;
      }
      if (s.layout.contains("JSON")) {
        s.unreadable++; // a damaged or cut entry among JSON entries
        return;
      }
    }
    if (header.parse(b, from, to, s.head, s.noTime)) {
      headerLine(s, number, channel);
      return;
    }
    if (!s.timed && !s.noTime && header.parse(b, from, to, s.head, true) && s.head.emitter != PlainHeader.STDERR) {
      s.noTime = true; // a layout without times: headers start with the level
      headerLine(s, number, channel);
      return;
    }
    if (s.pending) {
      if (channel == s.pendingChannel) {
        s.append(b, from, to);
      } else {
        endPending(s); // a line of another channel (Airflow's own) ends the Spark record
      }
    } else if (s.records == 0 && to > from) {
      s.unattached++;
    }
  }

  private void headerLine(Section s, long number, int channel) {
    endPending(s);
    RecordHead h = s.head;
    h.line = number;
    if (h.emitter != PlainHeader.STDERR && (s.layout.isEmpty() || !s.timed && header.timeKind != null)) {
      s.layout = (header.timeKind == null ? "log4j without time" : "log4j " + header.timeKind.pattern)
          + " LEVEL logger" + header.separator + "message";
      s.timed |= header.timeKind != null;
    }
    s.time(h.time);
    s.records++;
    if (sink.head(s, h)) {
      s.startPending(channel);
      pendingSections++;
    }
  }

  private void endPending(Section s) {
    if (s.pending) {
      String text = s.endPending();
      pendingSections--;
      try {
        sink.complete(s, text);
      } finally {
        s.pendingState = null;
      }
    }
  }

  // ------------------------------------------------------------------ JSON

  private void jsonEntry(Section s, long number, int channel) {
    Section t = json.key == null ? s : keyedSection(json.key);
    if (json.role != null && t.roleBy.isEmpty()) {
      t.role = json.role;
      t.executorId = json.executorId;
      t.roleBy = "the entries' labels";
    }
    String msg = json.message;
    int nl = msg.indexOf('\n');
    String first = nl < 0 ? msg : msg.substring(0, nl);
    byte[] fb = first.getBytes(StandardCharsets.UTF_8);
    if (json.logger == null || header.parse(fb, 0, fb.length, t.head, false)) {
      // The entry holds a log line as written (a textPayload, an Airflow event): read its lines.
      if (t.wrapper.isEmpty()) {
        t.wrapper = json.shape + " > ";
      }
      for (String l : msg.split("\n", -1)) {
        byte[] lb = l.getBytes(StandardCharsets.UTF_8);
        line(t, lb, 0, lb.length, number, channel, false);
      }
      return;
    }
    endPending(t);
    t.line(number);
    RecordHead h = t.head;
    h.time = json.time;
    h.level = json.level;
    h.emitter = json.logger;
    h.thread = null;
    h.buf = fb;
    h.msgStart = 0;
    h.msgEnd = fb.length;
    h.line = number;
    h.context = json.context;
    t.layout = json.shape;
    t.timed = true;
    t.time(h.time);
    t.records++;
    if (sink.head(t, h)) {
      t.startPending(channel);
      if (nl >= 0) {
        t.append(msg.substring(nl + 1));
      }
      t.append(json.exception);
      try {
        sink.complete(t, t.endPending());
      } finally {
        t.pendingState = null;
      }
    }
  }

  private void readJsonArray(InputStream in) throws IOException {
    cutOff = false;
    main.layout = "JSON array";
    JsonFactory f = JSON.getFactory();
    try (JsonParser p = f.createParser(in)) {
      p.nextToken(); // START_ARRAY
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
        long number = p.currentTokenLocation().getLineNr();
        JsonNode n = JSON.readTree(p);
        if (json.of(n)) {
          jsonEntry(main, number, 0);
        } else {
          main.unattached++;
        }
      }
      if (t != JsonToken.END_ARRAY) {
        main.notes.add("the JSON array ends early (cut off, or not one array of entries)");
        cutOff = true;
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      main.notes.add("the JSON array could not be read past line " + e.getLocation().getLineNr() + ": "
          + e.getOriginalMessage());
      cutOff = true;
    }
  }

  private static boolean jsonArray(byte[] sample) {
    int i = 0;
    if (sample.length >= 3 && (sample[0] & 0xff) == 0xEF && (sample[1] & 0xff) == 0xBB && (sample[2] & 0xff) == 0xBF) {
      i = 3;
    }
    while (i < sample.length && Character.isWhitespace(sample[i])) {
      i++;
    }
    if (i >= sample.length || sample[i] != '[') {
      return false;
    }
    i++;
    while (i < sample.length && Character.isWhitespace(sample[i])) {
      i++;
    }
    return i < sample.length && (sample[i] == '{' || sample[i] == ']');
  }

  private Section keyedSection(String key) {
    Section s = keyed.get(key);
    if (s == null) {
      s = sink.section(log, key);
      s.wrapper = main.wrapper;
      keyed.put(key, s);
    }
    return s;
  }

  // ------------------------------------------------------------------ YARN

  private static boolean yarnAggregated(List<byte[]> head) {
    for (byte[] l : head) {
      if (PlainHeader.startsWith(l, 0, l.length, CONTAINER) && new String(l, StandardCharsets.ISO_8859_1).contains("container_")
          || PlainHeader.startsWith(l, 0, l.length, LOG_TYPE)) {
        return true;
      }
    }
    return false;
  }

  private void yarnLine(byte[] b, int from, int to, long number) {
    if (yarnSection == null) {
      main.line(number);
      if (PlainHeader.startsWith(b, from, to, CONTAINER)) {
        containerLine(b, from, to);
      } else if (PlainHeader.startsWith(b, from, to, LOG_TYPE)) {
        logType = new String(b, from + LOG_TYPE.length, to - from - LOG_TYPE.length, StandardCharsets.UTF_8).strip();
      } else if (PlainHeader.startsWith(b, from, to, LOG_CONTENTS) || PlainHeader.startsWith(b, from, to, LOG_CONTENTS_OLD)) {
        String name = (container == null ? "container" : container) + "/" + (logType == null ? "log" : logType);
        yarnSection = sink.section(log, name);
        yarnSection.wrapper = "YARN aggregated > ";
        yarnSection.container = container;
        yarnSection.host = containerHost;
        if (container != null && container.endsWith("_000001")) {
          yarnSection.role = io.sparkrca.core.evidence.LogRole.DRIVER;
          yarnSection.roleBy = "its container (the application master's)";
        }
      }
      return;
    }
    if (PlainHeader.startsWith(b, from, to, END_OF_LOG_TYPE)) {
      endPending(yarnSection);
      yarnSection = null;
      main.line(number);
      return;
    }
    if (PlainHeader.startsWith(b, from, to, CONTAINER) && new String(b, from, Math.min(to - from, 64), StandardCharsets.ISO_8859_1).contains("container_")) {
      endPending(yarnSection); // a section without its end marker
      yarnSection.notes.add("the section has no 'End of LogType' line: it may be cut");
      yarnSection = null;
      containerLine(b, from, to);
      return;
    }
    line(yarnSection, b, from, to, number, 0, true);
  }

  /** {@code Container: container_..._000002 on host-1.example.com_8041}. */
  private void containerLine(byte[] b, int from, int to) {
    String rest = new String(b, from + CONTAINER.length, to - from - CONTAINER.length, StandardCharsets.UTF_8).strip();
    int on = rest.indexOf(" on ");
    container = on < 0 ? rest : rest.substring(0, on);
    containerHost = null;
    if (on >= 0) {
      String hostPort = rest.substring(on + 4).strip();
      int underscore = hostPort.lastIndexOf('_');
      containerHost = underscore > 0 ? hostPort.substring(0, underscore) : hostPort;
    }
    logType = null;
  }

  // ------------------------------------------------------------------ helpers

  private static List<byte[]> sampleLines(byte[] sample) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < sample.length && lines.size() < SAMPLE_LINES; i++) {
      if (sample[i] == '\n') {
        int end = i > start && sample[i - 1] == '\r' ? i - 1 : i;
        lines.add(java.util.Arrays.copyOfRange(sample, start, end));
        start = i + 1;
      }
    }
    if (lines.size() < SAMPLE_LINES && start < sample.length) {
      lines.add(java.util.Arrays.copyOfRange(sample, start, sample.length));
    }
    return lines;
  }

  /** Why {@code sample} is not text, or null when it is. */
  private static String binary(byte[] sample) {
    int nul = 0;
    int control = 0;
    for (byte x : sample) {
      int c = x & 0xff;
      if (c == 0) {
        nul++;
      } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b && c != '\b') {
        control++;
      }
    }
    if (nul == 0 && control * 10 <= sample.length) {
      return null;
    }
    return "it is binary, not text (" + (nul > 0 ? nul + " NUL bytes" : control + " control characters") + " in its first "
        + sample.length + " bytes); if it is compressed in a format sparkrca does not read, decompress it first";
  }
}

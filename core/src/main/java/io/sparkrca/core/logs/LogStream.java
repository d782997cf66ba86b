package io.sparkrca.core.logs;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.DriverOutput;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.io.ReadAheadInputStream;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.redaction.Redactor;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads, tails, searches and slices logs of any size, local or remote, compressed or not, with
 * memory that does not grow with the file: lines are streamed through a reused buffer, a line
 * longer than the cap (default 1 MiB) is cut with a marker instead of being held whole, and a
 * search stops at its match limit and closes the stream (which cancels a remote download).
 *
 * <ul>
 *   <li>{@link #info()}: size, codec (extension and magic bytes), whether it is large, what next;
 *   <li>{@link #head(int)} and {@link #tail(int)}: the tail of an uncompressed source is read from
 *       a window at the end with one ranged read (two requests in all for a remote object), widened
 *       if it holds fewer lines than asked; a compressed one is streamed once, keeping the last N;
 *   <li>{@link #search(SearchQuery)}: literal or regular expression (RE2 syntax; bounded work per
 *       line, so no pattern can hang it), context, match limit, line numbers and byte offsets.
 *       Whole buffers without a literal the pattern requires are skipped at memory speed;
 *   <li>{@link #range(long, long)} (at most {@value #MAX_LINES} lines) and {@link #count()}.
 * </ul>
 *
 * <p>Every codec Spark writes is read (gzip, zstd, lz4 block, snappy, lzf), by name or by magic
 * bytes. A Dataproc {@code driveroutput} prefix is resolved to its numbered parts, read as one log.
 * Line text in results is redacted with {@link Redactor#standard()} unless turned off.
 *
 * <pre>{@code
 * LogStream log = LogStream.open("gs://bucket/jobs/job-1/driveroutput");
 * log.tail(100).lines().forEach(l -> System.out.println(l.display()));
 * SearchResult oom = log.search(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(3));
 * }</pre>
 *
 * <p>Instances are immutable and may be shared; each call opens and closes its own streams.
 */
public final class LogStream {
  /** Sizes above this (20 MiB) count as large: never read them whole. */
  public static final long LARGE_FILE_BYTES = 20L * 1024 * 1024;
  /** The most lines head, tail and range return. */
  public static final int MAX_LINES = 5000;
  /** The default line cap. */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
  /** The default first tail window. */
  public static final int DEFAULT_TAIL_WINDOW_BYTES = 256 * 1024;
  /** The default largest tail window. */
  public static final int DEFAULT_MAX_TAIL_WINDOW_BYTES = 32 << 20;

  private static final int SAMPLE_BYTES = 8192;
  private static final int READ_BUFFER = 256 * 1024;

  private final ByteSource source;
  private final int maxLineBytes;
  private final int tailWindowBytes;
  private final int maxTailWindowBytes;
  private final boolean redact;
  private final boolean strict;
  private final List<String> openNotes;
  private final long splitMinBytes;
  private final int splitParts;

  private LogStream(Builder b, ByteSource source, List<String> openNotes) {
    this.strict = b.strict;
    this.splitMinBytes = b.splitMinBytes;
    this.splitParts = b.splitParts;
    this.source = source;
    this.maxLineBytes = b.maxLineBytes;
    this.tailWindowBytes = b.tailWindowBytes;
    this.maxTailWindowBytes = Math.max(b.maxTailWindowBytes, b.tailWindowBytes);
    this.redact = b.redact;
    this.openNotes = List.copyOf(openNotes);
  }

  /**
   * A log at a path or URI, with default settings. Nothing is read yet; the methods that read fail
   * with a {@link io.sparkrca.core.error.SparkRcaException} that names the log (an {@link
   * io.sparkrca.core.error.InputNotFoundException} when it does not exist, an {@link
   * io.sparkrca.core.error.AccessDeniedException} when it may not be read, a {@link
   * CorruptInputException} when it is truncated, corrupt or binary).
   */
  public static LogStream open(String uri) {
    return builder().build(uri);
  }

  /** A log read from {@code source}, with default settings. */
  public static LogStream of(ByteSource source) {
    return builder().build(source);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The source being read. */
  public ByteSource source() {
    return source;
  }

  /** Notes made when the log was opened (a resolved driver output prefix). */
  public List<String> notes() {
    return openNotes;
  }

  // --- info ------------------------------------------------------------------------------------

  /** Size, codec and advice, from at most one small read. */
  public LogInfo info() {
    return io(this::readInfo);
  }

  private LogInfo readInfo() throws IOException {
    OptionalLong size = source.size();
    DecodedStream.Detection d = DecodedStream.detect(source);
    List<String> notes = notes(d.notes());
    boolean large = size.isPresent() && size.getAsLong() > LARGE_FILE_BYTES;
    String recommendation;
    if (size.isEmpty()) {
      recommendation =
          "The object size could not be determined. Verify the URI is correct and that you are "
              + "authenticated. Treat the file as large and use streaming actions only: tail, "
              + "search, range, or events.";
    } else if (large) {
      recommendation =
          "File exceeds 20MB. DO NOT download or cat full file. Use streaming actions: tail, "
              + "search, range, or events.";
    } else {
      recommendation =
          "File is under 20MB. Streaming tail and search are still recommended to keep prompt "
              + "context clean.";
    }
    if (d.compression().isCompressed() && size.isPresent()) {
      notes.add("The size is the compressed size; the text is larger.");
    }
    return new LogInfo(source.name(), size, d.compression(), large, recommendation, notes);
  }

  // --- head / tail / range ---------------------------------------------------------------------

  /** The first {@code n} lines (1 to {@value #MAX_LINES}). */
  public LogLines head(int n) {
    checkLineCount("head", n);
    return io(() -> readHead(n));
  }

  private LogLines readHead(int n) throws IOException {
    List<LogLine> lines = new ArrayList<>();
    try (Text t = openText()) {
      while (lines.size() < n && t.lines.next()) {
        lines.add(line(t.lines));
      }
      return new LogLines(source.name(), t.decoded.compression(), lines, t.notes());
    }
  }

  /**
   * The last {@code n} lines (1 to {@value #MAX_LINES}). On an uncompressed source of known size
   * only a window at the end is read (line numbers are then unknown: 0); otherwise the content is
   * streamed once, keeping the last {@code n} lines.
   */
  public LogLines tail(int n) {
    checkLineCount("tail", n);
    return io(() -> readTail(n));
  }

  private LogLines readTail(int n) throws IOException {
    OptionalLong size = source.size();
    DecodedStream.Detection d = DecodedStream.detect(source);
    if (d.compression().isCompressed() || size.isEmpty() || size.getAsLong() == 0) {
      return tailByStreaming(n, size, d);
    }
    return tailFromWindow(n, size.getAsLong(), d);
  }

  private LogLines tailByStreaming(int n, OptionalLong size, DecodedStream.Detection d)
      throws IOException {
    LineRing ring = new LineRing(n);
    try (Text t = openText()) {
      while (t.lines.next()) {
        ring.add(t.lines, t.lines.lineNumber(), t.lines.byteOffset());
      }
      List<String> notes = t.notes();
      if (t.decoded.compression().isCompressed()) {
        notes.add(
            "The log is " + t.decoded.compression().codecName() + "-compressed, so it was streamed "
                + "once to its end (" + t.lines.lineNumber() + " lines) to find the last ones.");
      } else if (size.isEmpty()) {
        notes.add("The size is unknown, so the log was streamed once to its end.");
      }
      return new LogLines(source.name(), t.decoded.compression(), ring.toLines(this::line), notes);
    }
  }

  private LogLines tailFromWindow(int n, long size, DecodedStream.Detection d) throws IOException {
    long window = Math.min(size, Math.max(tailWindowBytes, Math.min((long) n * 256, maxTailWindowBytes)));
    long start = size - window;
    long bufStart = start > 0 ? start - 1 : 0; // one byte more, to know whether a line starts at start
    byte[] buf = source.read(bufStart, (int) (size - bufStart));
    int reads = 1;
    LineRing ring;
    while (true) {
      ring = new LineRing(n);
      int found = splitWindow(buf, bufStart, start > 0, ring);
      if (found >= n || start == 0 || window >= maxTailWindowBytes) {
        break;
      }
      long newWindow = Math.min(Math.min(window * 4, maxTailWindowBytes), size);
      long newStart = size - newWindow;
      long newBufStart = newStart > 0 ? newStart - 1 : 0;
      byte[] prefix = source.read(newBufStart, (int) (bufStart - newBufStart));
      reads++;
      byte[] joined = new byte[prefix.length + buf.length];
      System.arraycopy(prefix, 0, joined, 0, prefix.length);
      System.arraycopy(buf, 0, joined, prefix.length, buf.length);
      buf = joined;
      window = newWindow;
      start = newStart;
      bufStart = newBufStart;
    }
    checkBinary(
        java.util.Arrays.copyOfRange(buf, Math.max(0, buf.length - SAMPLE_BYTES), buf.length),
        Compression.NONE);
    List<String> notes = notes(d.notes());
    if (start > 0) {
      notes.add(
          "Read only the last " + (size - start) + " of " + size + " bytes (" + reads + " ranged read"
              + (reads == 1 ? "" : "s") + "); line numbers are unknown without reading the whole "
              + "file.");
    }
    if (ring.size() < n && start > 0) {
      notes.add(
          "Only " + ring.size() + " complete lines fit in the largest tail window ("
              + maxTailWindowBytes + " bytes): the lines before them are longer than that. Use "
              + "search or range to read them.");
    }
    return new LogLines(source.name(), Compression.NONE, ring.toLines(this::line), notes);
  }

  /**
   * Splits {@code buf} (which starts at {@code bufStart} in the file) into lines, keeping the last
   * ones in {@code ring}; returns how many complete lines it holds. With {@code skipFirst}, buf[0]
   * is the byte before the window and the first (partial or empty) line is dropped.
   */
  private int splitWindow(byte[] buf, long bufStart, boolean skipFirst, LineRing ring)
      throws IOException {
    int found = 0;
    try (LineReader r = new LineReader(new ByteArrayInputStream(buf), maxLineBytes, READ_BUFFER)) {
      if (strict) {
        r.strict(source.name());
      }
      boolean first = skipFirst;
      while (r.next()) {
        if (first) {
          first = false;
          continue;
        }
        found++;
        // A window from the file's first byte counts its lines from the first: their numbers are known.
        ring.add(r, skipFirst ? 0 : r.lineNumber(), bufStart + r.byteOffset());
      }
    }
    return found;
  }

  /**
   * Lines {@code start} to {@code end} inclusive (1-based, at most {@value #MAX_LINES}); validated
   * before any I/O. Reading stops after {@code end}.
   */
  public LogLines range(long start, long end) {
    if (start < 1) {
      throw new InvalidRequestException(
          "range: START must be at least 1 (lines are numbered from 1), was " + start);
    }
    if (end < start) {
      throw new InvalidRequestException(
          "range: END (" + end + ") must not be less than START (" + start + "); swap them");
    }
    long count = end - start + 1;
    if (count > MAX_LINES) {
      throw new InvalidRequestException(
          "range: requested " + count + " lines, which exceeds the " + MAX_LINES + "-line cap. "
              + "Dumping an unbounded range defeats the purpose of streaming; narrow the range, or "
              + "use search to locate the region of interest first");
    }
    return io(() -> readRange(start, end));
  }

  private LogLines readRange(long start, long end) throws IOException {
    List<LogLine> lines = new ArrayList<>();
    try (Text t = openText()) {
      LineReader r = t.lines;
      while (r.lineNumber() < end && r.next()) {
        if (r.lineNumber() >= start) {
          lines.add(line(r));
        }
      }
      List<String> notes = t.notes();
      if (r.lineNumber() < end) {
        notes.add(
            "The log has only " + r.lineNumber() + " lines"
                + (r.lineNumber() < start ? ", none in the range." : "."));
      }
      return new LogLines(source.name(), t.decoded.compression(), lines, notes);
    }
  }

  // --- count -----------------------------------------------------------------------------------

  /** The number of lines. */
  public CountResult count() {
    return io(this::readCount);
  }

  private CountResult readCount() throws IOException {
    Optional<CountResult> split = countInRanges(Optional.empty());
    if (split.isPresent()) {
      return split.get();
    }
    try (Text t = openText()) {
      LineReader r = t.lines;
      LineReader.Candidates none = (b, from, to) -> -1;
      do {
        r.skipUntil(none, 0, null); // counts whole buffers of lines at once
      } while (r.next());
      return new CountResult(source.name(), r.lineNumber(), Optional.empty(), 0, t.notes());
    }
  }

  /** The number of lines, and of lines matching {@code query} (its context and limit are ignored). */
  public CountResult count(SearchQuery query) {
    LineMatcher matcher = LineMatcher.compile(query);
    return io(() -> readCount(query, matcher));
  }

  private CountResult readCount(SearchQuery query, LineMatcher matcher) throws IOException {
    Optional<CountResult> split = countInRanges(Optional.of(query));
    if (split.isPresent()) {
      return split.get();
    }
    try (Text t = openText()) {
      LineReader r = t.lines;
      long matching = countLines(r, matcher, matcher.candidates(t.sample).orElse(null), null);
      return new CountResult(source.name(), r.lineNumber(), Optional.of(query), matching, t.notes());
    }
  }

  /**
   * Reads {@code r} to its end (or until {@code stop} is set); returns how many lines {@code
   * matcher} accepts (0 without a matcher). Lines no candidate points into are skipped a buffer
   * at a time, only counted.
   */
  private static long countLines(
      LineReader r, LineMatcher matcher, LineReader.Candidates candidates, java.util.concurrent.atomic.AtomicBoolean stop)
      throws IOException {
    if (matcher == null) {
      LineReader.Candidates none = (b, from, to) -> -1;
      do {
        r.skipUntil(none, 0, null);
      } while ((stop == null || !stop.get()) && r.next());
      return 0;
    }
    long matching = 0;
    while (stop == null || !stop.get()) {
      if (candidates != null) {
        r.skipUntil(candidates, 0, null);
      }
      if (!r.next()) {
        break;
      }
      if (matcher.matches(r.buffer(), r.start(), r.length())) {
        matching++;
      }
    }
    return matching;
  }

  /**
   * A count of a large, local, uncompressed log (not strict) over byte ranges on several threads
   * (see {@link RangeCount}); empty when the log is not one, and the one-pass count applies.
   */
  private Optional<CountResult> countInRanges(Optional<SearchQuery> query) throws IOException {
    if (strict || !source.isLocal() || splitParts < 2) {
      return Optional.empty();
    }
    OptionalLong size = source.size();
    if (size.isEmpty() || size.getAsLong() < splitMinBytes) {
      return Optional.empty();
    }
    int parts = RangeCount.parts(size.getAsLong(), splitParts, splitMinBytes);
    if (parts < 2) {
      return Optional.empty();
    }
    DecodedStream.Detection d = DecodedStream.detect(source);
    if (d.compression().isCompressed() || d.empty()) {
      return Optional.empty();
    }
    byte[] sample = source.read(0, SAMPLE_BYTES);
    checkBinary(sample, Compression.NONE);
    long[] starts = RangeCount.boundaries(source, size.getAsLong(), parts);
    RangeCount.Tally total =
        RangeCount.count(source, starts, (in, stop) -> {
          LineMatcher matcher = query.map(LineMatcher::compile).orElse(null);
          LineReader.Candidates candidates = matcher == null ? null : matcher.candidates(sample).orElse(null);
          try (LineReader r = new LineReader(in, maxLineBytes, READ_BUFFER)) {
            long matching = countLines(r, matcher, candidates, stop);
            return new RangeCount.Tally(r.lineNumber(), matching);
          }
        });
    return Optional.of(
        new CountResult(source.name(), total.lines(), query, total.matching(), notes(d.notes())));
  }

  // --- search ----------------------------------------------------------------------------------

  /**
   * The lines matching {@code query}, with context; stops at {@link SearchQuery#maxMatches()}
   * (after reading the last match's after-context) and closes the stream. The pattern is checked
   * before anything is read.
   */
  public SearchResult search(SearchQuery query) {
    LineMatcher matcher = LineMatcher.compile(query);
    List<SearchMatch> matches = new ArrayList<>();
    Scan scan = io(() -> scan(query, matcher, query.maxMatches(), null, matches::add));
    return new SearchResult(source.name(), query, matches, scan.lines, scan.limitReached, scan.notes);
  }

  /**
   * Streams every line matching {@code query} (with its context) to {@code visitor}, to the end of
   * the log or until the visitor returns false; the query's {@link SearchQuery#maxMatches()} does
   * not apply, so the visitor decides what to keep and memory stays bounded by it. This is how a
   * log of any size is scanned once for many signatures.
   *
   * <pre>{@code
   * MatchScan s = log.forEachMatch(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(0, 40), m -> {
   *   if (kept.size() < 10) kept.add(m);
   *   return true;
   * });
   * }</pre>
   */
  public MatchScan forEachMatch(SearchQuery query, java.util.function.Predicate<SearchMatch> visitor) {
    Objects.requireNonNull(visitor, "visitor");
    LineMatcher matcher = LineMatcher.compile(query);
    Scan scan = io(() -> scan(query, matcher, Integer.MAX_VALUE, null, visitor));
    return new MatchScan(source.name(), scan.lines, scan.matches, scan.limitReached, scan.notes);
  }

  /**
   * As {@link #forEachMatch(SearchQuery, java.util.function.Predicate)}, with each match's
   * after-context ending early, at the first line whose text {@code continues} rejects: that line
   * and those after it are read as any other line (tested, skipped at memory speed when they cannot
   * match, kept as before-context). For records whose following lines are told by their shape, such
   * as a stack trace under a log4j line: the after-context is as long as a record may be, yet the
   * lines after a one-line record are never made into text. {@code continues} is given a line's
   * text before redaction and is called only for lines within {@link SearchQuery#after()} of a match.
   *
   * <pre>{@code
   * MatchScan s = log.forEachMatch(SearchQuery.regex("Exception").withContext(0, 150),
   *     text -> text.startsWith("\t") || text.startsWith("Caused by:"), m -> {
   *       System.out.println(m.line().text() + " and " + m.after().size() + " lines of its trace");
   *       return true;
   *     });
   * }</pre>
   */
  public MatchScan forEachMatch(SearchQuery query, java.util.function.Predicate<String> continues,
      java.util.function.Predicate<SearchMatch> visitor) {
    Objects.requireNonNull(continues, "continues");
    Objects.requireNonNull(visitor, "visitor");
    LineMatcher matcher = LineMatcher.compile(query);
    Scan scan = io(() -> scan(query, matcher, Integer.MAX_VALUE, continues, visitor));
    return new MatchScan(source.name(), scan.lines, scan.matches, scan.limitReached, scan.notes);
  }

  private record Scan(long lines, long matches, boolean limitReached, List<String> notes) {}

  /**
   * The search loop: matches go to {@code sink} until {@code limit} or until it returns false; an
   * after-context ends at the first line {@code continues} (when not null) rejects.
   */
  private Scan scan(SearchQuery query, LineMatcher matcher, int limit,
      java.util.function.Predicate<String> continues, java.util.function.Predicate<SearchMatch> sink)
      throws IOException {
    LineRing before = new LineRing(query.before());
    LineReader.SkippedLine toBefore = before::add;
    boolean limitReached = false;
    long emitted = 0;
    try (Text t = openText()) {
      LineReader.Candidates candidates = matcher.candidates(t.sample).orElse(null);
      LineReader r = t.lines;
      LogLine current = null;
      List<LogLine> currentBefore = List.of();
      List<LogLine> after = new ArrayList<>();
      int afterLeft = 0;
      while (true) {
        if (candidates != null && afterLeft == 0 && !limitReached) {
          // Skip, a buffer at a time, the lines that cannot match (keeping the before-context).
          r.skipUntil(candidates, query.before(), toBefore);
        }
        if (!r.next()) {
          break;
        }
        if (!limitReached && matcher.matches(r.buffer(), r.start(), r.length())) {
          if (current != null) {
            emitted++;
            if (!sink.test(new SearchMatch((int) Math.min(Integer.MAX_VALUE, emitted), current, currentBefore, after))) {
              current = null;
              limitReached = true;
              break;
            }
          }
          current = line(r);
          currentBefore = before.toLines(this::line);
          before.clear();
          after = new ArrayList<>();
          afterLeft = query.after();
          if (emitted + 1 >= limit) {
            limitReached = true;
            if (afterLeft == 0) {
              break;
            }
          }
          continue;
        }
        if (afterLeft > 0 && continues != null && !continues.test(rawText(r))) {
          afterLeft = 0; // the record ended: this line is read as any other
          if (limitReached) {
            break;
          }
        }
        if (afterLeft > 0) {
          after.add(line(r));
          afterLeft--;
          if (afterLeft == 0 && limitReached) {
            break;
          }
          continue;
        }
        if (query.before() > 0) {
          before.add(r, r.lineNumber(), r.byteOffset());
        }
      }
      if (current != null) {
        emitted++;
        sink.test(new SearchMatch((int) Math.min(Integer.MAX_VALUE, emitted), current, currentBefore, after));
      }
      return new Scan(r.lineNumber(), emitted, limitReached, t.notes());
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  /**
   * Runs one read of the log: an {@link IOException} becomes the {@link IoErrors} translation
   * naming the log (not found, access denied, truncated, or an I/O error with its cause).
   */
  private <T> T io(IoErrors.IoCall<T> read) {
    return IoErrors.call(source.name(), read);
  }

  private static void checkLineCount(String action, int n) {
    if (n < 1) {
      throw new InvalidRequestException(action + ": the number of lines must be at least 1, was " + n);
    }
    if (n > MAX_LINES) {
      throw new InvalidRequestException(
          action + ": " + n + " lines exceed the " + MAX_LINES + "-line cap; use search to find "
              + "the region of interest, then range to read it");
    }
  }

  private List<String> notes(List<String> more) {
    List<String> all = new ArrayList<>(openNotes);
    all.addAll(more);
    return all;
  }

  /** The line's text, not redacted (for tests of its shape). */
  private static String rawText(LineReader r) {
    int len = r.lineTruncated() ? utf8Boundary(r.buffer(), r.start(), r.length()) : r.length();
    return new String(r.buffer(), r.start(), len, StandardCharsets.UTF_8);
  }

  private LogLine line(LineReader r) {
    return line(r.buffer(), r.start(), r.length(), r.lineNumber(), r.byteOffset(), r.lineTruncated(), r.fullLength());
  }

  private LogLine line(
      byte[] b, int start, int length, long number, long offset, boolean truncated, long fullLength) {
    int len = truncated ? utf8Boundary(b, start, length) : length;
    String text = new String(b, start, len, StandardCharsets.UTF_8);
    if (redact) {
      text = Redactor.standard().redactText(text);
    }
    return new LogLine(number, offset, text, truncated, fullLength);
  }

  /** The length of {@code b[start, start+length)} without a UTF-8 sequence cut at its end. */
  static int utf8Boundary(byte[] b, int start, int length) {
    int end = start + length;
    int k = end - 1;
    int continuation = 0;
    while (k >= start && (b[k] & 0xC0) == 0x80 && continuation < 3) {
      k--;
      continuation++;
    }
    if (k < start) {
      return length;
    }
    int lead = b[k] & 0xff;
    int need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    return need > continuation ? k - start : length;
  }

  /** The decoded text of the source, split into lines; closing it closes the source stream. */
  private final class Text implements Closeable {
    final DecodedStream decoded;
    final LineReader lines;
    final byte[] sample; // the first bytes of the text

    Text(DecodedStream decoded, LineReader lines, byte[] sample) {
      this.decoded = decoded;
      this.lines = lines;
      this.sample = sample;
    }

    List<String> notes() {
      return LogStream.this.notes(decoded.notes());
    }

    @Override
    public void close() throws IOException {
      lines.close();
    }
  }

  private Text openText() throws IOException {
    DecodedStream decoded = DecodedStream.open(source, !strict);
    InputStream in = decoded;
    try {
      if (decoded.compression().isCompressed()) {
        // Decompress on a second core while this one splits and searches lines.
        in = new ReadAheadInputStream(decoded, READ_BUFFER, 4);
      }
      byte[] sample = in.readNBytes(SAMPLE_BYTES);
      checkBinary(sample, decoded.compression());
      InputStream all = new SequenceInputStream(new ByteArrayInputStream(sample), in);
      LineReader lines = new LineReader(all, maxLineBytes, READ_BUFFER);
      return new Text(decoded, strict ? lines.strict(source.name()) : lines, sample);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** Fails with a specific message when the sample is not text. */
  private void checkBinary(byte[] sample, Compression codec) {
    int nul = 0;
    int control = 0;
    for (byte b : sample) {
      int c = b & 0xff;
      if (c == 0) {
        nul++;
      } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b && c != '\b') {
        control++;
      }
    }
    if (nul == 0 && control * 10 <= sample.length) {
      return;
    }
    String what;
    if (sample.length >= 4 && sample[0] == 'P' && sample[1] == 'K' && sample[2] == 3 && sample[3] == 4) {
      what = "it is a ZIP or JAR archive; use the class inspector for archives";
    } else if (sample.length >= 2
        && ((sample[0] == (byte) 0xFF && sample[1] == (byte) 0xFE)
            || (sample[0] == (byte) 0xFE && sample[1] == (byte) 0xFF)
            || nul * 3 >= sample.length)) {
      what = "it looks like UTF-16 text; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)";
    } else {
      what =
          "if it is compressed in a format sparkrca does not read (it reads gzip, zstd, lz4, snappy "
              + "and lzf), decompress it first; otherwise check that this is the log you meant";
    }
    throw new CorruptInputException(
        source.name() + " is binary, not text ("
            + (nul > 0 ? nul + " NUL bytes" : control + " control characters") + " in "
            + (codec.isCompressed() ? "the first " + sample.length + " bytes after " + codec.codecName() + " decoding"
                : "a " + sample.length + "-byte sample")
            + "); " + what);
  }

  /** {@code bytes} when it is a valid line cap (16 bytes to 256 MiB); a request that names it is checked here too. */
  static int checkedLineCap(int bytes) {
    if (bytes < 16 || bytes > LineReader.MAX_LINE_CAP) {
      throw new InvalidRequestException(
          "the line cap must be between 16 bytes and " + LineReader.MAX_LINE_CAP + " bytes, was " + bytes);
    }
    return bytes;
  }

  /**
   * Settings for a {@link LogStream}.
   *
   * <pre>{@code
   * LogStream log = LogStream.builder()
   *     .sources(ByteSources.builder().add(myHttpProvider).build())
   *     .maxLineBytes(4 << 20)
   *     .build("https://logs.example.com/driver.log");
   * }</pre>
   */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
    private int tailWindowBytes = DEFAULT_TAIL_WINDOW_BYTES;
    private int maxTailWindowBytes = DEFAULT_MAX_TAIL_WINDOW_BYTES;
    private boolean redact = true;
    private boolean strict;
    private long splitMinBytes = RangeCount.MIN_BYTES;
    private int splitParts = RangeCount.defaultParts();

    private Builder() {}

    /**
     * A builder with the same settings, to change without touching this one: {@link LogSet} gives
     * each request's read settings to a copy of its template.
     */
    Builder copy() {
      Builder b = new Builder();
      b.sources = sources;
      b.maxLineBytes = maxLineBytes;
      b.tailWindowBytes = tailWindowBytes;
      b.maxTailWindowBytes = maxTailWindowBytes;
      b.redact = redact;
      b.strict = strict;
      b.splitMinBytes = splitMinBytes;
      b.splitParts = splitParts;
      return b;
    }

    /**
     * When counts split a local uncompressed log into byte ranges counted on several threads: from
     * {@code minBytes} on, into at most {@code parts} ranges (below 2: never). For tests, which cut
     * small logs at every kind of place.
     */
    Builder countSplit(long minBytes, int parts) {
      this.splitMinBytes = Math.max(1, minBytes);
      this.splitParts = parts;
      return this;
    }

    /** Where URIs are resolved (default {@link ByteSources#defaults()}). */
    public Builder sources(ByteSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** Lines longer than this are cut with a marker (default 1 MiB, at most 256 MiB). */
    public Builder maxLineBytes(int bytes) {
      this.maxLineBytes = checkedLineCap(bytes);
      return this;
    }

    /** The first window read by a tail of an uncompressed source (default 256 KiB). */
    public Builder tailWindowBytes(int bytes) {
      if (bytes < 1024) {
        throw new InvalidRequestException("the tail window must be at least 1024 bytes, was " + bytes);
      }
      this.tailWindowBytes = bytes;
      return this;
    }

    /** The largest the tail window may be widened to (default 32 MiB). */
    public Builder maxTailWindowBytes(int bytes) {
      if (bytes < 1024) {
        throw new InvalidRequestException("the tail window must be at least 1024 bytes, was " + bytes);
      }
      this.maxTailWindowBytes = bytes;
      return this;
    }

    /** Whether line text in results is redacted (default true). */
    public Builder redact(boolean redact) {
      this.redact = redact;
      return this;
    }

    /**
     * Whether damage is an error (default false: read past it and say so in the notes): a
     * compressed stream that ends early, a line longer than the line cap, a last line without a
     * line end. Strict reading splits every line, so counting and searching are slower.
     */
    public Builder strict(boolean strict) {
      this.strict = strict;
      return this;
    }

    /**
     * A stream over {@code uri} (a path, {@code file:}, {@code http(s):}, or any scheme a provider
     * reads). A Dataproc {@code driveroutput} prefix with numbered parts is read as one log.
     */
    public LogStream build(String uri) {
      Objects.requireNonNull(uri, "uri");
      if (uri.isBlank()) {
        throw new InvalidRequestException("no log given: pass a path or a URI");
      }
      if (DriverOutput.isPrefix(uri)) {
        List<SourceEntry> parts = DriverOutput.parts(sources, uri);
        if (!parts.isEmpty()) {
          ByteSource whole = DriverOutput.open(sources, uri).orElseThrow();
          String note =
              String.format(
                  Locale.ROOT,
                  "Resolved the driver output prefix to %d part%s (%s%s), read as one log.",
                  parts.size(),
                  parts.size() == 1 ? "" : "s",
                  parts.get(0).name(),
                  parts.size() == 1 ? "" : " to " + parts.get(parts.size() - 1).name());
          return new LogStream(this, whole, List.of(note));
        }
      }
      return new LogStream(this, sources.open(uri), List.of());
    }

    /** A stream over an already opened source. */
    public LogStream build(ByteSource source) {
      return new LogStream(this, Objects.requireNonNull(source, "source"), List.of());
    }
  }
}

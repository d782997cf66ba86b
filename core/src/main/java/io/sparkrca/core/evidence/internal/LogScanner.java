package io.sparkrca.core.evidence.internal;

import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.evidence.LogTime;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.LogInfo;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.MatchScan;
import io.sparkrca.core.logs.SearchMatch;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Scans one log for failure signatures in one streaming pass: lines that cannot match are skipped
 * at memory speed; each match becomes a block with the lines that continue it (a log4j record's
 * following lines, a stack trace and its causes, a Python traceback); per signature the first
 * {@value #FIRST_PER_SIGNATURE} blocks and the last are kept, every occurrence counted. Memory is
 * bounded by those caps and the line cap, whatever the size of the log.
 */
public final class LogScanner {
  static final int FIRST_PER_SIGNATURE = 5;
  static final int MAX_EXCERPTS = 200;
  static final int HEAD_LINES = 200;
  /** Lines longer than this are cut in excerpts (a log line can be megabytes of JSON). */
  static final int MAX_LINE_BYTES = 64 * 1024;
  /** The tail of a compressed or unsized log is only read when it is smaller than this. */
  static final long MAX_STREAMED_TAIL_BYTES = 64L << 20;

  private LogScanner() {}

  /** Scans the log at {@code uri}; {@code forcedRole} is the role the caller stated, if any. */
  public static LogEvidence scan(ByteSources sources, String uri, Optional<LogRole> forcedRole,
      LogSignatures signatures) throws IOException {
    return scan(LogStream.builder().sources(sources).maxLineBytes(MAX_LINE_BYTES).build(uri),
        LogStream.builder().sources(sources).maxLineBytes(MAX_LINE_BYTES).redact(false).build(uri), uri, forcedRole,
        signatures);
  }

  /** Scans a log already in hand (a provider's bounded log tail), named {@code source.name()}. */
  public static LogEvidence scan(io.sparkrca.core.io.ByteSource source, Optional<LogRole> forcedRole,
      LogSignatures signatures) throws IOException {
    return scan(LogStream.builder().maxLineBytes(MAX_LINE_BYTES).build(source),
        LogStream.builder().maxLineBytes(MAX_LINE_BYTES).redact(false).build(source), source.name(), forcedRole,
        signatures);
  }

  /**
   * {@code log} reads the head and the tail, redacted; {@code raw} is the same log not redacted, for
   * the pass: signatures match the text as written, and only the excerpts kept are redacted (one
   * line in a hundred can be a prefilter hit, and redacting each cost more than the whole read).
   */
  private static LogEvidence scan(LogStream log, LogStream raw, String uri, Optional<LogRole> forcedRole,
      LogSignatures signatures) throws IOException {
    LogInfo info = log.info();
    LogLines head = log.head(HEAD_LINES);
    List<String> headText = head.lines().stream().map(LogLine::text).toList();
    LogClassifier.Classification c = LogClassifier.classify(uri, headText, forcedRole);
    String shown = Redactor.redactUri(uri);

    Collector collector = new Collector(shown, signatures, timestamped(headText));
    // The after-context ends where no block could continue, so that the lines after a one-line
    // record are never made into text: with a prefilter of hundreds of literals, one line in a
    // hundred can be a hit, and a fixed context of 150 lines would decode and redact them all.
    MatchScan scan = raw.forEachMatch(
        SearchQuery.regex(signatures.prefilter()).withContext(1, LogExcerpt.MAX_CONTINUATION),
        text -> collector.continues(true, text), m -> {
          collector.accept(m);
          return true;
        });
    collector.finish();

    List<String> notes = new ArrayList<>(scan.notes());
    List<String> last = List.of();
    Optional<LogTime> lastTime = collector.lastTime;
    boolean cheapTail = !info.compressed() && info.size().isPresent();
    if (cheapTail || info.size().orElse(Long.MAX_VALUE) <= MAX_STREAMED_TAIL_BYTES) {
      LogLines tail = log.tail(LogEvidence.MAX_LAST_LINES);
      last = tail.lines().stream().map(LogLine::display).toList();
      for (int i = tail.lines().size() - 1; i >= 0; i--) {
        Optional<LogTime> t = LogTimes.parse(tail.lines().get(i).text());
        if (t.isPresent()) {
          lastTime = t;
          break;
        }
      }
    } else {
      notes.add("the last lines were not read: the log is compressed and larger than "
          + (MAX_STREAMED_TAIL_BYTES >> 20) + " MiB");
    }
    Optional<LogTime> first = Optional.empty();
    for (String l : headText) {
      first = LogTimes.parse(l);
      if (first.isPresent()) {
        break;
      }
    }
    return new LogEvidence(shown, c.role(), c.channel(), c.executorId(), c.classifiedBy(),
        info.size().orElse(-1), info.compression().codecName(), scan.linesScanned(),
        collector.counts, collector.excerpts(), collector.capped, first, lastTime, last, notes);
  }

  /** Whether most records (lines at the margin, stack frames aside) start with a time. */
  private static boolean timestamped(List<String> head) {
    int stamped = 0;
    int nonEmpty = 0;
    for (String l : head) {
      if (!l.isBlank() && !Character.isWhitespace(l.charAt(0)) && !l.startsWith("Caused by:")) {
        nonEmpty++;
        if (LogTimes.parse(l).isPresent()) {
          stamped++;
        }
      }
    }
    return nonEmpty > 0 && stamped * 2 >= nonEmpty;
  }

  private static final java.util.regex.Pattern PYTHON_EXCEPTION =
      java.util.regex.Pattern.compile("[A-Za-z_][\\w.]*(?:Error|Exception|Exit|Interrupt)(?::.*)?");

  /** Builds blocks from matches and keeps the bounded set of excerpts. */
  private static final class Collector {
    final String log;
    final LogSignatures signatures;
    final boolean timestamped;
    final Map<String, Long> counts = new LinkedHashMap<>();
    final Map<String, Integer> firstKept = new LinkedHashMap<>();
    final Map<String, Block> lastOf = new LinkedHashMap<>();
    final TreeMap<Long, Block> kept = new TreeMap<>();
    boolean capped;
    Optional<LogTime> lastTime = Optional.empty();
    Block open;

    Collector(String log, LogSignatures signatures, boolean timestamped) {
      this.log = log;
      this.signatures = signatures;
      this.timestamped = timestamped;
    }

    void accept(SearchMatch m) {
      LogLine line = m.line();
      if (open != null && line.number() == open.endLine + 1 && continues(open.python, line.text())) {
        open.add(line, signatures);
      } else {
        finish();
        open = new Block(line, m.before().isEmpty() ? Optional.empty() : LogTimes.parse(m.before().get(0).text()), signatures);
      }
      for (LogLine after : m.after()) {
        if (after.number() != open.endLine + 1 || !continues(open.python, after.text())) {
          break;
        }
        open.add(after, signatures);
      }
    }

    /**
     * Whether {@code text} continues the record above it, in a block that is a Python traceback
     * when {@code python}; whatever continues a block that is not, continues one that is.
     */
    boolean continues(boolean python, String text) {
      if (text.isBlank()) {
        return false;
      }
      String t = text.stripLeading();
      boolean indented = t.length() < text.length();
      if (indented || t.startsWith("Caused by:") || t.startsWith("Suppressed:") || t.startsWith("Driver stacktrace:")) {
        return true;
      }
      if (python && PYTHON_EXCEPTION.matcher(t).matches()) {
        return true;
      }
      // In a log4j log, a line without a time belongs to the record above it.
      return timestamped && LogTimes.parse(text).isEmpty();
    }

    void finish() {
      if (open == null) {
        return;
      }
      Block b = open;
      open = null;
      if (b.time.isPresent()) {
        lastTime = b.time;
      }
      if (b.signatures.isEmpty()) {
        return; // a prefilter hit that no signature confirms
      }
      boolean keep = false;
      for (String id : b.signatures) {
        counts.merge(id, 1L, Long::sum);
        int n = firstKept.getOrDefault(id, 0);
        if (n < FIRST_PER_SIGNATURE) {
          firstKept.put(id, n + 1);
          keep = true;
        } else {
          capped = true;
          lastOf.put(id, b);
        }
      }
      if (keep) {
        if (kept.size() < MAX_EXCERPTS) {
          kept.put(b.line, b);
        } else {
          capped = true;
        }
      }
    }

    List<LogExcerpt> excerpts() {
      TreeMap<Long, Block> all = new TreeMap<>(kept);
      for (Block b : lastOf.values()) {
        if (all.size() >= MAX_EXCERPTS + signatures.signatures().size()) {
          break;
        }
        all.putIfAbsent(b.line, b);
      }
      List<LogExcerpt> out = new ArrayList<>(all.size());
      for (Block b : all.values()) {
        out.add(b.excerpt(log));
      }
      return out;
    }
  }

  /** A matching line and the lines that continue it. */
  private static final class Block {
    long line;
    final Optional<LogTime> time;
    String text;
    final List<String> continuation = new ArrayList<>();
    final Set<String> signatures = new LinkedHashSet<>();
    final boolean python;
    long endLine;
    boolean cut;

    Block(LogLine first, Optional<LogTime> timeBefore, LogSignatures sigs) {
      this.line = first.number();
      Optional<LogTime> own = LogTimes.parse(first.text());
      this.time = own.isPresent() ? own : timeBefore;
      this.text = first.display();
      this.endLine = first.number();
      this.python = first.text().contains("Traceback (most recent call last)");
      signatures.addAll(sigs.matching(first.text()));
    }

    /** The excerpt of this block, its lines redacted. */
    LogExcerpt excerpt(String log) {
      Redactor r = Redactor.standard();
      List<String> lines = new ArrayList<>(continuation.size());
      for (String c : continuation) {
        lines.add(r.redactText(c));
      }
      return new LogExcerpt(log, line, time, new ArrayList<>(signatures), r.redactText(text), lines, cut);
    }

    void add(LogLine l, LogSignatures sigs) {
      endLine = l.number();
      String t = l.text().stripLeading();
      if (!t.startsWith("at ") && !t.startsWith("File \"") && !t.startsWith("...")) {
        List<String> found = sigs.matching(l.text());
        if (signatures.isEmpty() && !found.isEmpty()) {
          // The record's own first line matched nothing: the excerpt starts where the signature is.
          line = l.number();
          text = l.display();
          continuation.clear();
          cut = false;
          signatures.addAll(found);
          return;
        }
        signatures.addAll(found);
      }
      if (continuation.size() < LogExcerpt.MAX_CONTINUATION) {
        continuation.add(l.display());
      } else {
        cut = true;
      }
    }
  }
}

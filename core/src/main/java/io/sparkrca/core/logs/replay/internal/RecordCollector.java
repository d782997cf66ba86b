package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.logs.replay.LogProvenance;
import io.sparkrca.core.logs.replay.LogRecord;
import io.sparkrca.core.redaction.Redactor;
import java.util.List;
import java.util.function.Predicate;

/**
 * Hands every record to a caller as a {@link LogRecord}, with its continuation lines (secrets
 * masked unless told otherwise), until the caller returns false.
 *
 * <pre>{@code
 * RecordCollector c = new RecordCollector(r -> { System.out.println(r.message()); return true; }, true);
 * }</pre>
 */
final class RecordCollector implements RecordSink {
  private final Predicate<LogRecord> visitor;
  private final List<Section> sections = new java.util.ArrayList<>();

  /** Thrown to stop the reading when the visitor asks; caught where the reading started. */
  static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  private final boolean redact;

  /** @param redact whether secrets in messages and continuation lines are masked ({@link Redactor#redactText}) */
  RecordCollector(Predicate<LogRecord> visitor, boolean redact) {
    this.visitor = visitor;
    this.redact = redact;
  }

  @Override
  public Section section(String log, String name) {
    Section s = new Section(log, name, sections.size());
    sections.add(s);
    return s;
  }

  /** The sections read so far. */
  List<Section> sections() {
    return sections;
  }

  @Override
  public boolean head(Section s, RecordHead h) {
    String message = h.message();
    s.pendingState = new LogRecord(new LogProvenance(s.log, h.line), s.name, ModelState.instant(h.time), h.level,
        h.emitter, redact ? Redactor.standard().redactText(message) : message, "");
    return true;
  }

  @Override
  public void complete(Section s, String continuation) {
    LogRecord head = (LogRecord) s.pendingState;
    if (head != null && !visitor.test(new LogRecord(head.at(), head.section(), head.time(), head.level(), head.emitter(),
        head.message(), redact ? Redactor.standard().redactText(continuation) : continuation))) {
      throw new Stop();
    }
  }

  @Override
  public List<String> literals() {
    return List.of();
  }
}

package io.sparkrca.core.logs.replay.internal;

import java.util.List;

/**
 * What receives the records a {@link LogFileReader} recognises: the reconstructor, or an adapter
 * that hands them to a caller as {@link io.sparkrca.core.logs.replay.LogRecord}s.
 *
 * <pre>{@code
 * RecordSink sink = new Reconstructor(state);
 * new LogFileReader(sink, settings).read(source, List.of());
 * }</pre>
 */
interface RecordSink {
  /** A new section of a log: the sink registers it (its index) and may tell its role from its name. */
  Section section(String log, String name);

  /**
   * A record's first line, valid during the call only.
   *
   * @return whether the record's continuation lines are wanted: then {@link #complete} follows
   *     with them (possibly none), before the next record of the section
   */
  boolean head(Section s, RecordHead h);

  /** The continuation lines of the record whose {@link #head} asked for them, joined with {@code \n}. */
  void complete(Section s, String continuation);

  /**
   * Literals of which every line the sink reads holds at least one: lines with none are skipped
   * a buffer at a time when no record is being assembled. Empty: nothing is skipped.
   */
  List<String> literals();
}

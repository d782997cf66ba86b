/**
 * The replay engine: a port of the History Server's {@code AppStatusListener} (replay mode) over a
 * streaming parser, with task data in packed columns. Public types here are {@link
 * io.sparkrca.core.eventlog.replay.ReplayedApplication} and the low-level {@link
 * io.sparkrca.core.eventlog.replay.Replayer}; everything else is internal.
 *
 * <p>How a line is read: task starts and ends, stage executor metrics (nearly every line) by
 * {@code TaskEventScanner}, straight from the bytes; other events by {@code EventTreeReader} into
 * the trees Jackson would build; anything either declines (escapes in keys, non-ASCII text,
 * unusual types, malformed JSON) by Jackson, the reference both are tested against. Where there
 * are two processors, {@code LinePipeline} reads, decodes, splits and parses about half of the
 * lines on a second thread; events are applied in log order on the calling thread.
 */
package io.sparkrca.core.eventlog.replay;

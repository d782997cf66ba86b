/**
 * The replay engine: a port of the History Server's {@code AppStatusListener} (replay mode) over a
 * streaming parser, with task data in packed columns. Public types here are {@link
 * io.sparkrca.core.eventlog.replay.ReplayedApplication} and the low-level {@link
 * io.sparkrca.core.eventlog.replay.Replayer}; everything else is internal.
 */
package io.sparkrca.core.eventlog.replay;

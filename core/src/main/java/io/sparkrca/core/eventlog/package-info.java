/**
 * Reading Spark event logs: finding them ({@link io.sparkrca.core.eventlog.EventLogReader#find}),
 * replaying them into the application model ({@link io.sparkrca.core.eventlog.EventLogs}), listing
 * a directory of them ({@link io.sparkrca.core.eventlog.EventLogHistory}), and what the replay
 * found on the way ({@link io.sparkrca.core.eventlog.replay.ReplayReport}, {@link
 * io.sparkrca.core.app.ApplicationFacts}).
 */
package io.sparkrca.core.eventlog;

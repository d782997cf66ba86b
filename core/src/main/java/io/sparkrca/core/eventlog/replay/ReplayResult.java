package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.app.ApplicationFacts;

/** What a finished replay holds: the listener state, the SQL tracker, evidence and the report. */
public final class ReplayResult {
  final ReplayState state;
  final SqlTracker sql;
  final ApplicationFacts facts;
  final ReplayReport report;
  /** The time that stands for "now" for anything still running. */
  final long clock;
  /** Parts of the log that could not be read at all. */
  final long missingParts;

  ReplayResult(ReplayState state, SqlTracker sql, ApplicationFacts facts, ReplayReport report, long clock,
      long missingParts) {
    this.missingParts = missingParts;
    this.clock = clock;
    this.state = state;
    this.sql = sql;
    this.facts = facts;
    this.report = report;
  }

  public ApplicationFacts facts() {
    return facts;
  }

  public ReplayReport report() {
    return report;
  }
}

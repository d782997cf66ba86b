package io.sparkrca.core.model;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** A miscellaneous process of the application (for example a YARN AM), as the History Server lists it. */
public record ProcessSummary(
    String id,
    String hostPort,
    boolean isActive,
    int totalCores,
    Instant addTime,
    Optional<Instant> removeTime,
    Map<String, String> processLogs) {
  public ProcessSummary {
    processLogs = Copies.map(processLogs);
  }
}

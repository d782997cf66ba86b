package io.sparkrca.core.model;

/** The status of a stage attempt, as the History Server names it. */
public enum StageStatus {
  ACTIVE,
  COMPLETE,
  FAILED,
  PENDING,
  SKIPPED
}

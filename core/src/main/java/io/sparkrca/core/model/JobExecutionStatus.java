package io.sparkrca.core.model;

/** The status of a job, as the History Server names it. */
public enum JobExecutionStatus {
  RUNNING,
  SUCCEEDED,
  FAILED,
  UNKNOWN
}

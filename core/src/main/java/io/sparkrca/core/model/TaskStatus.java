package io.sparkrca.core.model;

/** Task statuses a task list can be filtered by ({@code ?status=failed}). */
public enum TaskStatus {
  RUNNING,
  KILLED,
  FAILED,
  SUCCESS,
  UNKNOWN
}

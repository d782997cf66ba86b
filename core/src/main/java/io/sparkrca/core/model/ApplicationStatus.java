package io.sparkrca.core.model;

/** Application statuses the application list can be filtered by. */
public enum ApplicationStatus {
  COMPLETED,
  RUNNING
}

package io.sparkrca.rules;

/** Whether a violation flags stage attempts or the application as a whole. */
public enum Scope {
  STAGE,
  APPLICATION
}

package io.sparkrca.core.model;

import java.util.Locale;
import java.util.Optional;

/**
 * Orders of a stage's task list: by task id, or by executor run time ({@code runtime} and {@code
 * -runtime} are accepted as short names, as the History Server accepts them).
 *
 * <pre>{@code
 * TaskSorting s = TaskSorting.parse("-runtime").orElseThrow(); // DECREASING_RUNTIME
 * }</pre>
 */
public enum TaskSorting {
  ID,
  INCREASING_RUNTIME,
  DECREASING_RUNTIME;

  /** Parses an enum name (any case) or a short name; empty when it is neither. */
  public static Optional<TaskSorting> parse(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("runtime")) {
      return Optional.of(INCREASING_RUNTIME);
    }
    if (lower.equals("-runtime")) {
      return Optional.of(DECREASING_RUNTIME);
    }
    for (TaskSorting s : values()) {
      if (s.name().equalsIgnoreCase(text)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}

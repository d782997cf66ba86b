package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.ExecutorMetrics;
import java.util.Optional;

/** Spark's {@code ExecutorMetrics} peak tracker: unset until the first update. */
final class PeakMetrics {
  static final int COUNT = ExecutorMetrics.NAMES.size();
  final long[] values = new long[COUNT];

  PeakMetrics() {
    values[0] = -1;
  }

  /** Raises each peak to the new value where it is higher; true if anything changed. */
  boolean update(long[] sample) {
    boolean updated = false;
    for (int i = 0; i < COUNT; i++) {
      if (sample[i] > values[i]) {
        values[i] = sample[i];
        updated = true;
      }
    }
    return updated;
  }

  boolean isSet() {
    return values[0] > -1;
  }

  Optional<ExecutorMetrics> toApi() {
    return isSet() ? Optional.of(ExecutorMetrics.of(values)) : Optional.empty();
  }

  static int indexOf(String name) {
    return ExecutorMetrics.NAMES.indexOf(name);
  }
}

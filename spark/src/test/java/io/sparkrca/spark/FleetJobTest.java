package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.sparkrca.core.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

/** The job's command line (its run is FleetJobIT's, on real Spark). */
class FleetJobTest {
  @Test
  void theCommandLineNeedsARootAndAnOutputAndKnownOptions() {
    assertThatCode(() -> FleetJob.parse(new String[] {"gs://b/events", "gs://b/out", "--reanalyze", "--max-depth", "2"})
        .build()).doesNotThrowAnyException();
    assertThatThrownBy(() -> FleetJob.parse(new String[] {"gs://b/events"}))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("usage: ROOT OUTPUT");
    assertThatThrownBy(() -> FleetJob.parse(new String[] {"a", "b", "--threads", "4"}))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("unknown option --threads");
    assertThatThrownBy(() -> FleetJob.parse(new String[] {"a", "b", "--task-bytes", "lots"}))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("whole number");
    assertThatThrownBy(() -> FleetJob.parse(new String[] {"a", "b", "--task-bytes", "0"}))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("positive");
  }
}

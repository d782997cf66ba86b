package io.sparkrca.core.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.Optional;

/**
 * One attempt of an application. An attempt that has not ended has {@code endTime} at the epoch
 * minus one millisecond, a duration of 0 (in listings) and {@code completed == false}, exactly as
 * the History Server reports it.
 *
 * <pre>{@code
 * Duration d = Duration.ofMillis(attempt.duration());
 * }</pre>
 */
@JsonPropertyOrder({
  "attemptId", "startTime", "endTime", "lastUpdated", "duration", "sparkUser", "completed",
  "appSparkVersion", "startTimeEpoch", "endTimeEpoch", "lastUpdatedEpoch"
})
public record ApplicationAttemptInfo(
    Optional<String> attemptId,
    Instant startTime,
    Instant endTime,
    Instant lastUpdated,
    long duration,
    String sparkUser,
    boolean completed,
    String appSparkVersion) {

  @JsonProperty("startTimeEpoch")
  public long startTimeEpoch() {
    return startTime.toEpochMilli();
  }

  @JsonProperty("endTimeEpoch")
  public long endTimeEpoch() {
    return endTime.toEpochMilli();
  }

  @JsonProperty("lastUpdatedEpoch")
  public long lastUpdatedEpoch() {
    return lastUpdated.toEpochMilli();
  }
}

package io.sparkrca.core.evidence;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;

/**
 * The time a log line carries. Spark's log4j lines ({@code 26/11/29 14:33:11}) have no zone: they
 * are in the writing JVM's {@code user.timezone}, so placing them on the event log's timeline
 * needs that zone ({@link #toInstant(ZoneId)}); ISO lines with an offset are placed exactly.
 *
 * <pre>{@code
 * Instant when = excerpt.time().get().toInstant(ZoneId.of("Etc/UTC"));
 * }</pre>
 *
 * @param local the wall-clock time written in the line
 * @param offset the offset written with it, when there was one
 */
public record LogTime(LocalDateTime local, Optional<ZoneOffset> offset) {
  public LogTime {
    Objects.requireNonNull(local, "local");
    Objects.requireNonNull(offset, "offset");
  }

  /** The instant, using the line's own offset when it has one, else {@code zone}. */
  public Instant toInstant(ZoneId zone) {
    return offset.isPresent() ? local.toInstant(offset.get()) : local.atZone(zone).toInstant();
  }

  /** Whether the line said its offset (so no zone needs to be assumed). */
  public boolean zoned() {
    return offset.isPresent();
  }
}

package io.sparkrca.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.internal.LogTimes;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class LogTimesTest {
  @Test
  void log4jsDefaultLayoutHasNoZoneAndIsPlacedWithTheDriversTimezone() {
    LogTime t = LogTimes.parse("26/11/29 14:33:11 ERROR Executor: Exception in task 0.0").orElseThrow();
    assertThat(t.local()).isEqualTo(LocalDateTime.of(2026, 11, 29, 14, 33, 11));
    assertThat(t.zoned()).isFalse();
    assertThat(t.toInstant(ZoneId.of("Europe/Berlin"))).isEqualTo(Instant.parse("2026-11-29T13:33:11Z"));
  }

  @Test
  void isoLinesKeepTheirMillisAndOffset() {
    assertThat(LogTimes.parse("2026-11-29 14:33:11,250 WARN x").orElseThrow().local())
        .isEqualTo(LocalDateTime.of(2026, 11, 29, 14, 33, 11, 250_000_000));
    LogTime z = LogTimes.parse("2026-11-29T14:33:11.5Z stderr F boom").orElseThrow();
    assertThat(z.toInstant(ZoneId.of("Asia/Tokyo"))).isEqualTo(Instant.parse("2026-11-29T14:33:11.500Z"));
    LogTime o = LogTimes.parse("2026-11-29T14:33:11+0200 boom").orElseThrow();
    assertThat(o.toInstant(ZoneId.of("UTC"))).isEqualTo(Instant.parse("2026-11-29T12:33:11Z"));
  }

  @Test
  void linesWithoutATimeHaveNone() {
    assertThat(LogTimes.parse("\tat java.base/java.util.LinkedList.linkLast(LinkedList.java:146)")).isEmpty();
    assertThat(LogTimes.parse("12345678901234567890 not a date")).isEmpty();
    assertThat(LogTimes.parse("99/99/99 99:99:99 nonsense")).isEmpty();
  }
}

package io.sparkrca.core.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.io.ByteSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogStreamForEachMatchTest {
  private static LogStream log(int lines) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= lines; i++) {
      sb.append(i % 1000 == 0 ? "ERROR boom " + i : "INFO fine " + i).append('\n');
    }
    return LogStream.of(ByteSource.of("big.log", sb.toString().getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void everyMatchReachesTheVisitorPastTheSearchLimit() throws IOException {
    List<Long> lines = new ArrayList<>();
    MatchScan scan = log(50_000).forEachMatch(SearchQuery.literal("ERROR").withMaxMatches(5), m -> {
      lines.add(m.line().number());
      return true;
    });
    assertThat(scan.matches()).isEqualTo(50);
    assertThat(lines).hasSize(50).startsWith(1000L, 2000L).endsWith(50_000L);
    assertThat(scan.linesScanned()).isEqualTo(50_000);
    assertThat(scan.stoppedEarly()).isFalse();
  }

  @Test
  void theVisitorStopsTheScanAndContextComesWithEachMatch() throws IOException {
    List<SearchMatch> kept = new ArrayList<>();
    MatchScan scan = log(50_000).forEachMatch(SearchQuery.literal("ERROR").withContext(1, 2), m -> {
      kept.add(m);
      return kept.size() < 3;
    });
    assertThat(kept).hasSize(3);
    assertThat(scan.stoppedEarly()).isTrue();
    assertThat(scan.linesScanned()).isLessThan(5000);
    assertThat(kept.get(0).before()).extracting(LogLine::text).containsExactly("INFO fine 999");
    assertThat(kept.get(0).after()).extracting(LogLine::text).containsExactly("INFO fine 1001", "INFO fine 1002");
  }
}

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

  @Test
  void anAfterContextEndsAtTheFirstLineThatDoesNotContinueTheRecord() throws IOException {
    String text = "INFO start\n"
        + "ERROR task failed: java.io.IOException: boom\n"
        + "\tat a.B.c(B.java:1)\n"
        + "Caused by: java.lang.IllegalStateException: inner\n"
        + "\tat d.E.f(E.java:2)\n"
        + "INFO next record\n"
        + "\tat not.Part.of(It.java:3)\n"
        + "WARN java.io.IOException: again\n"
        + "INFO after\n";
    LogStream log = LogStream.of(ByteSource.of("trace.log", text.getBytes(StandardCharsets.UTF_8)));
    List<SearchMatch> kept = new ArrayList<>();
    List<String> asked = new ArrayList<>();
    MatchScan scan = log.forEachMatch(SearchQuery.literal("IOException").withContext(1, 150), t -> {
      asked.add(t);
      return t.startsWith("\t") || t.startsWith("Caused by:");
    }, m -> {
      kept.add(m);
      return true;
    });
    assertThat(scan.matches()).isEqualTo(2);
    assertThat(kept.get(0).after()).extracting(LogLine::text).containsExactly(
        "\tat a.B.c(B.java:1)", "Caused by: java.lang.IllegalStateException: inner", "\tat d.E.f(E.java:2)");
    // The line that ended the record is read as any other: the next match's before-context.
    assertThat(kept.get(1).line().number()).isEqualTo(8);
    assertThat(kept.get(1).before()).extracting(LogLine::text).containsExactly("\tat not.Part.of(It.java:3)");
    assertThat(kept.get(1).after()).isEmpty();
    // Only lines within the after-context of a match are asked about, and none past the first refusal.
    assertThat(asked).containsExactly("\tat a.B.c(B.java:1)", "Caused by: java.lang.IllegalStateException: inner",
        "\tat d.E.f(E.java:2)", "INFO next record", "INFO after");
    // Without the predicate the after-context runs its full length (up to the next match).
    List<SearchMatch> full = new ArrayList<>();
    log.forEachMatch(SearchQuery.literal("IOException").withContext(1, 150), m -> full.add(m));
    assertThat(full.get(0).after()).hasSize(5);
  }
}

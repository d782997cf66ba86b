package io.sparkrca.core.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Markdown summary of real testkit logs, whole and cut. */
class SummaryMarkdownTest {
  private final Path badRecord = TestkitFixtures.get("3.5.9", "bad-record").eventLog();

  @Test
  void namesTheApplicationAndUserOfACompleteLog() throws IOException {
    String md = SummaryMarkdown.render(ApplicationSummary.of(EventLogs.replay(badRecord), "bad-record"));

    assertThat(md)
        .contains("- **Application Name**: `sparkrca-testkit bad-record`")
        .containsPattern("- \\*\\*User\\*\\*: `[^`]+`")
        .contains("- **Spark Version**: `3.5.9`");
  }

  @Test
  void saysWhatIsUnknownWhenTheLogIsCutBeforeTheApplicationStart(@TempDir Path dir) throws IOException {
    List<String> before = new ArrayList<>();
    for (String line : Files.readAllLines(badRecord, StandardCharsets.UTF_8)) {
      if (line.contains("\"SparkListenerApplicationStart\"")) {
        break;
      }
      before.add(line);
    }
    Path cut = dir.resolve("cut-before-start");
    Files.write(cut, before, StandardCharsets.UTF_8);

    String md = SummaryMarkdown.render(ApplicationSummary.of(EventLogs.replay(cut), cut.toString()));

    assertThat(md)
        .contains("- **Application Name**: unknown (the log has no application start event)")
        .contains("- **User**: unknown (the log has no application start event)")
        .contains("- **Spark Version**: `3.5.9`")
        .contains("no application start event; it was cut before the application started")
        .doesNotContain("``");
  }
}

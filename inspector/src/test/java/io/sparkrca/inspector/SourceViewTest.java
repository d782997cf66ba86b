package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceViewTest {
  @TempDir Path dir;

  private Path file(String name, String text) throws Exception {
    return TestJars.write(dir, name, text.getBytes());
  }

  @Test
  void aPlainSourceIsNumbered() throws Exception {
    Path py = file("job.py", "import pyspark\nprint('hello')\n");

    String text = ClassInspector.create().inspect(py.toString()).toText();

    assertThat(text).contains("=== Source Code: " + py + " ===")
        .contains("   1 | import pyspark")
        .contains("   2 | print('hello')")
        .contains("Spark anti-patterns (0):");
  }

  @Test
  void maxLinesTruncatesAndSaysHowManyLinesThereAre() throws Exception {
    String fifty = IntStream.rangeClosed(1, 50).mapToObj(i -> "x = " + i).collect(Collectors.joining("\n"));
    Path py = file("long.py", fifty);

    SourceView s = (SourceView) ClassInspector.builder().maxLines(10).build().inspect(py.toString());

    assertThat(s.lines()).hasSize(10);
    assertThat(s.truncated()).isTrue();
    assertThat(s.toText()).contains("[Truncated at 10 lines. Total lines: 50]");
  }

  @Test
  void startLineShowsAWindowFurtherIn() throws Exception {
    String fifty = IntStream.rangeClosed(1, 50).mapToObj(i -> "x = " + i).collect(Collectors.joining("\n"));
    Path py = file("long.py", fifty);

    SourceView s = (SourceView) ClassInspector.builder().maxLines(5).startLine(40).build()
        .inspect(py.toString());

    assertThat(s.toText()).contains("  40 | x = 40").contains("  44 | x = 44")
        .doesNotContain("  45 |").contains("[Showing lines 40-44. Total lines: 50]");
    assertThatThrownBy(() -> ClassInspector.builder().startLine(60).build().inspect(py.toString()))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("past its end");
  }

  @Test
  void aLogFileIsRefusedAsNotCodeSayingWhichKindOfLogItIs() throws Exception {
    Path byName = file("driver.log", "anything\n");
    Path byContent = file("output.txt", """
        24/05/01 10:00:00 INFO SparkContext: Running Spark version 3.5.1
        24/05/01 10:00:01 INFO ResourceUtils: No custom resources configured
        24/05/01 10:00:02 WARN NativeCodeLoader: Unable to load native-hadoop library
        24/05/01 10:00:03 ERROR Executor: Exception in task 0.0 in stage 1.0
        """);
    Path eventLog = file("app-20240501100000-0001", "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");

    Path eventLogByContent = file("output.json",
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n{\"Event\":\"SparkListenerApplicationStart\"}\n");

    for (Path p : new Path[] {byName, byContent}) {
      assertThatThrownBy(() -> ClassInspector.create().inspect(p.toString()))
          .isInstanceOfSatisfying(NotCodeException.class, e -> {
            assertThat(e.kind()).isEqualTo(NotCodeException.Kind.LOG);
            assertThat(e.input()).isEqualTo(p.toString());
            assertThat(e.archiveEntry()).isFalse();
          })
          .isInstanceOf(UnsupportedInputException.class)
          .hasMessageContaining("looks like a log, not code: read it as a log (LogStream")
          // A library message names no command line.
          .hasMessageNotContaining("sparkrca ");
    }
    for (Path p : new Path[] {eventLog, eventLogByContent}) {
      assertThatThrownBy(() -> ClassInspector.create().inspect(p.toString()))
          .isInstanceOfSatisfying(NotCodeException.class, e -> assertThat(e.kind()).isEqualTo(NotCodeException.Kind.EVENT_LOG))
          .hasMessageContaining("looks like a Spark event log, not code: replay it (EventLogs.replay)")
          .hasMessageNotContaining("sparkrca ");
    }
  }

  @Test
  void aBinaryFileIsRefusedClearly() throws Exception {
    Path bin = TestJars.write(dir, "data.bin", new byte[] {1, 2, 0, 3, 4, 5});

    assertThatThrownBy(() -> ClassInspector.create().inspect(bin.toString()))
        .isInstanceOf(UnsupportedInputException.class).hasMessageContaining("is binary");
  }

  @Test
  void secretsAndTerminalEscapesInSourcesAreNotPrinted() throws Exception {
    Path py = file("conn.py", "url = \"jdbc:mysql://db/sales?user=etl&password=hunter2\"\nprint(\"\u001b[31mred\")\n");

    String text = ClassInspector.create().inspect(py.toString()).toText();

    assertThat(text).doesNotContain("hunter2").contains("password=*********(redacted)")
        .doesNotContain("\u001b").contains("\\u001b[31mred");
  }

  @Test
  void jsonCarriesNumberedLinesAndFindings() throws Exception {
    Path py = file("job.py", "df = spark.table('t')\nrows = df.collect()\n");

    JsonNode json = new ObjectMapper().readTree(ClassInspector.create().inspect(py.toString()).toJson());

    assertThat(json.get("kind").asText()).isEqualTo("file");
    assertThat(json.get("language").asText()).isEqualTo("python");
    assertThat(json.get("lines").get(1).get("n").asInt()).isEqualTo(2);
    assertThat(json.get("lines").get(1).get("text").asText()).isEqualTo("rows = df.collect()");
    assertThat(json.get("findings").get(0).get("pattern").asText()).isEqualTo("collect-unbounded");
    assertThat(json.get("findings").get(0).get("line").asInt()).isEqualTo(2);
  }
}

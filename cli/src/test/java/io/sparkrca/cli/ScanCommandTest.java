package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparkrca scan} over copies of the testkit's real event logs. */
class ScanCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  private static Path fleet;

  @BeforeAll
  static void fleet() throws Exception {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    fleet = Files.createDirectories(dir.resolve("fleet"));
    for (String scenario : List.of("healthy", "bad-record", "spill", "executor-oom")) {
      for (String v : List.of("3.5.9", "4.0.4")) {
        Path log = TestkitFixtures.get(v, scenario).eventLog();
        Path target = fleet.resolve(v).resolve(log.getFileName().toString());
        Files.createDirectories(target.getParent());
        if (Files.isDirectory(log)) {
          Files.createDirectories(target);
          try (var files = Files.list(log)) {
            for (Path p : (Iterable<Path>) files::iterator) {
              Files.copy(p, target.resolve(p.getFileName().toString()));
            }
          }
        } else {
          Files.copy(log, target);
        }
      }
    }
    Files.writeString(fleet.resolve("app-20240101000000-0009"), "{\"Event\":\"SparkListenerLogStart\"\n");
    Files.writeString(fleet.resolve("README.txt"), "not a log\n");
  }

  @Test
  void jsonLinesHaveOneRowPerApplicationWithRcasIdAndKind() throws Exception {
    CliRun run = CliRun.of("scan", fleet.toString());

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(9);
    for (String line : lines) {
      JsonNode row = JSON.readTree(line);
      if (row.path("error").isNull()) {
        CliRun rca = CliRun.of("rca", "--format", "json", row.path("path").asText());
        JsonNode report = JSON.readTree(rca.out());
        assertThat(row.path("appId").asText()).isEqualTo(report.path("application").path("id").asText());
        assertThat(row.path("rootCause").path("kind").asText()).isEqualTo(report.path("rootCause").path("kind").asText());
      } else {
        assertThat(row.path("path").asText()).endsWith("app-20240101000000-0009");
        assertThat(row.path("rootCause").isNull()).isTrue();
      }
    }
    assertThat(run.err()).contains("9 applications (9 analysed, 0 unchanged, 1 could not be analysed)")
        .doesNotContain("\r");
  }

  @Test
  void csvHasAHeaderAndARowPerApplication() {
    CliRun run = CliRun.of("scan", "--format", "csv", fleet.toString());

    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).startsWith("path,sizeBytes,modifiedTime,inProgress,date,appId,");
    assertThat(lines).hasSize(10);
  }

  @Test
  void theOutputFilesExtensionChoosesTheFormatUnlessFormatIsGiven(@TempDir Path work) throws Exception {
    Path csv = work.resolve("rows.csv");
    Path md = work.resolve("rows.md");
    Path forced = work.resolve("rows.csv.txt");

    CliRun.of("scan", "--output", csv.toString(), fleet.resolve("3.5.9").toString());
    CliRun.of("scan", "--output", md.toString(), fleet.resolve("3.5.9").toString());
    CliRun.of("scan", "--format", "csv", "--output", forced.toString(), fleet.resolve("3.5.9").toString());

    assertThat(Files.readAllLines(csv).get(0)).startsWith("path,sizeBytes,");
    assertThat(Files.readString(md)).startsWith("# Fleet summary");
    assertThat(Files.readAllLines(forced).get(0)).startsWith("path,sizeBytes,");
    assertThat(ScanCommand.formatOf(work.resolve("rows.jsonl"))).isEqualTo(ScanCommand.Format.jsonl);
    assertThat(ScanCommand.formatOf(null)).isEqualTo(ScanCommand.Format.jsonl);
  }

  @Test
  void markdownPutsTheSummaryBeforeTheTable() {
    CliRun run = CliRun.of("scan", "--format", "markdown", fleet.toString());

    String md = run.out();
    assertThat(md.indexOf("# Fleet summary")).isLessThan(md.indexOf("## Applications"));
    assertThat(md).contains("| EXECUTOR_OOM_HEAP |", "ERROR", "## Logs that could not be analysed");
  }

  @Test
  void parquetGoesToTheOutputFileOnlyAndLeavesNoTemporaryFile(@TempDir Path work) throws Exception {
    Path rows = work.resolve("fleet.parquet");

    // The extension says Parquet; --format is not needed.
    CliRun run = CliRun.of("scan", "--output", rows.toString(), fleet.toString());
    CliRun noFile = CliRun.of("scan", "--format", "parquet", fleet.toString());

    assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    byte[] file = Files.readAllBytes(rows);
    assertThat(new String(file, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PAR1");
    assertThat(new String(file, file.length - 4, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PAR1");
    // The footer names the columns (Spark reading the rows back is FleetJobIT's part).
    assertThat(new String(file, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("culpritStages", "wastedCoreHours", "sparkrca version");
    try (var left = Files.list(work)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("fleet.parquet");
    }
    assertThat(noFile.exitCode()).isEqualTo(2);
    assertThat(noFile.err()).contains("--format parquet writes a binary file", "--output FILE");
  }

  @Test
  void aParquetScanThatFailsLeavesNeitherTheFileNorATemporaryOne(@TempDir Path work) throws Exception {
    Path empty = Files.createDirectories(work.resolve("no-logs"));
    Path rows = work.resolve("fleet.parquet");

    CliRun run = CliRun.of("scan", "--output", rows.toString(), empty.toString());

    assertThat(run.exitCode()).as(run.err()).isNotZero();
    assertThat(run.err()).contains(empty.toString());
    try (var left = Files.list(work)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("no-logs");
    }
  }

  @Test
  void theIndexMakesTheSecondScanAnalyseNothingAndGiveTheSameRows(@TempDir Path work) throws Exception {
    Path index = work.resolve("index.jsonl");
    Path rows1 = work.resolve("rows1.jsonl");
    Path rows2 = work.resolve("rows2.jsonl");
    Path summary = work.resolve("summary.json");

    CliRun first = CliRun.of("scan", fleet.toString(), "--index", index.toString(), "--output", rows1.toString(),
        "--summary", summary.toString(), "--threads", "2");
    CliRun second = CliRun.of("scan", fleet.toString(), "--index", index.toString(), "--output", rows2.toString());

    assertThat(first.out()).isEmpty();
    assertThat(first.err()).contains("9 analysed, 0 unchanged");
    assertThat(second.err()).contains("0 analysed, 9 unchanged");
    assertThat(Files.readString(rows2)).isEqualTo(Files.readString(rows1));
    assertThat(JSON.readTree(Files.readString(summary)).path("applications").asInt()).isEqualTo(9);
  }

  @Test
  void aRootWithNoLogIsAnErrorWithExitCode2(@TempDir Path empty) throws Exception {
    Files.writeString(empty.resolve("notes.txt"), "x");

    CliRun run = CliRun.of("scan", empty.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("none of them an event log");
    assertThat(JSON.readTree(run.out()).path("status").asText()).isEqualTo("ERROR");
  }

  @Test
  void progressIsDrawnOnlyWhenAsked() {
    CliRun forced = CliRun.of("scan", "--progress", fleet.resolve("3.5.9").toString());
    CliRun quiet = CliRun.of("scan", fleet.resolve("3.5.9").toString());

    assertThat(forced.err()).contains("\r").contains("4/4 logs");
    assertThat(quiet.err()).doesNotContain("\r").doesNotContain("logs ·");
  }
}

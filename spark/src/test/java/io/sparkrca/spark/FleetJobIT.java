package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.fleet.FleetParquetWriter;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.fleet.FleetScan;
import io.sparkrca.spark.it.ForkedFleetRun;
import io.sparkrca.testkit.ForkedJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fleet job on real Spark 3.5.9 and 4.0.4 ({@code local[2]}, forked JVMs with Spark's own
 * Jackson on the class path and the shaded jar) over every testkit fixture of both versions plus a
 * corrupt log: the Parquet rows it writes are exactly the rows {@code sparkrca scan} produces, the
 * corrupt log is an error row, the summary is the scan's summary, and a second run takes every row
 * from the index table. Spark also reads {@code scan}'s own Parquet files ({@link FleetParquetWriter},
 * several row groups, GZIP and uncompressed): the job's table schema and the same rows.
 */
class FleetJobIT {
  @TempDir static Path tmp;
  private static Path fleet;
  private static List<String> scanRows;
  private static String scanSummary;
  private static Path corrupt;

  @BeforeAll
  static void fleetAndScanRows() throws IOException {
    List<TestkitFixtures.Fixture> fixtures = TestkitFixtures.all();
    assumeTrue(!fixtures.isEmpty(), "no testkit fixtures under testkit/fixtures");
    fleet = Files.createDirectories(tmp.resolve("fleet"));
    for (TestkitFixtures.Fixture f : fixtures) {
      SparkForks.copy(f, Files.createDirectories(fleet.resolve("spark-" + f.sparkVersion())));
    }
    corrupt = fleet.resolve("app-20260101000000-9999.zstd");
    Files.write(corrupt, "not a zstd frame, not an event log".getBytes(StandardCharsets.UTF_8));
    Files.writeString(fleet.resolve("README.txt"), "not an event log either");
    List<String> rows = new ArrayList<>();
    FleetScan.Result r = FleetScan.builder().threads(2).build().run(fleet.toString(), row -> rows.add(row.toJson()));
    rows.sort(Comparator.comparing(j -> FleetRow.fromJson(j).path()));
    scanRows = rows;
    scanSummary = r.summary().toJson();
    assertThat(r.errors()).as("scan's error rows").isEqualTo(1);
  }

  @ParameterizedTest(name = "Spark {0}")
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void theJobWritesExactlyTheRowsScanWritesAndReusesItsIndex(String version) throws IOException {
    Path work = Files.createDirectories(tmp.resolve("work-" + version));
    Path scanParquet = Files.createDirectories(work.resolve("scan-parquet"));
    writeScanParquet(scanParquet.resolve("gzip-small-groups.parquet"),
        FleetParquetWriter.builder().rowGroupBytes(4096));
    writeScanParquet(scanParquet.resolve("uncompressed.parquet"),
        FleetParquetWriter.builder().compression(FleetParquetWriter.Compression.NONE));
    ForkedJvm.Outcome o = SparkForks.run(version, ForkedFleetRun.class.getName(), List.of(),
        // The file: URI run (Hadoop's file system) on one version only: each analysis of the fleet costs a minute.
        version.startsWith("3.") ? List.of(work.toString(), fleet.toString(), fleet.toUri().toString())
            : List.of(work.toString(), fleet.toString()), work, "job");
    assertThat(o.exitCode()).as("the job on Spark %s; stderr:%n%s", version, SparkForks.text(work.resolve("job.stderr")))
        .isEqualTo(0);

    List<String> first = Files.readAllLines(work.resolve("first.jsonl"));
    assertThat(first).as("rows read back from the Parquet table").containsExactlyElementsOf(scanRows);
    assertThat(first).filteredOn(j -> FleetRow.fromJson(j).isError()).singleElement()
        .satisfies(j -> assertThat(FleetRow.fromJson(j).path()).isEqualTo(corrupt.toString()));
    assertThat(Files.readAllLines(work.resolve("again.jsonl"))).as("rows of the run that reused the index")
        .containsExactlyElementsOf(scanRows);
    if (version.startsWith("3.")) {
      // Through Hadoop's file system (a file: URI), the same rows, each naming its log as a URI.
      String uriRoot = fleet.toUri().toString();
      List<String> viaHadoop = new ArrayList<>();
      for (String j : Files.readAllLines(work.resolve("uri.jsonl"))) {
        FleetRow r = FleetRow.fromJson(j);
        assertThat(r.path()).startsWith(uriRoot);
        viaHadoop.add(j.replace(uriRoot, fleet + "/"));
      }
      assertThat(viaHadoop).as("rows of the file: URI run, paths written as plain paths")
          .containsExactlyElementsOf(scanRows);
    }

    // scan's own Parquet file, as Spark reads it: the job's table schema, the same rows.
    for (String file : List.of("gzip-small-groups.parquet", "uncompressed.parquet")) {
      List<String> facts = Files.readAllLines(scanParquet.resolve(file + ".txt"));
      assertThat(facts.get(0)).as("%s's schema, as Spark %s reads it:%n%s", file, version, String.join("\n", facts))
          .isEqualTo("schema-is-the-table-schema=true");
      assertThat(Files.readAllLines(scanParquet.resolve(file + ".jsonl"))).as("%s's rows read by Spark %s", file, version)
          .containsExactlyElementsOf(scanRows);
    }
    assertThat(Files.readAllLines(scanParquet.resolve("gzip-small-groups.parquet.txt")).get(1))
        .as("row groups of the file written with 4 KiB groups").isNotEqualTo("row-groups=1").startsWith("row-groups=");

    List<String> results = Files.readAllLines(work.resolve("results.txt"));
    int n = scanRows.size();
    assertThat(results.get(0)).startsWith("first analysed=" + n + " reused=0 rows=" + n + " errors=1 tasks=");
    assertThat(results.get(1)).startsWith("again analysed=0 reused=" + n + " rows=" + n + " errors=1 tasks=0");
    assertThat(Files.readString(work.resolve("out-plain/summary.json"))).as("the job's fleet summary")
        .isEqualTo(scanSummary);
    assertThat(work.resolve("out-plain/summary.md")).content().contains(String.valueOf(n));
    List<Path> dates;
    try (var list = Files.list(work.resolve("out-plain/rows"))) {
      dates = list.filter(p -> p.getFileName().toString().startsWith("date=")).toList();
    }
    assertThat(dates).as("Parquet partitions by date").isNotEmpty();
    for (Path date : dates) {
      try (var files = Files.list(date)) {
        // The job ran several tasks; the rows are written from few partitions, not one file per task and date.
        assertThat(files.filter(p -> p.getFileName().toString().endsWith(".parquet"))).as("files in %s", date)
            .hasSize(1);
      }
    }
    try (var versions = Files.list(work.resolve("out-plain/index"))) {
      assertThat(versions.filter(p -> p.getFileName().toString().startsWith("v="))).as("index versions kept")
          .hasSize(1);
    }
  }

  private static void writeScanParquet(Path file, FleetParquetWriter.Builder settings) throws IOException {
    try (FleetParquetWriter w = settings.open(Files.newOutputStream(file))) {
      // Not in path order: the reader sorts, as for the job's table.
      for (int i = scanRows.size() - 1; i >= 0; i--) {
        w.write(FleetRow.fromJson(scanRows.get(i)));
      }
    }
  }

  @Test
  void theShadedJarRelocatesEveryLibrarySparkShipsInAnotherVersion() throws IOException {
    List<String> foreign = new ArrayList<>();
    boolean relocatedJackson = false;
    try (JarFile jar = new JarFile(SparkForks.shadedJar().toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.endsWith(".class") && !n.startsWith("io/sparkrca/") && !n.startsWith("dev/cel/")
            && !n.startsWith("cel/parser/")) {
          foreign.add(n);
        }
        relocatedJackson |= n.startsWith("io/sparkrca/spark/shaded/jackson/databind/");
      }
    }
    assertThat(foreign).as("classes outside sparkrca's packages (they would clash with Spark's)").isEmpty();
    assertThat(relocatedJackson).as("Jackson inside the jar, relocated").isTrue();
  }
}

package io.sparkrca.fleet.examples;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.fleet.FleetAnalysis;
import io.sparkrca.fleet.FleetIndex;
import io.sparkrca.fleet.FleetLog;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.fleet.FleetParquetWriter;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.fleet.FleetScan;
import io.sparkrca.fleet.FleetSummary;
import io.sparkrca.fleet.MemoryBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.fleet}, compiled (see {@link JavadocExamplesTest}). */
class FleetExamples {
  /** The example of {@code FleetAnalysis}. */
  void fleetAnalysis(FleetLog log) throws Exception {
    FleetAnalysis analysis = FleetAnalysis.builder().sources(ByteSources.defaults()).build();
    FleetRow row = analysis.analyze(log);
    System.out.println(row.toJson());
  }

  /** The example of {@code FleetIndex}. */
  void fleetIndex(FleetLog log) throws Exception {
    try (FleetIndex index = FleetIndex.open(Path.of("fleet-index.jsonl"))) {
      Optional<FleetRow> done = index.current(log);
    }
  }

  /** The example of {@code FleetOptions}. */
  void fleetOptions() throws Exception {
    FleetScan scan = FleetScan.builder().maxDepth(3).skipInProgress(true).reanalyze(false).build();
  }

  /** The example of {@code FleetLog}. */
  void fleetLog() throws Exception {
    for (FleetLog log : FleetLogs.discover(ByteSources.defaults(), "/tmp/spark-events").logs()) {
      System.out.println(log.uri() + " " + log.sizeBytes() + (log.inProgress() ? " (running)" : ""));
    }
  }

  /** The example of {@code FleetLogs}. */
  void fleetLogs() throws Exception {
    FleetLogs.Listing found = FleetLogs.discover(ByteSources.defaults(), "gs://bucket/spark-events/");
    System.out.println(found.logs().size() + " logs, " + found.skippedFiles() + " other files");
  }

  /** The example of {@code FleetParquetWriter}. */
  void fleetParquetWriter() throws Exception {
    try (FleetParquetWriter parquet = FleetParquetWriter.builder().open(Files.newOutputStream(Path.of("fleet.parquet")))) {
      FleetScan.builder().build().run("/tmp/spark-events", parquet::write);
    }
    // spark.read().parquet("fleet.parquet").groupBy("rootCause.kind").count().show()
  }

  /** The example of {@code FleetRow}. */
  void fleetRow(FleetLog log) throws Exception {
    FleetRow row = FleetAnalysis.standard().analyze(log);
    row.rootCause().ifPresent(c -> System.out.println(row.appId().orElse("?") + " " + c.kind()));
    System.out.println(row.toJson()); // one line of JSON Lines
  }

  /** The example of {@code FleetScan}. */
  void fleetScan() throws Exception {
    FleetScan.Result r = FleetScan.builder().threads(2).index(Path.of("index.jsonl")).build()
        .run("/tmp/spark-events", row -> System.out.println(row.toJson()));
    System.err.println(r.analysed() + " analysed, " + r.reused() + " unchanged");
  }

  /** The example of {@code FleetSummary}. */
  void fleetSummary(List<FleetRow> rows) throws Exception {
    FleetSummary.Builder b = FleetSummary.builder("/tmp/spark-events");
    rows.forEach(b::add);
    FleetSummary s = b.build();
    System.out.println(s.toMarkdown());
  }

  /** The example of {@code MemoryBudget}. */
  void memoryBudget(FleetLog log) throws Exception {
    MemoryBudget budget = MemoryBudget.ofBytes(256L << 20);
    try (MemoryBudget.Lease lease = budget.acquire(MemoryBudget.estimate(log))) {
      // analyse the log
    }
  }

  /** The example of {@code io.sparkrca.fleet}. */
  void overview() throws Exception {
    FleetScan scan = FleetScan.builder().threads(2).index(Path.of("fleet-index.jsonl")).build();
    FleetScan.Result result = scan.run("/tmp/spark-events", row -> System.out.println(row.toJson()));
    System.err.println(result.summary().toMarkdown());
  }
}

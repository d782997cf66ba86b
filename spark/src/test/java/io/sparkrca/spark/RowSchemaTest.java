package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.fleet.FleetAnalysis;
import io.sparkrca.fleet.FleetLog;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.spark.internal.RowSchema;
import io.sparkrca.core.io.ByteSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table rows and FleetRows convert both ways without loss, for real rows of real fixture logs. */
class RowSchemaTest {
  @TempDir Path tmp;

  @Test
  void aRowOfEveryFixtureAndAnErrorRowSurviveTheTableUnchanged() throws IOException {
    List<TestkitFixtures.Fixture> fixtures = TestkitFixtures.all();
    assumeTrue(!fixtures.isEmpty(), "no testkit fixtures");
    for (TestkitFixtures.Fixture f : fixtures.subList(0, Math.min(8, fixtures.size()))) {
      SparkForks.copy(f, Files.createDirectories(tmp.resolve(f.sparkVersion())));
    }
    Files.writeString(tmp.resolve("app-20260101000000-0001"), "{not json");
    List<FleetLog> logs = FleetLogs.discover(ByteSources.defaults(), tmp.toString()).logs();
    assertThat(logs).hasSizeGreaterThan(1);
    int errors = 0;
    for (FleetLog log : logs) {
      FleetRow row = FleetAnalysis.standard().analyze(log);
      errors += row.isError() ? 1 : 0;
      Row table = RowSchema.toRow(row);
      assertThat(table.length()).isEqualTo(RowSchema.ROWS.size());
      assertThat(RowSchema.fromRow(table)).as("%s through the table", log.uri()).isEqualTo(row);
      assertThat(RowSchema.toIndexRow(row).getString(4)).isEqualTo(row.toJson());
    }
    assertThat(errors).as("the broken log's error row").isEqualTo(1);
  }

  @Test
  void theTableHasTheColumnsOfScansCsvWithTheRootCauseAsOneStruct() {
    List<String> flat = FleetRow.COLUMNS.stream().map(c -> c.startsWith("rootCause.") ? "rootCause" : c)
        .distinct().toList();
    assertThat(RowSchema.columns()).containsExactlyElementsOf(flat);
    assertThat(RowSchema.CAUSE.fieldNames()).containsExactly("kind", "confidence", "title", "culpritStages");
  }
}

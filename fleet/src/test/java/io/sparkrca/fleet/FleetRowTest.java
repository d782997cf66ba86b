package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The encodings of {@link FleetRow} and {@link FleetLog}. */
class FleetRowTest {
  @Test
  void everyFixtureRowSurvivesJsonAndJavaSerializationAndItsCsvHasOneCellPerColumn() throws Exception {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    List<FleetRow> rows = new ArrayList<>();
    FleetLogs.Listing listing = FleetLogs.discover(io.sparkrca.core.io.ByteSources.defaults(),
        TestkitFixtures.root().get().resolve("spark-4.0.4").toString());
    for (FleetLog log : listing.logs()) {
      assertThat(FleetLog.fromJson(log.toJson())).isEqualTo(log);
      rows.add(FleetAnalysis.standard().analyze(log));
    }
    for (FleetRow r : rows) {
      assertThat(FleetRow.fromJson(r.toJson())).isEqualTo(r);
      assertThat(javaSerialized(r)).as("a row a Spark job caches or spills").isEqualTo(r);
      assertThat(FleetRow.fromJson(r.toJson()).toJson()).isEqualTo(r.toJson());
      assertThat(csvCells(r.toCsv())).hasSize(FleetRow.COLUMNS.size());
      assertThat(r.toJson()).doesNotContain("\n").startsWith("{\"path\":");
    }
    assertThat(FleetRow.csvHeader().split(",")).hasSize(FleetRow.COLUMNS.size());
  }

  /** {@code r} written with Java serialization and read back. */
  private static FleetRow javaSerialized(FleetRow r) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(r);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (FleetRow) in.readObject();
    }
  }

  @Test
  void anErrorRowHasTheLogAndTheErrorOnly() throws Exception {
    FleetLog log = FleetLog.failed("/logs/app-1", 10, Optional.empty(), "broken\nacross lines password=hunter2");
    FleetRow r = FleetAnalysis.standard().analyze(log);

    assertThat(r.isError()).isTrue();
    assertThat(r.error().get()).doesNotContain("\n").doesNotContain("hunter2");
    assertThat(r.date()).isEqualTo("unknown");
    assertThat(r.toJson()).contains("\"appId\":null", "\"rootCause\":null");
    assertThat(FleetRow.fromJson(r.toJson())).isEqualTo(r);
    assertThat(javaSerialized(r)).isEqualTo(r);
  }

  @Test
  void aLineThatIsNoRowIsACorruptInputError() {
    assertThatThrownBy(() -> FleetRow.fromJson("{\"path\":\"/x\"")).isInstanceOf(CorruptInputException.class);
    assertThatThrownBy(() -> FleetRow.fromJson("[1]")).isInstanceOf(CorruptInputException.class);
    assertThatThrownBy(() -> FleetRow.fromJson("{\"sizeBytes\":1}")).isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("'path'");
  }

  @Test
  void csvQuotesCommasQuotesAndLineBreaks() {
    FleetRow r = FleetRow.error(FleetLog.failed("/logs/a,b", 1, Optional.empty(), "say \"no\""), "say \"no\", twice");

    assertThat(r.toCsv()).startsWith("\"/logs/a,b\",1,,false,unknown,").endsWith(",\"say \"\"no\"\", twice\"");
  }

  /** Splits one RFC 4180 record. */
  private static List<String> csvCells(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }
}

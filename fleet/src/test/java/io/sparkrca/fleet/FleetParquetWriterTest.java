package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link FleetParquetWriter} over real rows (that Spark reads the file back to the same rows is
 * FleetJobIT's part, in the spark module, where Spark is).
 */
class FleetParquetWriterTest {
  @Test
  void theLeafColumnsAreTheRowColumnsInOrder() throws IOException {
    try (FleetParquetWriter w = FleetParquetWriter.builder().open(new ByteArrayOutputStream())) {
      List<String> expected = new ArrayList<>(FleetRow.COLUMNS);
      expected.set(expected.indexOf("rootCause.culpritStages"), "rootCause.culpritStages.list.element");
      assertThat(w.leafPaths()).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void everyFixtureRowIsWrittenAndRowGroupsFollowTheBound() throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    List<FleetRow> rows = new ArrayList<>();
    for (FleetLog log : FleetLogs.discover(ByteSources.defaults(), TestkitFixtures.root().get().toString()).logs()) {
      rows.add(FleetAnalysis.standard().analyze(log));
    }
    rows.add(FleetRow.error(FleetLog.failed("/logs/app-1", 10, Optional.empty(), "broken"), "broken"));
    ByteArrayOutputStream big = new ByteArrayOutputStream();
    ByteArrayOutputStream small = new ByteArrayOutputStream();
    try (FleetParquetWriter one = FleetParquetWriter.builder().open(big);
        FleetParquetWriter many = FleetParquetWriter.builder().rowGroupBytes(2048)
            .compression(FleetParquetWriter.Compression.NONE).open(small)) {
      rows.forEach(one::write);
      rows.forEach(many::write);
      assertThat(one.rows()).isEqualTo(rows.size());
      assertThat(one.rowGroups()).as("row groups before close, 8 MiB bound").isZero();
      assertThat(many.rowGroups()).as("row groups before close, 2 KiB bound").isGreaterThan(1);
    }
    // Uncompressed, every title is in the file; compressed, the file is smaller.
    String plain = small.toString(java.nio.charset.StandardCharsets.UTF_8);
    rows.stream().flatMap(r -> r.rootCause().stream()).forEach(c -> assertThat(plain).contains(c.title()));
    assertThat(big.size()).isLessThan(small.size());
  }

  @Test
  void aFailingStreamIsAnErrorSayingSoAndABadSettingOrALateRowIsRefused() throws IOException {
    OutputStream full = new OutputStream() {
      private int written;

      @Override
      public void write(int b) throws IOException {
        if (++written > 4) {
          throw new IOException("No space left on device");
        }
      }
    };
    FleetParquetWriter w = FleetParquetWriter.builder().rowGroupBytes(1).open(full);
    FleetRow row = FleetRow.error(FleetLog.failed("/logs/app-1", 10, Optional.empty(), "x"), "x");
    assertThatThrownBy(() -> w.write(row)).isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("could not write a row group of the Parquet file: No space left on device");
    assertThatThrownBy(() -> FleetParquetWriter.builder().rowGroupBytes(0))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("between 1 and 1 GiB");
    FleetParquetWriter done = FleetParquetWriter.builder().open(new ByteArrayOutputStream());
    done.close();
    assertThatThrownBy(() -> done.write(row)).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void anAbortedFileClosesItsStreamWithoutTheBufferedRowsOrTheFooter() throws IOException {
    java.util.concurrent.atomic.AtomicBoolean streamClosed = new java.util.concurrent.atomic.AtomicBoolean();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream() {
      @Override
      public void close() {
        streamClosed.set(true);
      }
    };
    FleetParquetWriter w = FleetParquetWriter.builder().open(bytes);
    FleetRow row = FleetRow.error(FleetLog.failed("/logs/app-1", 10, Optional.empty(), "x"), "x");
    w.write(row);

    w.abort();
    w.close();

    assertThat(streamClosed).isTrue();
    assertThat(bytes.toByteArray()).as("only the leading magic: the row was buffered, no footer")
        .containsExactly('P', 'A', 'R', '1');
    assertThatThrownBy(() -> w.write(row)).isInstanceOf(InvalidRequestException.class).hasMessageContaining("closed");
  }
}

package io.sparkrca.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.fleet.internal.ParquetTableWriter.Codec;
import io.sparkrca.fleet.internal.ParquetTableWriter.Logical;
import io.sparkrca.fleet.internal.ParquetTableWriter.Node;
import io.sparkrca.fleet.internal.ParquetTableWriter.Primitive;
import io.sparkrca.fleet.internal.ParquetTableWriter.Repetition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The file's framing and encodings as the Parquet format specification gives them (whether real
 * readers agree is SparkParquetReadTest's and FleetJobIT's part, in the spark module).
 */
class ParquetTableWriterTest {
  private static final List<Node> ONE_LIST = List.of(
      Node.leaf("id", Repetition.REQUIRED, Primitive.INT64, Logical.NONE),
      Node.group("xs", Repetition.OPTIONAL, Logical.LIST,
          Node.group("list", Repetition.REPEATED, Logical.NONE,
              Node.leaf("element", Repetition.REQUIRED, Primitive.INT32, Logical.NONE))));

  @Test
  void levelsAreLengthPrefixedRleRunsOfTheirBitWidthInBytes() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ParquetTableWriter.Column.rle(b, new byte[] {1, 1, 1, 0, 2}, 5, 2);
    // Three runs: 3 x 1, 1 x 0, 1 x 2; header = run length << 1; one byte per value (width 2 bits).
    assertThat(b.toByteArray()).containsExactly(6, 0, 0, 0, 6, 1, 2, 0, 2, 2);

    ByteArrayOutputStream long_ = new ByteArrayOutputStream();
    ParquetTableWriter.Column.rle(long_, new byte[200], 200, 1);
    // A run of 200: header 400 as a varint (0x90 0x03), then the value 0.
    assertThat(long_.toByteArray()).containsExactly(3, 0, 0, 0, 0x90, 0x03, 0);
  }

  @Test
  void aFileIsMagicColumnChunksTheFooterItsLengthAndMagic() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ParquetTableWriter w = new ParquetTableWriter(out, ONE_LIST, Codec.UNCOMPRESSED, 1 << 20, "t version 1")) {
      w.columns().get(0).int64(0, 7);
      w.columns().get(1).int32(0, 3);
      w.columns().get(1).int32(1, 4);
      w.endRecord();
      w.columns().get(0).int64(0, 8);
      w.columns().get(1).absent(0, 0); // xs null
      w.endRecord();
    }
    byte[] file = out.toByteArray();
    assertThat(Arrays.copyOfRange(file, 0, 4)).containsExactly('P', 'A', 'R', '1');
    assertThat(Arrays.copyOfRange(file, file.length - 4, file.length)).containsExactly('P', 'A', 'R', '1');
    int footer = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int footerStart = file.length - 8 - footer;
    // FileMetaData starts with field 1 (version, i32) = 1: 0x15 0x02; then the schema list of 5 structs: 0x19 0x5C.
    assertThat(Arrays.copyOfRange(file, footerStart, footerStart + 4)).containsExactly(0x15, 0x02, 0x19, 0x5C);
    // The first column chunk follows the magic: a page header whose values are two int64s, 16 bytes (0x20 zigzag).
    assertThat(Arrays.copyOfRange(file, 4, 9)).containsExactly(0x15, 0x00, 0x15, 0x20, 0x15);
    assertThat(new String(file, footerStart, footer, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("element", "t version 1");
  }

  @Test
  void rowGroupsAreWrittenAsTheBufferPassesItsBound() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ParquetTableWriter w = new ParquetTableWriter(out, ONE_LIST, Codec.GZIP, 1000, "t");
    for (int i = 0; i < 1000; i++) {
      w.columns().get(0).int64(0, i);
      w.columns().get(1).int32(0, i);
      w.endRecord();
      // Each record buffers 8 + 4 value bytes and 3 level bytes: a group every 67 records.
      assertThat(out.size()).as("bytes written by record %d", i).isLessThanOrEqualTo(4 + (i + 1) * 20);
    }
    assertThat(w.rowGroups()).isEqualTo(1000 / 67);
    w.close();
    assertThat(w.rowGroups()).isEqualTo(1000 / 67 + 1);
    assertThat(w.records()).isEqualTo(1000);
    assertThatThrownBy(w::endRecord).isInstanceOf(AssertionError.class).hasMessageContaining("closed");
  }

  @Test
  void aValueOfTheWrongTypeOrLevelIsAProgrammingErrorNamingTheColumn() throws IOException {
    ParquetTableWriter w = new ParquetTableWriter(new ByteArrayOutputStream(), ONE_LIST, Codec.GZIP, 1000, "t");
    assertThatThrownBy(() -> w.columns().get(0).string(0, "x")).isInstanceOf(AssertionError.class)
        .hasMessage("id holds INT64, not BYTE_ARRAY");
    assertThatThrownBy(() -> w.columns().get(0).int64(1, 1)).hasMessageContaining("repetition level 1 outside 0..0");
    assertThatThrownBy(() -> w.columns().get(1).absent(0, 2)).hasMessageContaining("xs.list.element: definition level 2");
    assertThatThrownBy(() -> new ParquetTableWriter(new ByteArrayOutputStream(), ONE_LIST, Codec.GZIP, 0, "t"))
        .hasMessageContaining("between 1 and 1 GiB");
  }
}

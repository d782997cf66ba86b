package io.sparkrca.fleet.examples;

import io.sparkrca.fleet.internal.ParquetTableWriter.Codec;
import io.sparkrca.fleet.internal.ParquetTableWriter.Logical;
import io.sparkrca.fleet.internal.ParquetTableWriter.Node;
import io.sparkrca.fleet.internal.ParquetTableWriter.Primitive;
import io.sparkrca.fleet.internal.ParquetTableWriter.Repetition;
import io.sparkrca.fleet.internal.ParquetTableWriter;
import io.sparkrca.fleet.internal.ThriftCompactWriter;
import java.io.OutputStream;
import java.util.List;

/** The Javadoc examples of {@code io.sparkrca.fleet.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code ParquetTableWriter}. */
  void parquetTableWriter(OutputStream out) throws Exception {
    try (ParquetTableWriter w = new ParquetTableWriter(out, List.of(
        Node.leaf("path", Repetition.REQUIRED, Primitive.BYTE_ARRAY, Logical.STRING)),
        Codec.GZIP, 8 << 20, "sparkrca")) {
      w.columns().get(0).string(0, "/tmp/spark-events/app-1");
      w.endRecord();
    }
  }

  /** The example of {@code ThriftCompactWriter}. */
  void thriftCompactWriter() throws Exception {
    ThriftCompactWriter t = new ThriftCompactWriter();
    t.i32(1, 1);          // field 1 of the outermost struct
    t.beginStruct(2);     // field 2, a struct
    t.string(1, "name");
    t.endStruct();
    byte[] bytes = t.finish(); // the outermost struct's stop byte added
  }
}

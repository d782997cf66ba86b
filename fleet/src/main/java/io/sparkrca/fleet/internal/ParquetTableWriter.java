package io.sparkrca.fleet.internal;

import io.sparkrca.fleet.internal.ThriftCompactWriter.ElementType;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * A Parquet file written as a stream: the caller shreds each record into leaf {@link Column}s
 * (repetition and definition levels, as the Dremel encoding has it), ends it with {@link
 * #endRecord()}, and the writer emits a row group whenever the buffered columns pass a byte bound,
 * so memory stays bounded by that bound whatever the number of records.
 *
 * <p>Only what a table of fleet rows needs: the primitive types BOOLEAN, INT32, INT64, DOUBLE and
 * BYTE_ARRAY; one data page (v1, PLAIN values, RLE levels) per column per row group; no
 * dictionary, no statistics; GZIP or no compression. Spark, parquet-mr, DuckDB and BigQuery read
 * such files.
 *
 * <pre>{@code
 * try (ParquetTableWriter w = new ParquetTableWriter(out, List.of(
 *     Node.leaf("path", Repetition.REQUIRED, Primitive.BYTE_ARRAY, Logical.STRING)),
 *     Codec.GZIP, 8 << 20, "sparkrca")) {
 *   w.columns().get(0).string(0, "/tmp/spark-events/app-1");
 *   w.endRecord();
 * }
 * }</pre>
 */
public final class ParquetTableWriter implements Closeable {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final int ENCODING_PLAIN = 0;
  private static final int ENCODING_RLE = 3;

  /** Parquet's physical types, with their footer codes. */
  public enum Primitive {
    BOOLEAN(0),
    INT32(1),
    INT64(2),
    DOUBLE(5),
    BYTE_ARRAY(6);

    final int code;

    Primitive(int code) {
      this.code = code;
    }
  }

  /** How often a field occurs in its parent (in the footer's order: REQUIRED is 0). */
  public enum Repetition {
    REQUIRED,
    OPTIONAL,
    REPEATED
  }

  /** The logical types a fleet table uses (written both as logical and as legacy converted types). */
  public enum Logical {
    NONE,
    STRING,
    TIMESTAMP_MICROS,
    LIST
  }

  /** Page compression. */
  public enum Codec {
    UNCOMPRESSED(0),
    GZIP(2);

    final int code;

    Codec(int code) {
      this.code = code;
    }
  }

  /** A field of the schema: a leaf with a primitive type, or a group of fields. */
  public record Node(String name, Repetition repetition, Optional<Primitive> primitive, Logical logical,
      List<Node> children) {
    public Node {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(repetition, "repetition");
      Objects.requireNonNull(primitive, "primitive");
      Objects.requireNonNull(logical, "logical");
      children = List.copyOf(children);
      if (primitive.isPresent() != children.isEmpty()) {
        throw new AssertionError(name + ": a leaf has a primitive type and no children, a group the reverse");
      }
    }

    public static Node leaf(String name, Repetition repetition, Primitive type, Logical logical) {
      return new Node(name, repetition, Optional.of(type), logical, List.of());
    }

    public static Node group(String name, Repetition repetition, Logical logical, Node... children) {
      return new Node(name, repetition, Optional.empty(), logical, List.of(children));
    }
  }

  private final OutputStream out;
  private final List<Node> fields;
  private final Codec codec;
  private final long rowGroupBytes;
  private final String createdBy;
  private final List<Column> columns = new ArrayList<>();
  private final List<byte[]> rowGroups = new ArrayList<>();
  private long position;
  private long records;
  private long groupRecords;
  private boolean closed;

  /**
   * @param out where the file goes (closed by {@link #close()})
   * @param fields the top-level fields
   * @param codec page compression
   * @param rowGroupBytes the buffered bytes past which a row group is written
   * @param createdBy the footer's {@code created_by} ({@code "<app> version <v>"})
   */
  public ParquetTableWriter(OutputStream out, List<Node> fields, Codec codec, long rowGroupBytes, String createdBy)
      throws IOException {
    this.out = Objects.requireNonNull(out, "out");
    this.fields = List.copyOf(fields);
    this.codec = Objects.requireNonNull(codec, "codec");
    if (rowGroupBytes < 1 || rowGroupBytes > (1L << 30)) {
      throw new AssertionError("rowGroupBytes must be between 1 and 1 GiB, not " + rowGroupBytes);
    }
    this.rowGroupBytes = rowGroupBytes;
    this.createdBy = Objects.requireNonNull(createdBy, "createdBy");
    for (Node f : this.fields) {
      addLeaves(f, new ArrayList<>(), 0, 0);
    }
    write(MAGIC);
  }

  private void addLeaves(Node n, List<String> parent, int def, int rep) {
    List<String> path = new ArrayList<>(parent);
    path.add(n.name());
    int d = def + (n.repetition() == Repetition.REQUIRED ? 0 : 1);
    int r = rep + (n.repetition() == Repetition.REPEATED ? 1 : 0);
    if (n.primitive().isPresent()) {
      columns.add(new Column(List.copyOf(path), n.primitive().get(), d, r));
    } else {
      for (Node c : n.children()) {
        addLeaves(c, path, d, r);
      }
    }
  }

  /** The leaf columns, depth first in schema order. */
  public List<Column> columns() {
    return columns;
  }

  /** Ends one record; writes a row group when the buffered columns have passed the bound. */
  public void endRecord() throws IOException {
    ensureOpen();
    records++;
    groupRecords++;
    long buffered = 0;
    for (Column c : columns) {
      buffered += c.bufferedBytes();
    }
    if (buffered >= rowGroupBytes) {
      flushRowGroup();
    }
  }

  /** The records written so far. */
  public long records() {
    return records;
  }

  /** The row groups written so far. */
  public int rowGroups() {
    return rowGroups.size();
  }

  /**
   * Closes the stream without the last row group or the footer: for a file that is given up (it
   * is not a Parquet file, and is to be deleted). Nothing more is written to a stream that failed.
   */
  public void abort() throws IOException {
    if (!closed) {
      closed = true;
      out.close();
    }
  }

  /** Writes the last row group and the footer, and closes the stream. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (out) {
      if (groupRecords > 0) {
        flushRowGroup();
      }
      byte[] footer = footer();
      write(footer);
      write(new byte[] {(byte) footer.length, (byte) (footer.length >>> 8), (byte) (footer.length >>> 16),
          (byte) (footer.length >>> 24)});
      write(MAGIC);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new AssertionError("the Parquet writer is closed");
    }
  }

  private void flushRowGroup() throws IOException {
    ThriftCompactWriter group = new ThriftCompactWriter();
    group.beginList(1, ElementType.STRUCT, columns.size());
    long groupStart = position;
    long uncompressedTotal = 0;
    long compressedTotal = 0;
    for (Column c : columns) {
      byte[] body = c.pageBody();
      byte[] page = codec == Codec.GZIP ? gzip(body) : body;
      ThriftCompactWriter header = new ThriftCompactWriter();
      header.i32(1, 0); // DATA_PAGE
      header.i32(2, body.length);
      header.i32(3, page.length);
      header.beginStruct(5);
      header.i32(1, c.levels);
      header.i32(2, ENCODING_PLAIN);
      header.i32(3, ENCODING_RLE);
      header.i32(4, ENCODING_RLE);
      header.endStruct();
      byte[] headerBytes = header.finish();
      long offset = position;
      write(headerBytes);
      write(page);
      long uncompressed = headerBytes.length + (long) body.length;
      long compressed = headerBytes.length + (long) page.length;
      uncompressedTotal += uncompressed;
      compressedTotal += compressed;

      group.beginStructElement(); // ColumnChunk
      group.i64(2, offset);
      group.beginStruct(3); // ColumnMetaData
      group.i32(1, c.type.code);
      group.beginList(2, ElementType.I32, 2);
      group.i32Element(ENCODING_PLAIN);
      group.i32Element(ENCODING_RLE);
      group.beginList(3, ElementType.BINARY, c.path.size());
      c.path.forEach(group::stringElement);
      group.i32(4, codec.code);
      group.i64(5, c.levels);
      group.i64(6, uncompressed);
      group.i64(7, compressed);
      group.i64(9, offset);
      group.endStruct();
      group.endStruct();
      c.reset();
    }
    group.i64(2, uncompressedTotal);
    group.i64(3, groupRecords);
    group.i64(5, groupStart);
    group.i64(6, compressedTotal);
    if (rowGroups.size() <= Short.MAX_VALUE) {
      group.i16(7, (short) rowGroups.size()); // ordinal, optional: an i16 cannot count past 32,767 groups
    }
    rowGroups.add(group.finish());
    groupRecords = 0;
  }

  private byte[] footer() {
    ThriftCompactWriter meta = new ThriftCompactWriter();
    meta.i32(1, 1); // version
    int elements = 1;
    for (Node f : fields) {
      elements += count(f);
    }
    meta.beginList(2, ElementType.STRUCT, elements);
    meta.beginStructElement();
    meta.string(4, "spark_schema");
    meta.i32(5, fields.size());
    meta.endStruct();
    for (Node f : fields) {
      schemaElements(meta, f);
    }
    meta.i64(3, records);
    meta.beginList(4, ElementType.STRUCT, rowGroups.size());
    rowGroups.forEach(meta::encodedStructElement);
    meta.string(6, createdBy);
    return meta.finish();
  }

  private static int count(Node n) {
    int c = 1;
    for (Node child : n.children()) {
      c += count(child);
    }
    return c;
  }

  private static void schemaElements(ThriftCompactWriter meta, Node n) {
    meta.beginStructElement();
    n.primitive().ifPresent(p -> meta.i32(1, p.code));
    meta.i32(3, n.repetition().ordinal());
    meta.string(4, n.name());
    if (n.primitive().isEmpty()) {
      meta.i32(5, n.children().size());
    }
    switch (n.logical()) {
      case NONE -> { }
      case STRING -> annotation(meta, 0, 1); // converted UTF8, logical STRING
      case LIST -> annotation(meta, 3, 3); // converted LIST, logical LIST
      case TIMESTAMP_MICROS -> {
        meta.i32(6, 10); // TIMESTAMP_MICROS
        meta.beginStruct(10);
        meta.beginStruct(8); // TIMESTAMP
        meta.bool(1, true); // isAdjustedToUTC
        meta.beginStruct(2); // unit
        meta.beginStruct(2); // MICROS
        meta.endStruct();
        meta.endStruct();
        meta.endStruct();
        meta.endStruct();
      }
    }
    meta.endStruct();
    for (Node c : n.children()) {
      schemaElements(meta, c);
    }
  }

  /** A legacy converted type and a logical type without parameters (an empty struct in the LogicalType union). */
  private static void annotation(ThriftCompactWriter meta, int convertedType, int logicalTypeField) {
    meta.i32(6, convertedType);
    meta.beginStruct(10);
    meta.beginStruct(logicalTypeField);
    meta.endStruct();
    meta.endStruct();
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(Math.max(64, body.length / 4));
    try (GZIPOutputStream z = new GZIPOutputStream(b, 8192)) {
      z.write(body);
    }
    return b.toByteArray();
  }

  private void write(byte[] b) throws IOException {
    out.write(b);
    position += b.length;
  }

  /**
   * One leaf column of the current row group. Each call adds one entry: {@code rep} is the
   * repetition level (0 for the first value of a record), and a value call's definition level is
   * the column's maximum; {@link #absent} records a null or empty ancestor at a lower level.
   */
  public static final class Column {
    private final List<String> path;
    private final Primitive type;
    private final int maxDef;
    private final int maxRep;
    private byte[] defs = new byte[64];
    private byte[] reps;
    private int levels;
    private byte[] values = new byte[256];
    private int size;
    private int bits;

    Column(List<String> path, Primitive type, int maxDef, int maxRep) {
      if (maxDef > 127 || maxRep > 127) {
        throw new AssertionError(String.join(".", path) + ": nested too deeply");
      }
      this.path = path;
      this.type = type;
      this.maxDef = maxDef;
      this.maxRep = maxRep;
      this.reps = maxRep > 0 ? new byte[64] : new byte[0];
    }

    /** The column's path in the schema. */
    public List<String> path() {
      return path;
    }

    /** No value here: a null field, or a null or empty ancestor, defined to level {@code def}. */
    public void absent(int rep, int def) {
      if (def >= maxDef) {
        throw new AssertionError(String.join(".", path) + ": definition level " + def
            + " is a value's (the column's maximum is " + maxDef + ")");
      }
      level(rep, def);
    }

    public void int32(int rep, int v) {
      expect(Primitive.INT32);
      level(rep, maxDef);
      room(4);
      putLittleEndian(v, 4);
    }

    public void int64(int rep, long v) {
      expect(Primitive.INT64);
      level(rep, maxDef);
      room(8);
      putLittleEndian(v, 8);
    }

    public void float64(int rep, double v) {
      expect(Primitive.DOUBLE);
      level(rep, maxDef);
      room(8);
      putLittleEndian(Double.doubleToRawLongBits(v), 8);
    }

    /** PLAIN booleans are bit-packed, the first value in the lowest bit. */
    public void bool(int rep, boolean v) {
      expect(Primitive.BOOLEAN);
      level(rep, maxDef);
      if (bits % 8 == 0) {
        room(1);
        values[size++] = 0;
      }
      if (v) {
        values[size - 1] |= (byte) (1 << (bits % 8));
      }
      bits++;
    }

    public void string(int rep, String v) {
      expect(Primitive.BYTE_ARRAY);
      byte[] b = v.getBytes(StandardCharsets.UTF_8);
      level(rep, maxDef);
      room(4 + b.length);
      putLittleEndian(b.length, 4);
      System.arraycopy(b, 0, values, size, b.length);
      size += b.length;
    }

    long bufferedBytes() {
      return size + (long) levels * (maxRep > 0 ? 2 : 1);
    }

    private void expect(Primitive t) {
      if (type != t) {
        throw new AssertionError(String.join(".", path) + " holds " + type + ", not " + t);
      }
    }

    private void level(int rep, int def) {
      if (rep < 0 || rep > maxRep) {
        throw new AssertionError(String.join(".", path) + ": repetition level " + rep
            + " outside 0.." + maxRep);
      }
      if (levels == defs.length) {
        defs = Arrays.copyOf(defs, levels * 2);
        if (maxRep > 0) {
          reps = Arrays.copyOf(reps, levels * 2);
        }
      }
      defs[levels] = (byte) def;
      if (maxRep > 0) {
        reps[levels] = (byte) rep;
      }
      levels++;
    }

    private void room(int n) {
      if (size + n > values.length) {
        values = Arrays.copyOf(values, Math.max(values.length * 2, size + n));
      }
    }

    private void putLittleEndian(long v, int bytes) {
      for (int i = 0; i < bytes; i++) {
        values[size++] = (byte) (v >>> (8 * i));
      }
    }

    /** Repetition levels, definition levels (each length-prefixed RLE, when the column has them), values. */
    byte[] pageBody() {
      ByteArrayOutputStream b = new ByteArrayOutputStream(size + 16);
      if (maxRep > 0) {
        rle(b, reps, levels, maxRep);
      }
      if (maxDef > 0) {
        rle(b, defs, levels, maxDef);
      }
      b.write(values, 0, size);
      return b.toByteArray();
    }

    void reset() {
      levels = 0;
      size = 0;
      bits = 0;
    }

    /**
     * Levels in the RLE/bit-packing hybrid, as RLE runs only (a run header, the varint of the run
     * length shifted left once, then the value in as few bytes as the bit width needs), after a
     * 4-byte little-endian length: what data page v1 stores.
     */
    static void rle(ByteArrayOutputStream b, byte[] levels, int count, int maxLevel) {
      ByteArrayOutputStream runs = new ByteArrayOutputStream(16);
      int width = (32 - Integer.numberOfLeadingZeros(maxLevel) + 7) / 8;
      int i = 0;
      while (i < count) {
        int j = i + 1;
        while (j < count && levels[j] == levels[i]) {
          j++;
        }
        long header = (long) (j - i) << 1;
        while ((header & ~0x7FL) != 0) {
          runs.write((int) ((header & 0x7F) | 0x80));
          header >>>= 7;
        }
        runs.write((int) header);
        for (int k = 0; k < width; k++) {
          runs.write(levels[i] >>> (8 * k));
        }
        i = j;
      }
      int n = runs.size();
      b.write(n);
      b.write(n >>> 8);
      b.write(n >>> 16);
      b.write(n >>> 24);
      b.write(runs.toByteArray(), 0, n);
    }
  }
}

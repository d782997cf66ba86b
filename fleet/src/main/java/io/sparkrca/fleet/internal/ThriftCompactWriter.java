package io.sparkrca.fleet.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes Thrift's compact protocol, the encoding of Parquet's page headers and footer: only what
 * those structures use (i16, i32, i64, bool, binary, lists, nested structs). Fields must be written in
 * the order their ids ascend within each struct, as the generated Thrift code does.
 *
 * <pre>{@code
 * ThriftCompactWriter t = new ThriftCompactWriter();
 * t.i32(1, 1);          // field 1 of the outermost struct
 * t.beginStruct(2);     // field 2, a struct
 * t.string(1, "name");
 * t.endStruct();
 * byte[] bytes = t.finish(); // the outermost struct's stop byte added
 * }</pre>
 */
public final class ThriftCompactWriter {
  static final int BOOLEAN_TRUE = 1;
  static final int BOOLEAN_FALSE = 2;
  static final int I16 = 4;
  static final int I32 = 5;
  static final int I64 = 6;
  static final int BINARY = 8;
  static final int LIST = 9;
  static final int STRUCT = 12;

  /** Element types for {@link #beginList}. */
  public enum ElementType {
    I32(ThriftCompactWriter.I32),
    BINARY(ThriftCompactWriter.BINARY),
    STRUCT(ThriftCompactWriter.STRUCT);

    final int code;

    ElementType(int code) {
      this.code = code;
    }
  }

  private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
  /** The last field id written in each open struct; [0] is the outermost. */
  private int[] lastFieldId = new int[8];
  private int depth;

  public void i16(int fieldId, short value) {
    fieldHeader(I16, fieldId);
    varint(zigzag((int) value));
  }

  public void i32(int fieldId, int value) {
    fieldHeader(I32, fieldId);
    varint(zigzag(value));
  }

  public void i64(int fieldId, long value) {
    fieldHeader(I64, fieldId);
    varint(zigzag(value));
  }

  /** A boolean field: compact protocol keeps its value in the field header. */
  public void bool(int fieldId, boolean value) {
    fieldHeader(value ? BOOLEAN_TRUE : BOOLEAN_FALSE, fieldId);
  }

  public void string(int fieldId, String value) {
    fieldHeader(BINARY, fieldId);
    binary(value);
  }

  /** Opens a struct-valued field; close it with {@link #endStruct()}. */
  public void beginStruct(int fieldId) {
    fieldHeader(STRUCT, fieldId);
    push();
  }

  /** Opens a struct that is an element of a list; close it with {@link #endStruct()}. */
  public void beginStructElement() {
    push();
  }

  public void endStruct() {
    if (depth == 0) {
      throw new AssertionError("no struct is open");
    }
    out.write(0);
    depth--;
  }

  /** A list field's header; then write {@code size} elements of {@code type}. */
  public void beginList(int fieldId, ElementType type, int size) {
    fieldHeader(LIST, fieldId);
    if (size < 15) {
      out.write(size << 4 | type.code);
    } else {
      out.write(0xF0 | type.code);
      varint(size);
    }
  }

  /** A struct element of a list, already encoded (a {@link #finish()} result: its fields and stop byte). */
  public void encodedStructElement(byte[] struct) {
    out.write(struct, 0, struct.length);
  }

  /** An i32 element of a list (an enum value too). */
  public void i32Element(int value) {
    varint(zigzag(value));
  }

  /** A string element of a list. */
  public void stringElement(String value) {
    binary(value);
  }

  /** The encoded outermost struct, its stop byte added. */
  public byte[] finish() {
    if (depth != 0) {
      throw new AssertionError(depth + " struct(s) still open");
    }
    out.write(0);
    return out.toByteArray();
  }

  private void push() {
    if (++depth == lastFieldId.length) {
      lastFieldId = java.util.Arrays.copyOf(lastFieldId, depth * 2);
    }
    lastFieldId[depth] = 0;
  }

  /** A short header (id delta and type in one byte) when the id is at most 15 above the last one. */
  private void fieldHeader(int type, int fieldId) {
    int delta = fieldId - lastFieldId[depth];
    if (delta > 0 && delta <= 15) {
      out.write(delta << 4 | type);
    } else {
      out.write(type);
      varint(zigzag(fieldId));
    }
    lastFieldId[depth] = fieldId;
  }

  private void binary(String value) {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    varint(b.length);
    out.write(b, 0, b.length);
  }

  private static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long zigzag(int v) {
    return ((v << 1) ^ (v >> 31)) & 0xFFFFFFFFL;
  }

  private void varint(long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}

package io.sparkrca.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.fleet.internal.ThriftCompactWriter.ElementType;
import org.junit.jupiter.api.Test;

/** The compact protocol's bytes, worked out by hand from the Thrift specification (doc/specs/thrift-compact-protocol.md). */
class ThriftCompactWriterTest {
  @Test
  void shortFieldHeadersCarryTheIdDeltaAndLongOnesTheZigzagId() {
    ThriftCompactWriter t = new ThriftCompactWriter();
    t.i32(1, 1); // delta 1, type i32 (5); zigzag(1) = 2
    t.string(2, "ab"); // delta 1, binary (8); length 2
    t.i64(20, -1); // delta 18 > 15: type byte, then zigzag(20) = 40; zigzag(-1) = 1
    t.bool(21, true); // the value is the type: true = 1
    t.bool(22, false); // false = 2
    assertThat(t.finish()).containsExactly(0x15, 0x02, 0x18, 0x02, 'a', 'b', 0x06, 0x28, 0x01, 0x11, 0x12, 0x00);
  }

  @Test
  void listsHoldTheirSizeInTheHeaderUpTo14AndAfterItFrom15() {
    ThriftCompactWriter small = new ThriftCompactWriter();
    small.beginList(1, ElementType.I32, 2);
    small.i32Element(1);
    small.i32Element(-2);
    assertThat(small.finish()).containsExactly(0x19, 0x25, 0x02, 0x03, 0x00);

    ThriftCompactWriter big = new ThriftCompactWriter();
    big.beginList(1, ElementType.BINARY, 15);
    for (int i = 0; i < 15; i++) {
      big.stringElement("");
    }
    byte[] b = big.finish();
    assertThat(b[0]).isEqualTo((byte) 0x19);
    assertThat(b[1]).isEqualTo((byte) 0xF8);
    assertThat(b[2]).isEqualTo((byte) 15);
    assertThat(b).hasSize(3 + 15 + 1);
  }

  @Test
  void nestedStructsCountTheirFieldIdsAfreshAndEndWithAStopByte() {
    ThriftCompactWriter t = new ThriftCompactWriter();
    t.i32(4, 7); // delta 4: 0x45, zigzag(7) = 14
    t.beginStruct(5); // delta 1, struct (12): 0x1C
    t.i32(1, 0); // a fresh count: delta 1
    t.endStruct();
    t.i32(300, 1); // back in the outer struct, after 5: long form, zigzag(300) = 600 = 0xD8 0x04
    t.i16(301, (short) -3); // delta 1, type i16 (4); zigzag(-3) = 5
    assertThat(t.finish()).containsExactly(0x45, 0x0E, 0x1C, 0x15, 0x00, 0x00, 0x05, 0xD8, 0x04, 0x02, 0x14, 0x05,
        0x00);
  }

  @Test
  void anUnbalancedStructIsAProgrammingError() {
    ThriftCompactWriter t = new ThriftCompactWriter();
    assertThatThrownBy(t::endStruct).isInstanceOf(AssertionError.class);
    t.beginStruct(1);
    assertThatThrownBy(t::finish).isInstanceOf(AssertionError.class).hasMessageContaining("still open");
  }
}

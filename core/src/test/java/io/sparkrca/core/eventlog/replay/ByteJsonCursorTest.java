package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteJsonCursor}'s scalar reader against Jackson's tokenizer, value by value: what it
 * accepts, Jackson reads as the same kind of token with the same text (and, for an integer, the
 * same value); what Jackson rejects, it declines. The scanner tests cover it inside whole lines.
 */
class ByteJsonCursorTest {
  private static final JsonFactory FACTORY = new JsonFactory();

  private static final List<String> VALUES =
      List.of(
          "0", "-0", "7", "-7", "10", "123456789", "-123456789", "999999999999999999",
          "-999999999999999999", "1000000000000000000", "12345678901234567890", "1.5", "-0.25",
          "1e5", "1E+5", "2e-3", "0.0", "1.0e10", "01", "-", "--1", "1.", ".5", "1e", "1e+", "+1",
          "\"\"", "\"abc\"", "\"a b:c,d{}[]\"", "\"sixteen letters!\"", "\"a\\\"b\"", "\"a\\nb\"",
          "\"tab\there\"", "\"caf\u00e9\"", "\"unterminated", "true", "false", "null", "tru", "nul",
          "fals", "x", "");

  @Test
  void scalarsReadAsJacksonReadsThem() throws IOException {
    for (String v : VALUES) {
      for (String after : List.of("", ",", "}", " ")) {
        check(v, after);
      }
    }
  }

  @Test
  void integersOfEveryLengthReadAsJacksonReadsThem() throws IOException {
    // Every length up to past a long's range, every digit in every place, and what may follow a
    // number (or the line's end) right after it.
    java.util.Random random = new java.util.Random(42);
    List<String> afters =
        List.of("", ",", "}", " ", ":", "/", "]", "x", "\u00ff", ",\"Value\":123456789}", "}]}", ",\n");
    for (int length = 1; length <= 20; length++) {
      for (int k = 0; k < 40; k++) {
        StringBuilder digits = new StringBuilder();
        digits.append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < length; i++) {
          // Now and then a run of one digit value, so that 0 and 9 fill whole words too.
          digits.append((char) ('0' + (k < 10 ? k : random.nextInt(10))));
        }
        for (String after : afters) {
          check(digits.toString(), after);
          check("-" + digits, after);
        }
      }
    }
  }

  private static void check(String value, String after) throws IOException {
    byte[] b = ("[" + value + after).getBytes(StandardCharsets.UTF_8);
    ByteJsonCursor c = new ByteJsonCursor();
    c.reset(b, 1, b.length);
    int kind;
    try {
      kind = c.scalar();
    } catch (ByteJsonCursor.Decline d) {
      return; // declining is always allowed: Jackson then decides
    }
    String what = "'" + value + "' followed by '" + after + "'";
    if (c.p - 1 != value.length()) {
      // Stopped inside the value ("01" reads as 0): what follows must make the caller decline.
      assertThat(c.p - 1).as(what).isLessThan(value.length());
      assertThat(",}] \t\r\n".indexOf(b[c.p])).as(what).isLessThan(0);
      return;
    }
    JsonToken t;
    String text;
    long integer = 0;
    try (JsonParser p = FACTORY.createParser(("[" + value + "]").getBytes(StandardCharsets.UTF_8))) {
      p.nextToken();
      t = p.nextToken();
      text = p.getText();
      if (t == JsonToken.VALUE_NUMBER_INT && kind == ByteJsonCursor.INTEGER) {
        integer = p.getLongValue();
      }
      assertThat(p.nextToken()).as(what).isEqualTo(JsonToken.END_ARRAY);
    }
    switch (kind) {
      case ByteJsonCursor.STRING:
        assertThat(t).as(what).isEqualTo(JsonToken.VALUE_STRING);
        assertThat(new String(b, 2, c.scalarClose - 2, StandardCharsets.ISO_8859_1)).as(what).isEqualTo(text);
        break;
      case ByteJsonCursor.INTEGER:
        assertThat(t).as(what).isEqualTo(JsonToken.VALUE_NUMBER_INT);
        assertThat(c.integer).as(what).isEqualTo(integer);
        assertThat(value.replace("-", "").length()).as(what).isLessThanOrEqualTo(18);
        break;
      case ByteJsonCursor.NUMBER:
        assertThat(t).as(what).isIn(JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT);
        assertThat(new String(b, c.scalarStart, c.p - c.scalarStart, StandardCharsets.ISO_8859_1)).as(what).isEqualTo(text);
        break;
      case ByteJsonCursor.LITERAL:
        assertThat(t).as(what).isIn(JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE, JsonToken.VALUE_NULL);
        break;
      default:
        throw new AssertionError("unknown kind " + kind + " for " + what);
    }
  }

  @Test
  void integerDeclinesWhatIsNotAnInteger() {
    for (String v : List.of("1.5", "1e3", "1234567890123456789", "\"1\"", "true", "null", "-")) {
      byte[] b = (v + ",").getBytes(StandardCharsets.US_ASCII);
      ByteJsonCursor c = new ByteJsonCursor();
      c.reset(b, 0, b.length);
      assertThatThrownBy(c::integer).as(v).isInstanceOf(ByteJsonCursor.Decline.class);
    }
    byte[] b = "-42,".getBytes(StandardCharsets.US_ASCII);
    ByteJsonCursor c = new ByteJsonCursor();
    c.reset(b, 0, b.length);
    assertThat(c.integer()).isEqualTo(-42);
    assertThat(c.p).isEqualTo(3);
  }

  @Test
  void stringAndNumberDeclineOtherKinds() {
    ByteJsonCursor c = new ByteJsonCursor();
    byte[] n = "12,".getBytes(StandardCharsets.US_ASCII);
    c.reset(n, 0, n.length);
    assertThatThrownBy(c::string).isInstanceOf(ByteJsonCursor.Decline.class);
    byte[] s = "\"12\",".getBytes(StandardCharsets.US_ASCII);
    c.reset(s, 0, s.length);
    assertThatThrownBy(c::number).isInstanceOf(ByteJsonCursor.Decline.class);
    c.reset(s, 0, s.length);
    assertThat(c.string()).isEqualTo(3);
    assertThat(c.p).isEqualTo(4);
  }
}

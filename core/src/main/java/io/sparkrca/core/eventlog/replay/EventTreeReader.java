package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads the rarer events (jobs, stages, SQL executions, executors...) into the same Jackson trees
 * that {@link Replayer}'s Jackson path builds, from the line's bytes with {@link ByteJsonCursor}.
 * These events are few but large; reading them with Jackson's tokenizer and tree deserializer
 * makes the JIT compile all of that code (seconds of CPU on a large log) for a few percent of the
 * lines.
 *
 * <p>The tree is Jackson's to the node types: {@code IntNode} for integers that fit an int, {@code
 * LongNode} for the others (up to 18 digits), {@code DoubleNode} for numbers with a fraction or
 * exponent (parsed as Jackson parses them), {@code TextNode} with escapes decoded. Anything else
 * (a key with an escape, a non-ASCII byte, a duplicate key, deep nesting, a longer integer,
 * malformed JSON, trailing bytes) declines: {@link #read} returns null and Jackson reads the line.
 * {@code EventTreeReaderTest} compares both on every line of the test logs and on mutated ones.
 */
final class EventTreeReader {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final AsciiPattern EVENT_KEY = new AsciiPattern("\"Event\":");

  private final ByteJsonCursor c = new ByteJsonCursor();
  private String event;

  /**
   * Reads the line {@code b[from, to)} whose first field is {@code "Event"}: returns the other
   * fields as a tree (what {@code Replayer.restAsTree} returns) and makes the event name {@link
   * #event()}; null when Jackson must read the line.
   */
  ObjectNode read(byte[] b, int from, int to) {
    ByteJsonCursor c = this.c;
    c.reset(b, from, to);
    try {
      c.expect('{');
      if (!c.firstMember()) {
        return null;
      }
      int p = c.p;
      if (!(p + EVENT_KEY.length <= to && EVENT_KEY.at(b, p))) {
        return null;
      }
      c.p = p + EVENT_KEY.length;
      if (c.ws() != '"') {
        return null;
      }
      event = text();
      ObjectNode rest = NODES.objectNode();
      while (c.nextMember()) {
        member(rest, 0);
      }
      return c.atEnd() ? rest : null;
    } catch (ByteJsonCursor.Decline d) {
      return null;
    }
  }

  /** The event name of the last successful {@link #read}. */
  String event() {
    return event;
  }

  /** A key (no escapes), its colon and its value, added to {@code object}. */
  private void member(ObjectNode object, int depth) {
    int open = c.p;
    int close = c.string();
    String key = new String(c.b, open + 1, close - open - 1, java.nio.charset.StandardCharsets.ISO_8859_1);
    c.expect(':');
    if (object.replace(key, value(depth)) != null) {
      throw ByteJsonCursor.DECLINE; // a duplicate key: Jackson keeps the first one's position
    }
  }

  private JsonNode value(int depth) {
    int ch = c.ws();
    switch (ch) {
      case '"':
        return NODES.textNode(text());
      case '{':
        {
          if (depth >= ByteJsonCursor.MAX_DEPTH) {
            throw ByteJsonCursor.DECLINE;
          }
          c.p++;
          ObjectNode o = NODES.objectNode();
          if (c.firstMember()) {
            do {
              member(o, depth + 1);
            } while (c.nextMember());
          }
          return o;
        }
      case '[':
        {
          if (depth >= ByteJsonCursor.MAX_DEPTH) {
            throw ByteJsonCursor.DECLINE;
          }
          c.p++;
          ArrayNode a = NODES.arrayNode();
          if (c.firstElement()) {
            do {
              a.add(value(depth + 1));
            } while (c.nextElement());
          }
          return a;
        }
      case 't':
      case 'f':
        return NODES.booleanNode(c.bool());
      case 'n':
        c.nullValue();
        return NODES.nullNode();
      default:
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
          return number();
        }
        throw ByteJsonCursor.DECLINE;
    }
  }

  /** A string value at the cursor, escapes decoded. */
  private String text() {
    int open = c.p;
    int close = c.escapedString();
    return c.escaped
        ? c.decode(open + 1, close)
        : new String(c.b, open + 1, close - open - 1, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  private JsonNode number() {
    int start = c.number();
    int end = c.p;
    boolean integral = true;
    for (int i = start; i < end; i++) {
      byte x = c.b[i];
      if (x == '.' || x == 'e' || x == 'E') {
        integral = false;
        break;
      }
    }
    if (!integral) {
      return NODES.numberNode(
          Double.parseDouble(new String(c.b, start, end - start, java.nio.charset.StandardCharsets.ISO_8859_1)));
    }
    c.p = start;
    long v = c.integer(); // up to 18 digits, else declined
    return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
  }
}

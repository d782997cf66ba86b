package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.testing.SharedData;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EventTreeReader} against the Jackson path it replaces ({@code Replayer.restAsTree}): on
 * every line of every test log and on mutated variants of the non-task lines, it either declines
 * or yields the same event name and the same tree, to the node types and the field order.
 */
class EventTreeReaderTest {
  private static final JsonFactory FACTORY = Replayer.FACTORY;
  private static final ObjectMapper MAPPER = Replayer.mapper();

  private static final List<byte[]> LINES = new ArrayList<>();
  /** Lines of events other than task events: those the reader is for. */
  private static final List<byte[]> OTHER_LINES = new ArrayList<>();

  @BeforeAll
  static void readLogs() throws IOException {
    List<Path> files = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      Path log = f.eventLog();
      if (Files.isDirectory(log)) {
        try (Stream<Path> s = Files.walk(log)) {
          s.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".crc")).sorted().forEach(files::add);
        }
      } else if (Files.isRegularFile(log)) {
        files.add(log);
      }
    }
    SharedData.dir()
        .map(d -> d.resolve("conformance/spark-shs/spark-events"))
        .filter(Files::isDirectory)
        .ifPresent(
            d -> {
              try (Stream<Path> s = Files.walk(d)) {
                s.filter(Files::isRegularFile).sorted().forEach(files::add);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    for (Path log : files) {
      try (DecodedStream in = DecodedStream.open(ByteSource.of(log), true);
          LineReader lines = new LineReader(in, 64 << 20)) {
        while (lines.next()) {
          byte[] line = Arrays.copyOfRange(lines.buffer(), lines.start(), lines.start() + lines.length());
          LINES.add(line);
          String s = new String(line, StandardCharsets.UTF_8);
          if (!s.contains("\"SparkListenerTaskStart\"") && !s.contains("\"SparkListenerTaskEnd\"")) {
            OTHER_LINES.add(line);
          }
        }
      } catch (IOException | RuntimeException e) {
        // Deliberately broken fixtures (cut compressed streams) still yield their first lines.
      }
    }
    assertThat(OTHER_LINES).hasSizeGreaterThan(500);
  }

  @Test
  void everyLineOfTheTestLogsReadsTheSameOnBothPaths() {
    EventTreeReader reader = new EventTreeReader();
    int read = 0;
    for (byte[] line : LINES) {
      if (check(reader, line)) {
        read++;
      }
    }
    // Most of the other events must really be read here (escapes included).
    assertThat(read).isGreaterThan(OTHER_LINES.size() * 3 / 4);
  }

  @Test
  void mutatedLinesReadTheSameOrAreDeclined() throws IOException {
    SplittableRandom random = new SplittableRandom(11);
    EventTreeReader reader = new EventTreeReader();
    byte[] alphabet = "{}[]:,\"\\ \t0123456789-+.eEtrufalsnu/\u0001x".getBytes(StandardCharsets.ISO_8859_1);
    for (int n = 0; n < 4000; n++) {
      byte[] line = OTHER_LINES.get(random.nextInt(OTHER_LINES.size()));
      JsonNode tree;
      try {
        tree = MAPPER.readTree(line);
      } catch (IOException e) {
        continue;
      }
      if (!(tree instanceof ObjectNode) || !tree.has("Event")) {
        continue;
      }
      // Values changed in place (types, escapes, numbers), re-serialized, sometimes pretty.
      ObjectNode copy = ((ObjectNode) tree).deepCopy();
      mutateValues(copy, random, 0);
      byte[] compact = MAPPER.writeValueAsBytes(copy);
      check(reader, compact);
      check(reader, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(copy));
      // Bytes changed at random.
      for (int i = 0; i < 4; i++) {
        byte[] m = compact.clone();
        int at = random.nextInt(m.length);
        switch (random.nextInt(4)) {
          case 0:
            m[at] = alphabet[random.nextInt(alphabet.length)];
            break;
          case 1:
            m = Arrays.copyOfRange(m, 0, at);
            break;
          case 2:
            byte[] grown = new byte[m.length + 1];
            System.arraycopy(m, 0, grown, 0, at);
            grown[at] = alphabet[random.nextInt(alphabet.length)];
            System.arraycopy(m, at, grown, at + 1, m.length - at);
            m = grown;
            break;
          default:
            m[at] = (byte) (0x80 + random.nextInt(0x80));
        }
        check(reader, m);
      }
    }
  }

  @Test
  void numbersStringsAndDuplicatesAreReadAsJacksonReadsThem() {
    EventTreeReader reader = new EventTreeReader();
    String[] values = {
      "0", "-0", "7", "-7", "2147483647", "2147483648", "-2147483648", "-2147483649",
      "123456789012345678", "1234567890123456789", "1.5", "-0.0", "1e3", "1E-3", "2.5e+10", "1e400",
      "01", "1.", ".5", "-", "+1", "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\\uD83D\\uDE00\\ud800\"",
      "\"\\x\"", "\"\\u12G4\"", "\"tab\there\"", "true", "false", "null", "nul", "[]", "{}", "[1,]", "{\"a\":1,}",
      "[1, 2.0, \"x\", null, [true]]", "{\"a\":{\"b\":[{}]}}", "{\"a\":1,\"a\":2}", "{\"a\\u0062\":1}"
    };
    int read = 0;
    for (String v : values) {
      String line = "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":1,\"v\":" + v + "}";
      if (check(reader, line.getBytes(StandardCharsets.UTF_8))) {
        read++;
      }
    }
    assertThat(read).isGreaterThan(20);
  }

  /**
   * Runs both readers; fails if the reader accepted what Jackson rejects or reads differently.
   * Whether the reader read the line.
   */
  private static boolean check(EventTreeReader reader, byte[] line) {
    ObjectNode ours = reader.read(line, 0, line.length);
    if (ours == null) {
      return false;
    }
    String text = new String(line, StandardCharsets.UTF_8);
    try (JsonParser p = FACTORY.createParser(line)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.currentName()).isEqualTo("Event");
      p.nextToken();
      assertThat(p.getValueAsString()).as(text).isEqualTo(reader.event());
      ObjectNode theirs = Replayer.restAsTree(p);
      assertThat(ours).as(text).isEqualTo(theirs);
      assertThat(MAPPER.writeValueAsString(ours)).as(text).isEqualTo(MAPPER.writeValueAsString(theirs));
      assertSameTypes(ours, theirs, text);
    } catch (IOException e) {
      fail("the reader accepted a line Jackson rejects (" + e + "): " + text);
    }
    return true;
  }

  /** JsonNode.equals already compares node classes; this also checks numbers node by node. */
  private static void assertSameTypes(JsonNode a, JsonNode b, String text) {
    assertThat(a.getClass()).as(text).isEqualTo(b.getClass());
    Iterator<JsonNode> x = a.elements();
    Iterator<JsonNode> y = b.elements();
    while (x.hasNext()) {
      assertSameTypes(x.next(), y.next(), text);
    }
  }

  private static void mutateValues(JsonNode n, SplittableRandom random, int depth) {
    if (n instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (depth == 0 && name.equals("Event")) {
          continue;
        }
        JsonNode v = o.get(name);
        if (v.isContainerNode()) {
          mutateValues(v, random, depth + 1);
          continue;
        }
        if (random.nextInt(6) != 0) {
          continue;
        }
        switch (random.nextInt(8)) {
          case 0:
            o.put(name, v.asText() + "\n\"quoted\"\t\\");
            break;
          case 1:
            o.put(name, random.nextLong());
            break;
          case 2:
            o.put(name, random.nextInt());
            break;
          case 3:
            o.put(name, random.nextDouble() * 1e6);
            break;
          case 4:
            o.putNull(name);
            break;
          case 5:
            o.put(name, random.nextBoolean());
            break;
          case 6:
            o.set(name, JsonNodeFactory.instance.arrayNode().add(v).add(1.25));
            break;
          default:
            o.put(name, "\u0001 control");
        }
      }
    } else if (n.isArray()) {
      for (JsonNode e : n) {
        mutateValues(e, random, depth + 1);
      }
    }
  }
}

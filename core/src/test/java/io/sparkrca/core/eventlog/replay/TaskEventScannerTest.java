package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The byte-level fast path ({@link TaskEventScanner}) against the Jackson path ({@link
 * StreamingEvents}): on every line of every test log and on many mutated variants of the task
 * lines, the fast path either declines, or yields exactly the scratch state Jackson yields (and
 * Jackson accepts the line).
 */
class TaskEventScannerTest {
  private static final JsonFactory FACTORY = Replayer.FACTORY;
  private static final ObjectMapper MAPPER = Replayer.mapper();

  /** Task lines of the test logs, for the mutation tests. */
  private static final List<byte[]> TASK_LINES = new ArrayList<>();
  private static final List<byte[]> ALL_LINES = new ArrayList<>();
  private static final List<byte[]> STAGE_METRICS_LINES = new ArrayList<>();

  @BeforeAll
  static void readLogs() throws IOException {
    for (Path log : logFiles()) {
      try (DecodedStream in = DecodedStream.open(ByteSource.of(log), true);
          LineReader lines = new LineReader(in, 64 << 20)) {
        while (lines.next()) {
          byte[] line = Arrays.copyOfRange(lines.buffer(), lines.start(), lines.start() + lines.length());
          ALL_LINES.add(line);
          String s = new String(line, StandardCharsets.UTF_8);
          if (s.contains("\"SparkListenerTaskStart\"") || s.contains("\"SparkListenerTaskEnd\"")) {
            TASK_LINES.add(line);
          }
          if (s.contains("\"SparkListenerStageExecutorMetrics\"")) {
            STAGE_METRICS_LINES.add(line);
          }
        }
      } catch (IOException | RuntimeException e) {
        // Deliberately broken fixtures (cut compressed streams) still yield their first lines.
      }
    }
    assertThat(TASK_LINES).as("task lines in the test logs").hasSizeGreaterThan(1000);
    // Few test logs have stage executor metrics: make more from the task ends' executor metrics.
    for (int i = 0; i < TASK_LINES.size() && STAGE_METRICS_LINES.size() < 2000; i += 7) {
      JsonNode e = MAPPER.readTree(TASK_LINES.get(i));
      if (e.hasNonNull("Task Executor Metrics") && e.path("Task Info").has("Executor ID")) {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        m.put("Event", "SparkListenerStageExecutorMetrics");
        m.set("Executor ID", e.path("Task Info").get("Executor ID"));
        m.set("Stage ID", e.get("Stage ID"));
        m.set("Stage Attempt ID", e.get("Stage Attempt ID"));
        m.set("Executor Metrics", e.get("Task Executor Metrics"));
        STAGE_METRICS_LINES.add(MAPPER.writeValueAsBytes(m));
      }
    }
    assertThat(STAGE_METRICS_LINES).as("stage executor metrics lines").hasSizeGreaterThan(100);
  }

  private static List<Path> logFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      Path log = f.eventLog();
      if (Files.isDirectory(log)) {
        try (Stream<Path> s = Files.walk(log)) {
          s.filter(Files::isRegularFile)
              .filter(p -> !p.getFileName().toString().endsWith(".crc"))
              .sorted()
              .forEach(files::add);
        }
      } else if (Files.isRegularFile(log)) {
        files.add(log);
      }
    }
    Path conformance = SharedData.dir().map(d -> d.resolve("conformance/spark-shs/spark-events")).orElse(null);
    if (conformance != null && Files.isDirectory(conformance)) {
      try (Stream<Path> s = Files.walk(conformance)) {
        s.filter(Files::isRegularFile).sorted().forEach(files::add);
      }
    }
    return files;
  }

  @Test
  void everyLineOfTheTestLogsReadsTheSameOnBothPaths() throws IOException {
    TaskEventScanner scanner = scanner();
    int handled = 0;
    int metrics = 0;
    List<byte[]> lines = new ArrayList<>(ALL_LINES);
    lines.addAll(STAGE_METRICS_LINES);
    for (byte[] line : lines) {
      int kind = check(scanner, line);
      if (kind == TaskEventScanner.STAGE_EXECUTOR_METRICS) {
        metrics++;
      } else if (kind != TaskEventScanner.NOT_HANDLED) {
        handled++;
      }
    }
    // The fast path must really be taken: nearly all task lines are plain.
    assertThat(handled).as("task lines read by the fast path").isGreaterThan(TASK_LINES.size() * 9 / 10);
    assertThat(metrics).as("stage executor metrics lines read by the fast path")
        .isGreaterThan(STAGE_METRICS_LINES.size() * 9 / 10);
  }

  @Test
  void reorderedFieldsAndWhitespaceReadTheSame() throws IOException {
    SplittableRandom random = new SplittableRandom(1);
    TaskEventScanner scanner = scanner();
    int handled = 0;
    for (byte[] line : sample(random, 3000)) {
      ObjectNode tree = (ObjectNode) MAPPER.readTree(line);
      ObjectNode shuffled = (ObjectNode) shuffle(tree, random, true);
      if (check(scanner, MAPPER.writeValueAsBytes(shuffled)) != TaskEventScanner.NOT_HANDLED) {
        handled++;
      }
      String pretty = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(shuffled);
      check(scanner, pretty.getBytes(StandardCharsets.UTF_8));
      check(scanner, pretty.replace('\n', ' ').replace("  ", "\t").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(handled).isGreaterThan(2000);
  }

  @Test
  void mutatedValuesReadTheSameOrAreDeclined() throws IOException {
    SplittableRandom random = new SplittableRandom(2);
    TaskEventScanner scanner = scanner();
    for (byte[] line : sample(random, 3000)) {
      for (int i = 0; i < 8; i++) {
        ObjectNode tree = (ObjectNode) MAPPER.readTree(line);
        mutateOneValue(tree, random);
        check(scanner, MAPPER.writeValueAsBytes(tree));
      }
    }
  }

  @Test
  void mutatedAccumulablesReadTheSame() throws IOException {
    SplittableRandom random = new SplittableRandom(4);
    TaskEventScanner scanner = scanner();
    int handled = 0;
    int tried = 0;
    for (byte[] line : sample(random, 6000)) {
      ObjectNode tree = (ObjectNode) MAPPER.readTree(line);
      JsonNode accumulables = tree.path("Task Info").path("Accumulables");
      if (!accumulables.isArray() || accumulables.isEmpty()) {
        continue;
      }
      for (JsonNode a : accumulables) {
        ObjectNode acc = (ObjectNode) a;
        for (int m = random.nextInt(4); m > 0; m--) {
          mutateAccumulable(acc, random);
        }
      }
      tried++;
      ObjectNode shuffled = (ObjectNode) shuffle(tree, random, true);
      if (check(scanner, MAPPER.writeValueAsBytes(shuffled)) != TaskEventScanner.NOT_HANDLED) {
        handled++;
      }
    }
    assertThat(tried).isGreaterThan(1000);
    assertThat(handled).isGreaterThan(tried / 2);
  }

  private static void mutateAccumulable(ObjectNode acc, SplittableRandom random) {
    switch (random.nextInt(11)) {
      case 0:
        acc.put("Internal", random.nextBoolean());
        break;
      case 1:
        acc.put("Name", random.nextBoolean() ? "user acc" : "internal.x");
        break;
      case 2:
        acc.remove("Metadata");
        break;
      case 3:
        acc.put("Metadata", random.nextBoolean() ? "sql" : "other");
        break;
      case 4:
        acc.put("Update", Long.toString(random.nextLong()));
        break;
      case 5:
        acc.put("Update", random.nextInt(1000) - 500);
        break;
      case 6:
        acc.putNull(random.nextBoolean() ? "Update" : "Value");
        break;
      case 7:
        acc.set("Value", JsonNodeFactory.instance.arrayNode().add(1).add("b"));
        break;
      case 8:
        acc.remove(random.nextBoolean() ? "Name" : "Internal");
        break;
      case 9:
        acc.put("Update", random.nextBoolean() ? "1.5" : "-");
        break;
      default:
        acc.put("Count Failed Values", random.nextBoolean());
        }
  }

  @Test
  void mutatedFailureReasonsReadTheSameOrAreDeclined() throws IOException {
    List<byte[]> failures = new ArrayList<>();
    for (byte[] line : TASK_LINES) {
      String s = new String(line, StandardCharsets.UTF_8);
      if (s.contains("\"Task End Reason\"") && !s.contains("{\"Reason\":\"Success\"}")) {
        failures.add(line);
      }
    }
    assertThat(failures).as("task ends with a failure reason").hasSizeGreaterThan(20);
    SplittableRandom random = new SplittableRandom(6);
    TaskEventScanner scanner = scanner();
    int handled = 0;
    for (int n = 0; n < 3000; n++) {
      ObjectNode tree = (ObjectNode) MAPPER.readTree(failures.get(random.nextInt(failures.size())));
      if (random.nextInt(4) != 0) {
        ObjectNode reason = (ObjectNode) tree.get("Task End Reason");
        List<ObjectNode> objects = new ArrayList<>();
        collectObjects(reason, objects);
        for (int m = random.nextInt(3); m >= 0; m--) {
          ObjectNode target = objects.get(random.nextInt(objects.size()));
          List<String> names = new ArrayList<>();
          target.fieldNames().forEachRemaining(names::add);
          if (names.isEmpty()) {
            continue;
          }
          String name = names.get(random.nextInt(names.size()));
          switch (random.nextInt(6)) {
            case 0:
              target.putNull(name);
              break;
            case 1:
              target.remove(name);
              break;
            case 2:
              target.put(name, "esc \"q\" \\ \n\t\u0001 end");
              break;
            case 3:
              target.put(name, random.nextInt(100));
              break;
            case 4:
              target.put(name, random.nextBoolean());
              break;
            default:
              target.set(name, JsonNodeFactory.instance.arrayNode());
          }
        }
      }
      if (check(scanner, MAPPER.writeValueAsBytes(tree)) != TaskEventScanner.NOT_HANDLED) {
        handled++;
      }
    }
    assertThat(handled).isGreaterThan(1000);
  }

  @Test
  void mutatedBytesReadTheSameOrAreDeclined() throws IOException {
    SplittableRandom random = new SplittableRandom(3);
    TaskEventScanner scanner = scanner();
    byte[] alphabet = "{}[]:,\"\\ \t0123456789-+.eEtrufalsn\u0001x".getBytes(StandardCharsets.ISO_8859_1);
    for (byte[] line : sample(random, 4000)) {
      for (int i = 0; i < 6; i++) {
        byte[] m = line.clone();
        int at = random.nextInt(m.length);
        switch (random.nextInt(5)) {
          case 0: // delete a byte
            m = concat(Arrays.copyOfRange(m, 0, at), Arrays.copyOfRange(m, at + 1, m.length));
            break;
          case 1: // insert a byte
            m = concat(Arrays.copyOfRange(m, 0, at), new byte[] {alphabet[random.nextInt(alphabet.length)]},
                Arrays.copyOfRange(m, at, m.length));
            break;
          case 2: // replace a byte
            m[at] = alphabet[random.nextInt(alphabet.length)];
            break;
          case 3: // cut the line
            m = Arrays.copyOfRange(m, 0, at);
            break;
          default: // a non-ASCII byte
            m[at] = (byte) (0x80 + random.nextInt(0x80));
        }
        check(scanner, m);
      }
    }
  }

  @Test
  void escapesDuplicatesNullsAndMissingFieldsAreHandledOrDeclined() throws IOException {
    TaskEventScanner scanner = scanner();
    String start =
        "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":1,\"Stage Attempt ID\":0,\"Task Info\":"
            + "{\"Task ID\":7,\"Index\":3,\"Attempt\":0,\"Launch Time\":1000,\"Executor ID\":\"1\","
            + "\"Host\":\"h\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,"
            + "\"Getting Result Time\":0,\"Finish Time\":0,\"Failed\":false,\"Killed\":false,"
            + "\"Accumulables\":[]}}";
    assertThat(check(scanner, bytes(start))).isEqualTo(TaskEventScanner.TASK_START);
    // Escapes anywhere: declined.
    assertThat(check(scanner, bytes(start.replace("\"Host\":\"h\"", "\"Host\":\"\\u0068\""))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    assertThat(check(scanner, bytes(start.replace("\"Index\"", "\"Ind\\u0065x\""))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    // A duplicate key: declined (Jackson applies both).
    assertThat(check(scanner, bytes(start.replace("\"Index\":3,", "\"Index\":3,\"Index\":4,"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    // Nulls where Spark allows them: read.
    assertThat(check(scanner, bytes(start.replace("\"Attempt\":0", "\"Attempt\":null")
        .replace("\"Speculative\":false", "\"Speculative\":null").replace("\"Host\":\"h\"", "\"Host\":null"))))
        .isEqualTo(TaskEventScanner.TASK_START);
    // Nulls where a number is required: declined (Jackson reports the bad line).
    assertThat(check(scanner, bytes(start.replace("\"Launch Time\":1000", "\"Launch Time\":null"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    // A fraction where an integer is read: declined (Jackson casts it).
    assertThat(check(scanner, bytes(start.replace("\"Index\":3", "\"Index\":3.5"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    // Missing fields: the required ones decline, the others keep their defaults.
    assertThat(check(scanner, bytes(start.replace("\"Task ID\":7,", ""))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    assertThat(check(scanner, bytes(start.replace("\"Locality\":\"PROCESS_LOCAL\",", ""))))
        .isEqualTo(TaskEventScanner.TASK_START);
    // Trailing bytes after the object: declined (Jackson ignores them).
    assertThat(check(scanner, bytes(start + " x"))).isEqualTo(TaskEventScanner.NOT_HANDLED);
    assertThat(check(scanner, bytes(start + "  "))).isEqualTo(TaskEventScanner.TASK_START);
    // "Event" not first: Jackson's tree path.
    assertThat(check(scanner, bytes(start.replace("{\"Event\":\"SparkListenerTaskStart\",", "{")
        .replace("}}", "},\"Event\":\"SparkListenerTaskStart\"}"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);

    String end =
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\","
            + "\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":7,\"Index\":3,"
            + "\"Attempt\":0,\"Launch Time\":1000,\"Executor ID\":\"1\",\"Host\":\"h\",\"Locality\":\"ANY\","
            + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":2000,\"Failed\":false,"
            + "\"Killed\":false,\"Accumulables\":[{\"ID\":1,\"Name\":\"internal.metrics.jvmGCTime\","
            + "\"Update\":5,\"Value\":5,\"Internal\":true,\"Count Failed Values\":true},{\"ID\":2,"
            + "\"Name\":\"number of output rows\",\"Update\":\"12\",\"Value\":\"30\",\"Internal\":true,"
            + "\"Count Failed Values\":true,\"Metadata\":\"sql\"},{\"ID\":3,\"Name\":\"my counter\","
            + "\"Update\":4,\"Value\":9,\"Internal\":false,\"Count Failed Values\":false},{\"ID\":4,"
            + "\"Update\":[1,2],\"Value\":{\"a\":true}},{\"ID\":5,\"Name\":null,\"Update\":\"x\","
            + "\"Value\":null},{\"Update\":-12,\"ID\":6,\"Value\":1.5e3,\"Name\":\"late\"}]},"
            + "\"Task Executor Metrics\":{\"JVMHeapMemory\":100,\"Unknown\":[1],\"MajorGCTime\":3},"
            + "\"Task Metrics\":{\"Executor Deserialize Time\":1,\"Executor Deserialize CPU Time\":null,"
            + "\"Executor Run Time\":5,\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":1,"
            + "\"Local Blocks Fetched\":2,\"Fetch Wait Time\":3,\"Remote Bytes Read\":4,"
            + "\"Shuffle Push Read Metrics\":{\"Merged Fallback Count\":2}},\"Shuffle Write Metrics\":null,"
            + "\"Input Metrics\":{\"Bytes Read\":10,\"Records Read\":null},\"Output Metrics\":{\"Bytes Written\":7,"
            + "\"Records Written\":8},\"Updated Blocks\":[{\"Block ID\":\"rdd_1_1\"}]}}";
    assertThat(check(scanner, bytes(end))).isEqualTo(TaskEventScanner.TASK_END);
    scanner.scan(bytes(end), 0, bytes(end).length, PARSED);
    assertThat(END.info.sqlAccumCount).isEqualTo(3); // 12, 4 and -12; "x" and "" are not numbers
    assertThat(END.info.userAccumulables).hasSize(4);
    // Failure reasons with details, escapes in their texts.
    assertThat(check(scanner, bytes(end.replace("{\"Reason\":\"Success\"}",
        "{\"Reason\":\"TaskKilled\",\"Kill Reason\":\"stage \\\"x\\\" cancelled\\n\",\"Accumulator Updates\":[{\"ID\":1}]}"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(END.reason.killReason).isEqualTo("stage \"x\" cancelled\n");
    assertThat(check(scanner, bytes(end.replace("{\"Reason\":\"Success\"}",
        "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.X\",\"Description\":null,"
            + "\"Stack Trace\":[{\"Declaring Class\":\"a.B\",\"Method Name\":\"m\",\"File Name\":null,"
            + "\"Line Number\":-2},{}],\"Full Stack Trace\":\"x\\tat y\"}"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(END.reason.stackTrace).hasSize(2);
    for (String reason : List.of(
        "{\"Reason\":\"FetchFailed\",\"Block Manager Address\":{\"Executor ID\":\"1\",\"Host\":\"h\",\"Port\":7},"
            + "\"Shuffle ID\":1,\"Map ID\":12345678901,\"Map Index\":3,\"Reduce ID\":4,\"Message\":\"m\"}",
        "{\"Reason\":\"FetchFailed\",\"Block Manager Address\":null,\"Map Index\":null}",
        "{\"Reason\":\"ExecutorLostFailure\",\"Executor ID\":\"7\",\"Exit Caused By App\":false,\"Loss Reason\":\"l\"}",
        "{\"Reason\":\"TaskCommitDenied\",\"Job ID\":1,\"Partition ID\":2,\"Attempt Number\":3}",
        "{\"Reason\":\"ExceptionFailure\",\"Stack Trace\":\"not a list\"}")) {
      assertThat(check(scanner, bytes(end.replace("{\"Reason\":\"Success\"}", reason)))).as(reason)
          .isEqualTo(TaskEventScanner.TASK_END);
    }
    // What the Jackson path reads differently or rejects: declined.
    for (String reason : List.of(
        "{\"Reason\":\"FetchFailed\",\"Block Manager Address\":{\"Executor ID\":null}}",
        "{\"Reason\":\"FetchFailed\",\"Block Manager Address\":5}",
        "{\"Reason\":\"ExceptionFailure\",\"Stack Trace\":[\"a\"]}",
        "{\"Reason\":\"ExceptionFailure\",\"Stack Trace\":[{\"Line Number\":null}]}",
        "{\"Reason\":\"ExceptionFailure\",\"Full Stack Trace\":5}",
        "{\"Reason\":\"TaskKilled\",\"Kill Reason\":\"\\u00e9\",\"Kill Reason\":\"x\"}")) {
      assertThat(check(scanner, bytes(end.replace("{\"Reason\":\"Success\"}", reason)))).as(reason)
          .isEqualTo(TaskEventScanner.NOT_HANDLED);
    }
    assertThat(check(scanner, bytes(end.replace("{\"Reason\":\"Success\"}", "{\"Reason\":\"Resubmitted\"}"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(check(scanner, bytes(end.replace("\"Task Info\":{", "\"Task Info\":null,\"X\":{"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(check(scanner, bytes(end.replace("\"Task Metrics\":{", "\"Task Metrics\":null,\"X\":{"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    // Numbers out of range or too long for the fast path.
    assertThat(check(scanner, bytes(end.replace("\"Launch Time\":1000", "\"Launch Time\":99999999999999999999"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
    assertThat(check(scanner, bytes(end.replace("\"Update\":4,", "\"Update\":9223372036854775807,"))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(check(scanner, bytes(end.replace("\"Update\":4,", "\"Update\":\"99999999999999999999\","))))
        .isEqualTo(TaskEventScanner.TASK_END);
    assertThat(check(scanner, bytes(end.replace("\"Update\":4,", "\"Update\":01,"))))
        .isEqualTo(TaskEventScanner.NOT_HANDLED);
  }

  @Test
  void stageExecutorMetricsAreReadAsTheTreePathReadsThem() {
    TaskEventScanner scanner = scanner();
    String line =
        "{\"Event\":\"SparkListenerStageExecutorMetrics\",\"Executor ID\":\"3\",\"Stage ID\":4,"
            + "\"Stage Attempt ID\":1,\"Executor Metrics\":{\"JVMHeapMemory\":10,\"Custom\":\"x\","
            + "\"MajorGCTime\":null,\"MinorGCCount\":7}}";
    assertThat(check(scanner, bytes(line))).isEqualTo(TaskEventScanner.STAGE_EXECUTOR_METRICS);
    assertThat(STAGE_METRICS.metrics[0]).isEqualTo(10);
    assertThat(check(scanner, bytes(line.replace("\"Executor Metrics\":{", "\"Executor Metrics\":null,\"x\":{"))))
        .isEqualTo(TaskEventScanner.STAGE_EXECUTOR_METRICS);
    // What the tree path must decide: a null or missing executor, a missing stage, a fraction, a time.
    for (String variant : List.of(
        line.replace("\"Executor ID\":\"3\"", "\"Executor ID\":null"),
        line.replace("\"Executor ID\":\"3\",", ""),
        line.replace("\"Stage ID\":4,", ""),
        line.replace("\"JVMHeapMemory\":10", "\"JVMHeapMemory\":10.5"),
        line.replace("\"Stage ID\":4", "\"Stage ID\":4,\"Timestamp\":5"),
        line.replace("\"Stage ID\":4", "\"Stage ID\":4,\"Stage Info\":{}"),
        line.replace("\"Executor Metrics\":{", "\"Executor Metrics\":[{").replace("}}", "}]}"),
        line.replace("{\"Event\":\"SparkListenerStageExecutorMetrics\",", "{\"Event\":\"x.SparkListenerStageExecutorMetrics\","))) {
      assertThat(check(scanner, bytes(variant))).as(variant).isEqualTo(TaskEventScanner.NOT_HANDLED);
    }
  }

  // ------------------------------------------------------------------ the comparison

  /**
   * Runs both paths on {@code line}; fails if the fast path accepted what Jackson rejects or reads
   * differently. Returns what the fast path answered.
   */
  private static int check(TaskEventScanner scanner, byte[] line) {
    int kind = scanner.scan(line, 0, line.length, PARSED);
    if (kind == TaskEventScanner.NOT_HANDLED) {
      return kind;
    }
    checkRecord(kind);
    TaskStartEvent slowStart = new TaskStartEvent();
    TaskEndEvent slowEnd = new TaskEndEvent();
    String text = new String(line, StandardCharsets.UTF_8);
    if (kind == TaskEventScanner.STAGE_EXECUTOR_METRICS) {
      checkStageMetrics(scanner, text);
      return kind;
    }
    try (JsonParser p = FACTORY.createParser(line)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.currentName()).isEqualTo("Event");
      p.nextToken();
      String event = p.getValueAsString();
      if (kind == TaskEventScanner.TASK_START) {
        assertThat(event).isEqualTo("SparkListenerTaskStart");
        StreamingEvents.parseTaskStart(p, slowStart);
        assertThat(describe(START)).as(text).isEqualTo(describe(slowStart));
      } else {
        assertThat(event).isEqualTo("SparkListenerTaskEnd");
        StreamingEvents.parseTaskEnd(p, slowEnd);
        assertThat(describe(END)).as(text).isEqualTo(describe(slowEnd));
      }
    } catch (IOException | BadEventException e) {
      fail("the fast path accepted a line Jackson rejects (" + e + "): " + text);
    }
    return kind;
  }

  private static final EventRecords.Strings STRINGS = new EventRecords.Strings();

  /** The event as a record and back (what the reading thread hands over) is the same event. */
  private static void checkRecord(int kind) {
    long[] record = new long[EventRecords.maxLength(PARSED)];
    int end = EventRecords.encode(kind, PARSED, STRINGS, record, 0);
    if (end < 0) {
      boolean userAccumulators =
          !(kind == TaskEventScanner.TASK_END ? PARSED.taskEnd.info : PARSED.taskStart.info)
              .userAccumulables.isEmpty();
      assertThat(userAccumulators || (kind == TaskEventScanner.TASK_END && PARSED.taskEnd.reason.hasDetails()))
          .as("only events with user accumulators or failure details are not recorded")
          .isTrue();
      return;
    }
    ParsedEvent back = new ParsedEvent();
    EventRecords.decode(kind, Arrays.copyOf(record, end), 0, STRINGS, back);
    switch (kind) {
      case TaskEventScanner.TASK_START:
        assertThat(describe(back.taskStart)).isEqualTo(describe(PARSED.taskStart));
        break;
      case TaskEventScanner.TASK_END:
        assertThat(describe(back.taskEnd)).isEqualTo(describe(PARSED.taskEnd));
        break;
      default:
        assertThat(back.stageMetrics.executorId + " " + back.stageMetrics.stageId + "."
                + back.stageMetrics.stageAttemptId + " " + Arrays.toString(back.stageMetrics.metrics))
            .isEqualTo(PARSED.stageMetrics.executorId + " " + PARSED.stageMetrics.stageId + "."
                + PARSED.stageMetrics.stageAttemptId + " " + Arrays.toString(PARSED.stageMetrics.metrics));
    }
  }

  /** As the Jackson path reads the event: the tree, ReplayState's reads and Replayer.seeTimes. */
  private static void checkStageMetrics(TaskEventScanner scanner, String text) {
    try {
      JsonNode e = MAPPER.readTree(text);
      assertThat(e.get("Event").textValue()).isEqualTo("SparkListenerStageExecutorMetrics");
      String executorId = Json.requiredString(e, "Executor ID");
      long[] sample = ExecutorMetricsJson.parse(e.get("Executor Metrics"));
      int stageId = Json.requiredInt(e, "Stage ID");
      int attemptId = Json.requiredInt(e, "Stage Attempt ID");
      for (String time : List.of("Timestamp", "Submission Time", "Completion Time", "time")) {
        assertThat(e.has(time) && e.get(time).isIntegralNumber()).as(text).isFalse();
      }
      assertThat(e.has("Stage Info")).as(text).isFalse();
      assertThat(STAGE_METRICS.executorId + " " + STAGE_METRICS.stageId + "." + STAGE_METRICS.stageAttemptId
              + " " + Arrays.toString(STAGE_METRICS.metrics))
          .as(text)
          .isEqualTo(executorId + " " + stageId + "." + attemptId + " " + Arrays.toString(sample));
    } catch (IOException | BadEventException e) {
      fail("the fast path accepted a line Jackson rejects (" + e + "): " + text);
    }
  }

  private static final ParsedEvent PARSED = new ParsedEvent();
  private static final TaskStartEvent START = PARSED.taskStart;
  private static final TaskEndEvent END = PARSED.taskEnd;
  private static final StageExecutorMetricsEvent STAGE_METRICS = PARSED.stageMetrics;

  private static TaskEventScanner scanner() {
    return new TaskEventScanner();
  }

  private static String describe(TaskStartEvent e) {
    return "stage=" + e.stageId + "." + e.stageAttemptId + " " + describe(e.info);
  }

  private static String describe(TaskEndEvent e) {
    TaskEndReason r = e.reason;
    return "stage=" + e.stageId + "." + e.stageAttemptId + " infoMissing=" + e.infoMissing + " "
        + describe(e.info) + " metrics=" + Arrays.toString(e.metrics) + " executorMetrics="
        + Arrays.toString(e.executorMetrics) + " reason=" + Arrays.asList(
            r.reason, r.className, r.description, r.stackTrace, r.stackTracePresent, r.fullStackTrace,
            r.hasBlockManager, r.bmExecutorId, r.bmHost, r.bmPort, r.shuffleId, r.mapId, r.mapIndex,
            r.reduceId, r.message, r.killReason, r.commitJobId, r.commitPartitionId,
            r.commitAttemptNumber, r.exitCausedByApp, r.lostExecutorId, r.lossReason);
  }

  private static String describe(TaskInfoScratch i) {
    return "info=" + Arrays.asList(
            i.taskId, i.index, i.attempt, i.partitionId, i.launchTime, i.executorId, i.host,
            i.locality, i.speculative, i.gettingResultTime, i.finishTime, i.failed, i.killed)
        + " user=" + i.userAccumulables
        + " sqlIds=" + Arrays.toString(Arrays.copyOf(i.sqlAccumIds, i.sqlAccumCount))
        + " sqlUpdates=" + Arrays.toString(Arrays.copyOf(i.sqlAccumUpdates, i.sqlAccumCount));
  }

  // ------------------------------------------------------------------ mutations

  /** Random task lines, and one stage executor metrics line in ten. */
  private static List<byte[]> sample(SplittableRandom random, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<byte[]> from = random.nextInt(10) == 0 ? STAGE_METRICS_LINES : TASK_LINES;
      out.add(from.get(random.nextInt(from.size())));
    }
    return out;
  }

  /** The tree with the fields of every object in random order ("Event" kept first at the top). */
  private static JsonNode shuffle(JsonNode n, SplittableRandom random, boolean top) {
    if (n.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      n.fields().forEachRemaining(fields::add);
      for (int i = fields.size() - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        Map.Entry<String, JsonNode> t = fields.get(i);
        fields.set(i, fields.get(j));
        fields.set(j, t);
      }
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      if (top && n.has("Event")) {
        o.set("Event", n.get("Event"));
      }
      for (Map.Entry<String, JsonNode> f : fields) {
        if (!(top && f.getKey().equals("Event"))) {
          o.set(f.getKey(), shuffle(f.getValue(), random, false));
        }
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      n.forEach(x -> a.add(shuffle(x, random, false)));
      return a;
    }
    return n;
  }

  /** Changes one random value of the tree (not "Event"): null, removed, retyped, escaped, doubled. */
  private static void mutateOneValue(ObjectNode top, SplittableRandom random) {
    List<ObjectNode> parents = new ArrayList<>();
    collectObjects(top, parents);
    ObjectNode parent = parents.get(random.nextInt(parents.size()));
    List<String> names = new ArrayList<>();
    parent.fieldNames().forEachRemaining(names::add);
    names.remove("Event");
    if (names.isEmpty()) {
      return;
    }
    String name = names.get(random.nextInt(names.size()));
    JsonNode v = parent.get(name);
    switch (random.nextInt(10)) {
      case 0:
        parent.putNull(name);
        break;
      case 1:
        parent.remove(name);
        break;
      case 2:
        parent.put(name, v.asText());
        break;
      case 3:
        parent.put(name, v.isNumber() ? v.asDouble() + 0.5 : 1.0);
        break;
      case 4:
        parent.put(name, random.nextBoolean());
        break;
      case 5:
        parent.put(name, random.nextLong());
        break;
      case 6:
        parent.set(name, JsonNodeFactory.instance.arrayNode().add(v));
        break;
      case 7:
        parent.put(name, "tab\there \"quoted\" é");
        break;
      case 8:
        parent.set(name, JsonNodeFactory.instance.objectNode().set("x", v));
        break;
      default:
        parent.put(name, v.isNumber() ? v.asLong() * 1000003 : -1);
    }
  }

  private static void collectObjects(JsonNode n, List<ObjectNode> out) {
    if (n.isObject()) {
      out.add((ObjectNode) n);
    }
    for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
      collectObjects(it.next(), out);
    }
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

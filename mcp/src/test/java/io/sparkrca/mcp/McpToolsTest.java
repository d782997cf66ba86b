package io.sparkrca.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.sparkrca.analysis.compare.CompareRequest;
import io.sparkrca.analysis.compare.CompareRunner;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.core.testkit.TestkitFixtures.Fixture;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as an agent sees it: the MCP SDK's own client talks to the real server, started as a
 * child JVM over stdio (one server for the whole class, see {@link McpSession}), lists the tools,
 * calls each on the testkit's real fixtures and checks the results against the library and the
 * labels, and sends malformed calls that must come back as tool errors while the server keeps
 * serving. The client checks every result against the tool's output schema. (cli's McpCommandTest
 * checks that {@code sparkrca mcp} starts this server.)
 */
class McpToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static McpSyncClient client;

  @TempDir static Path tmp;

  @BeforeAll
  static void startServer() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    client = McpSession.start();
  }

  @AfterAll
  static void stopServer() {
    if (client != null) {
      client.closeGracefully();
    }
  }

  @Test
  void listsEveryEntryPointAsAToolWithTypedSchemas() {
    List<McpSchema.Tool> tools = client.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactly(
        "rca", "compare", "summarize", "rules", "logs_info", "logs_head", "logs_tail", "logs_range", "logs_search", "logs_count",
        "shs_applications", "shs_profile", "dataproc_describe", "dataproc_view", "k8s_pods", "k8s_events", "k8s_logs", "inspect");
    for (McpSchema.Tool t : tools) {
      assertThat(t.description()).as(t.name()).hasSizeGreaterThan(40);
      assertThat(t.inputSchema()).as(t.name()).containsEntry("type", "object").containsEntry("additionalProperties", false);
      assertThat(t.outputSchema()).as(t.name()).containsEntry("type", "object");
    }
    JsonNode head = tree(byName(tools, "logs_head").inputSchema());
    assertThat(head.path("required")).extracting(JsonNode::asText).containsExactly("uri");
    assertThat(head.at("/properties/lines/type").asText()).isEqualTo("integer");
    assertThat(head.at("/properties/lines/maximum").asInt()).isEqualTo(LogStream.MAX_LINES);
    assertThat(tree(byName(tools, "summarize").inputSchema()).path("required")).extracting(JsonNode::asText).containsExactly("eventLog");
    assertThat(tree(byName(tools, "rca").inputSchema()).at("/properties/driverLogs/type").asText()).isEqualTo("array");
    // rca's result schema is the published report schema, the one RcaReport.toJson() follows.
    assertThat(tree(byName(tools, "rca").outputSchema())).isEqualTo(RcaSchema.tree());
  }

  @Test
  void rcaNamesTheLabelledRootCauseOfFailedApplications() {
    Fixture oom = TestkitFixtures.get("3.5.9", "executor-oom");
    JsonNode report = ok(call("rca", withLogs(oom)));
    assertThat(report.at("/rootCause/kind").asText()).isEqualTo(oom.rootCause().name());
    assertThat(RcaSchema.errors(report.toString())).isEmpty();

    Fixture other = TestkitFixtures.get("4.0.4", "task-not-serializable");
    JsonNode second = ok(call("rca", withLogs(other)));
    assertThat(second.at("/rootCause/kind").asText()).isEqualTo(other.rootCause().name());
    assertThat(second.at("/application/id").asText()).isEqualTo(other.label().at("/application/id").asText());
  }

  @Test
  void rcaReadsATeamsOwnFailureFamiliesFromSignatureFiles(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("driver.log");
    Files.writeString(log, "26/12/07 21:04:40 ERROR Main: the nightly load failed\n"
        + "com.example.warehouse.WarehouseSlotsExhausted: no free slots in reservation etl-prod\n");
    Path mine = dir.resolve("our-failures.json");
    Files.writeString(mine, "{\"schemaVersion\": 1, \"families\": [{\"id\": \"warehouse-slots-exhausted\", "
        + "\"kind\": \"CLOUD_QUOTA_EXCEEDED\", \"title\": \"The warehouse had no free slots\", "
        + "\"meaning\": \"The reservation had no free query slots.\", \"check\": [], \"fix\": {\"action\": "
        + "\"Raise the reservation.\", \"rationale\": \"Slots bound queries.\", \"properties\": []}, "
        + "\"wordings\": [{\"regex\": \"WarehouseSlotsExhausted\", \"decisive\": true}]}]}");
    JsonNode report = ok(call("rca", Map.of("driverLogs", List.of(log.toString()), "signatures", List.of(mine.toString()))));
    assertThat(report.at("/rootCause/kind").asText()).isEqualTo("CLOUD_QUOTA_EXCEEDED");
    assertThat(report.at("/rootCause/confidence").asText()).isEqualTo("CONFIRMED");
  }

  @Test
  void summarizeTellsAFailedApplicationFromAHealthyOne() {
    Fixture failed = TestkitFixtures.get("3.5.9", "executor-oom");
    JsonNode s = ok(call("summarize", Map.of("eventLog", failed.eventLog().toString())));
    assertThat(s.path("logsFound").asInt()).isEqualTo(1);
    assertThat(s.at("/summaries/0/applicationId").asText()).isEqualTo(failed.label().at("/application/id").asText());
    assertThat(s.at("/summaries/0/outcome").asText()).isEqualTo("FAILED");

    Fixture healthy = TestkitFixtures.get("3.5.9", "healthy");
    JsonNode h = ok(call("summarize", Map.of("eventLog", healthy.eventLog().toString())));
    assertThat(h.at("/summaries/0/outcome").asText()).isNotEqualTo("FAILED");
  }

  @Test
  void rulesEvaluateTheRecommendedCatalogAndGivenRules() throws IOException {
    Fixture failed = TestkitFixtures.get("3.5.9", "executor-oom");
    Fixture healthy = TestkitFixtures.get("3.5.9", "healthy");
    JsonNode recommended = ok(call("rules", Map.of("eventLog", failed.eventLog().toString(), "recommended", true)));
    assertThat(recommended.path("status").asText()).isEqualTo("FAIL");
    assertThat(recommended.path("violations")).isNotEmpty();

    Map<String, Object> rule = Map.of("ruleId", "ANY_FAILED_TASK", "description", "A task failed", "expression", "s.num_failed_tasks > 0");
    JsonNode inline = ok(call("rules", Map.of("eventLog", failed.eventLog().toString(), "rules", List.of(rule))));
    assertThat(inline.path("status").asText()).isEqualTo("FAIL");
    assertThat(inline.at("/violations/0/ruleId").asText()).isEqualTo("ANY_FAILED_TASK");

    Path file = tmp.resolve("rules.json");
    Files.writeString(file, JSON.writeValueAsString(List.of(rule)));
    JsonNode fromFile = ok(call("rules", Map.of("eventLog", healthy.eventLog().toString(), "ruleFiles", List.of(file.toString()))));
    assertThat(fromFile.path("status").asText()).isEqualTo("PASS");
  }

  @Test
  void logToolsAnswerWhatTheLibraryReads() throws IOException {
    Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    String log = f.driverLog().toString();
    JsonNode info = ok(call("logs_info", Map.of("uri", log)));
    assertThat(info.path("size").asLong()).isEqualTo(Files.size(f.driverLog()));
    assertThat(info.path("compressed").asBoolean()).isFalse();

    assertThat(texts(ok(call("logs_head", Map.of("uri", log, "lines", 3))).path("lines")))
        .isEqualTo(LogStream.open(log).head(3).lines().stream().map(LogLine::text).toList());
    assertThat(texts(ok(call("logs_tail", Map.of("uri", log, "lines", 4))).path("lines")))
        .isEqualTo(LogStream.open(log).tail(4).lines().stream().map(LogLine::text).toList());
    JsonNode range = ok(call("logs_range", Map.of("uri", log, "start", 10, "end", 12)));
    assertThat(range.path("lines")).extracting(l -> l.path("line").asLong()).containsExactly(10L, 11L, 12L);
    assertThat(texts(range.path("lines"))).isEqualTo(LogStream.open(log).range(10, 12).lines().stream().map(LogLine::text).toList());

    JsonNode search = ok(call("logs_search", Map.of("uris", List.of(log), "literal", "OutOfMemoryError", "before", 0, "after", 1)));
    int expected = LogStream.open(log).search(SearchQuery.literal("OutOfMemoryError").withContext(0, 1)).matches().size();
    assertThat(expected).isPositive();
    assertThat(search.path("totalMatches").asInt()).isEqualTo(expected);
    assertThat(search.at("/logs/0/matches/0/text").asText()).contains("OutOfMemoryError");
    assertThat(search.at("/logs/0/matches/0/after")).hasSize(1);

    Path executors = f.dir().resolve("executor-logs");
    JsonNode count = ok(call("logs_count", Map.of("uris", List.of(log, executors.toString()), "regex", "ERROR|WARN")));
    long lines = LogStream.open(log).count().lines();
    long matching = LogStream.open(log).count(SearchQuery.regex("ERROR|WARN")).matchingLines();
    try (var files = Files.list(executors)) {
      for (Path p : files.toList()) {
        lines += LogStream.open(p.toString()).count().lines();
        matching += LogStream.open(p.toString()).count(SearchQuery.regex("ERROR|WARN")).matchingLines();
      }
    }
    assertThat(count.path("lines").asLong()).isEqualTo(lines);
    assertThat(count.path("matchingLines").asLong()).isEqualTo(matching);
    assertThat(count.path("errors")).isEmpty();
  }

  @Test
  void compareNamesTheSameVerdictAsTheLibrary() {
    String slow = TestkitFixtures.get("3.5.9", "config-regression").eventLog().toString();
    String healthy = TestkitFixtures.get("3.5.9", "healthy").eventLog().toString();
    JsonNode viaMcp = ok(call("compare", Map.of("candidate", slow, "baseline", healthy)));
    // The runner sparkrca compare runs, with the defaults the tool's arguments leave.
    String library = CompareRunner.builder().build().run(CompareRequest.builder(slow, healthy).build()).toJson();
    assertThat(viaMcp.path("verdict").path("kind").asText())
        .isEqualTo(tree(library).path("verdict").path("kind").asText())
        .isEqualTo("CONFIG_REGRESSION");
    assertThat(error(call("compare", Map.of("candidate", slow, "baseline", "/nonexistent/spark-events/app-0"))))
        .contains("baseline").contains("/nonexistent/spark-events/app-0");
  }

  @Test
  void inspectLooksInsideCompiledCode() throws Exception {
    Path classFile = Path.of(SparkRcaMcpServer.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve(SparkRcaMcpServer.class.getName().replace('.', '/') + ".class");
    JsonNode view = ok(call("inspect", Map.of("uri", classFile.toString(), "follow", false)));
    assertThat(view.path("kind").asText()).isEqualTo("class");
    assertThat(view.toString()).contains("SparkRcaMcpServer");
  }

  @Test
  void malformedCallsAreToolErrorsAndTheServerKeepsServing() throws IOException {
    String log = TestkitFixtures.get("3.5.9", "healthy").driverLog().toString();

    assertThat(error(call("summarize", Map.of()))).contains("eventLog");
    assertThat(error(call("logs_head", Map.of("uri", log, "lines", 1_000_000)))).contains("lines").contains("5000");
    assertThat(error(call("logs_head", Map.of("uri", log, "lines", "ten")))).contains("lines");
    assertThat(error(call("logs_search", Map.of("uris", List.of(log))))).contains("regex").contains("literal");
    assertThat(error(call("rca", Map.of("eventLog", "/nonexistent/spark-events/app-1")))).contains("/nonexistent/spark-events/app-1");

    Path notALog = tmp.resolve("app-20260101000000-0001");
    Files.write(notALog, "this is not an event log\n\u0000\u0001garbage".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(error(call("summarize", Map.of("eventLog", notALog.toString())))).contains(notALog.toString());

    Path cut = tmp.resolve("driver.log.gz");
    byte[] gz = gzip(Files.readAllBytes(Path.of(log)));
    Files.write(cut, Arrays.copyOf(gz, gz.length / 2));
    assertThat(error(call("logs_tail", Map.of("uri", cut.toString(), "lines", 5, "strict", true)))).contains(cut.toString());
    JsonNode lenient = ok(call("logs_tail", Map.of("uri", cut.toString(), "lines", 5)));
    assertThat(lenient.path("notes").toString()).contains("driver.log.gz").contains("ends early");

    assertThatThrownBy(() -> call("no_such_tool", Map.of())).isInstanceOf(McpError.class);

    // Still serving: a good call right after the bad ones.
    assertThat(ok(call("logs_info", Map.of("uri", log))).path("source").asText()).isEqualTo(log);
  }

  /** rca's arguments for a fixture: its event log, driver log and executor logs (when it has them). */
  private static Map<String, Object> withLogs(Fixture f) {
    Map<String, Object> args = new java.util.LinkedHashMap<>();
    args.put("eventLog", f.eventLog().toString());
    args.put("driverLogs", List.of(f.driverLog().toString()));
    if (Files.isDirectory(f.dir().resolve("executor-logs"))) {
      args.put("executorLogs", List.of(f.dir().resolve("executor-logs").toString()));
    }
    return args;
  }

  private static CallToolResult call(String tool, Map<String, Object> arguments) {
    return McpSession.call(client, tool, arguments);
  }

  private static JsonNode ok(CallToolResult r) {
    return McpSession.ok(r);
  }

  private static String error(CallToolResult r) {
    return McpSession.error(r);
  }

  private static List<String> texts(JsonNode lines) {
    return java.util.stream.StreamSupport.stream(lines.spliterator(), false).map(l -> l.path("text").asText()).toList();
  }

  private static McpSchema.Tool byName(List<McpSchema.Tool> tools, String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  private static JsonNode tree(Object value) {
    return JSON.valueToTree(value);
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new AssertionError("the library's own JSON did not parse: " + json, e);
    }
  }

  private static byte[] gzip(byte[] data) throws IOException {
    var bytes = new java.io.ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }
}

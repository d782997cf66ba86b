package io.sparkrca.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.mcp.internal.SchemaValidator;
import io.sparkrca.mcp.internal.ToolCatalog;
import io.sparkrca.mcp.internal.Tools;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's parts without a process: the tool catalog's schemas, the validator's messages, the
 * handlers' argument checks, the providers behind the shs_*, dataproc_* and k8s_* tools, and that
 * serving ends when the client closes its input. The protocol end to end, over a real process, is
 * McpToolsTest's and McpSourceToolsTest's.
 */
class SparkRcaMcpServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SchemaValidator validator = new SchemaValidator();

  @Test
  void everyToolsSchemasAreJsonSchema2020Documents() {
    for (McpSchema.Tool t : ToolCatalog.load().tools()) {
      assertThat(validator.validateSchema(t.inputSchema()).valid()).as(t.name() + " input: " + validator.validateSchema(t.inputSchema()).errorMessage()).isTrue();
      assertThat(validator.validateSchema(t.outputSchema()).valid()).as(t.name() + " output").isTrue();
      assertThat(t.name()).as("snake case, as the protocol allows: letters, digits, _").matches("[a-z][a-z0-9_]{0,63}");
    }
  }

  @Test
  void validatorNamesTheArgumentAndTheBound() {
    McpSchema.Tool head = ToolCatalog.load().tools().stream().filter(t -> t.name().equals("logs_head")).findFirst().orElseThrow();
    ValidationResponse tooMany = validator.validate(head.inputSchema(), Map.of("uri", "driver.log", "lines", 6000));
    assertThat(tooMany.valid()).isFalse();
    assertThat(tooMany.errorMessage()).contains("lines").contains("5000");
    ValidationResponse typo = validator.validate(head.inputSchema(), Map.of("url", "driver.log"));
    assertThat(typo.errorMessage()).contains("uri").contains("url");
    assertThat(validator.validate(head.inputSchema(), Map.of("uri", "driver.log", "lines", 10)).valid()).isTrue();
  }

  @Test
  void everyListedToolHasAHandlerThatChecksItsArguments() {
    Tools tools = new Tools(ByteSources.defaults(), HttpSettings.defaults());
    for (String name : SparkRcaMcpServer.toolNames()) {
      if (name.equals("shs_applications")) {
        continue; // every argument is optional: without any, it discovers a History Server on this machine
      }
      // No arguments: each handler refuses with a message in the tool's terms, never "no such tool".
      assertThatThrownBy(() -> tools.call(name, Map.of())).as(name)
          .isInstanceOf(SparkRcaException.class)
          .satisfies(e -> assertThat(e.getMessage()).doesNotStartWith("no tool named"));
    }
    assertThatThrownBy(() -> tools.call("logs_head", Map.of("uri", "driver.log", "lines", "ten")))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("'lines' must be a whole number");
    assertThatThrownBy(() -> tools.call("logs_search", Map.of("uris", java.util.List.of("x.log"), "regex", "a", "literal", "b")))
        .hasMessageContaining("regex or literal, not both");
  }

  @Test
  void everyProviderToolIsAnsweredByOneProviderFoundWithServiceLoader() {
    java.util.Map<String, String> answeredBy = new java.util.HashMap<>();
    for (io.sparkrca.core.source.SourceReadProvider p : java.util.ServiceLoader.load(io.sparkrca.core.source.SourceReadProvider.class)) {
      for (String read : p.reads()) {
        assertThat(answeredBy.put(read, p.name())).as("one provider answers " + read).isNull();
      }
    }
    java.util.List<String> providerTools = SparkRcaMcpServer.toolNames().stream()
        .filter(t -> t.startsWith("shs_") || t.startsWith("dataproc_") || t.startsWith("k8s_")).toList();
    assertThat(providerTools).hasSize(7);
    assertThat(answeredBy.keySet()).containsExactlyInAnyOrderElementsOf(providerTools);
    assertThat(answeredBy).containsEntry("shs_profile", "history-server").containsEntry("dataproc_view", "dataproc")
        .containsEntry("k8s_logs", "kubernetes");
  }

  @Test
  void theDocumentationListsEveryToolAndArgument() throws Exception {
    java.nio.file.Path doc = null;
    for (java.nio.file.Path p = java.nio.file.Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
      if (java.nio.file.Files.isRegularFile(p.resolve("docs/mcp.md"))) {
        doc = p.resolve("docs/mcp.md");
        break;
      }
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(doc != null, "docs/mcp.md is not in this checkout: skipped");
    String text = java.nio.file.Files.readString(doc);
    for (McpSchema.Tool t : ToolCatalog.load().tools()) {
      int at = text.indexOf("### `" + t.name() + "`");
      assertThat(at).as("docs/mcp.md has a section for " + t.name()).isNotNegative();
      int end = text.indexOf("\n### ", at + 1);
      String section = text.substring(at, end < 0 ? text.length() : end);
      for (Object arg : ((Map<?, ?>) t.inputSchema().get("properties")).keySet()) {
        assertThat(section).as(t.name() + " documents " + arg).contains("| `" + arg + "` |");
      }
    }
  }

  @Test
  void aLineThatIsNotAMessageIsAnsweredAndTheSessionGoesOn() throws Exception {
    java.io.PipedOutputStream client = new java.io.PipedOutputStream();
    java.io.PipedInputStream serverIn = new java.io.PipedInputStream(client, 1 << 16);
    java.io.PipedInputStream clientIn = new java.io.PipedInputStream(1 << 16);
    java.io.PipedOutputStream serverOut = new java.io.PipedOutputStream(clientIn);
    Thread server = new Thread(() -> SparkRcaMcpServer.builder().version("test").build().serve(serverIn, serverOut));
    server.setDaemon(true);
    server.start();
    String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n";
    client.write(("this is not JSON\n\n{\"jsonrpc\":\"2.0\",\"id\":7,\"params\":{}}\n" + init).getBytes(StandardCharsets.UTF_8));
    client.flush();
    java.io.BufferedReader answers = new java.io.BufferedReader(new java.io.InputStreamReader(clientIn, StandardCharsets.UTF_8));
    java.util.List<com.fasterxml.jackson.databind.JsonNode> got = new java.util.ArrayList<>();
    assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
      while (got.size() < 3) {
        got.add(JSON.readTree(answers.readLine()));
      }
    });
    assertThat(got.get(0).at("/error/code").asInt()).isEqualTo(-32700);
    assertThat(got.get(0).path("id").isNull()).isTrue();
    assertThat(got.get(1).at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(got.get(1).path("id").asInt()).isEqualTo(7);
    assertThat(got.get(2).path("id").asInt()).isEqualTo(1);
    assertThat(got.get(2).at("/result/serverInfo/name").asText()).isEqualTo("sparkrca");
    client.close();
    server.join(Duration.ofMinutes(2).toMillis());
    assertThat(server.isAlive()).as("serving ended when the client closed its input").isFalse();
  }

  @Test
  void servingEndsWhenTheClientClosesItsInputAndWritesOnlyProtocol() throws Exception {
    String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTimeoutPreemptively(Duration.ofMinutes(3), () ->
        SparkRcaMcpServer.builder().version("test").build()
            .serve(new ByteArrayInputStream(init.getBytes(StandardCharsets.UTF_8)), out));
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        assertThat(JSON.readTree(line).path("jsonrpc").asText()).as(line).isEqualTo("2.0");
      }
    }
  }
}

package io.sparkrca.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.sparkrca.mcp.internal.SchemaValidator;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The real server ({@link SparkRcaMcpServer} with its defaults, as {@link McpServerMain} runs it),
 * started as a child JVM on the test class path and spoken to over its stdio JSON-RPC transport by
 * the MCP SDK's own client (which checks every result against the tool's output schema), with the
 * assertions the MCP tests share: a call that must succeed, a call that must be a tool error.
 *
 * <pre>{@code
 * McpSyncClient client = McpSession.start();
 * JsonNode summary = McpSession.ok(McpSession.call(client, "summarize", Map.of("eventLog", "app-1")));
 * }</pre>
 */
final class McpSession {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The machine is shared: a cold JVM and the first analysis may take a while. */
  static final Duration TIMEOUT = Duration.ofMinutes(5);

  private McpSession() {}

  /** Starts the server in its own process and initializes a session with it. */
  static McpSyncClient start() {
    return start(entry -> true);
  }

  /**
   * As {@link #start()}, on the entries of the test class path that {@code keep} keeps: without the
   * provider modules, say, to run the server as a class path without them would.
   */
  static McpSyncClient start(Predicate<String> keep) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = Arrays.stream(testClassPath().split(File.pathSeparator)).filter(keep)
        .collect(Collectors.joining(File.pathSeparator));
    ServerParameters server = ServerParameters.builder(java)
        .args("-Xmx512m", "-cp", classPath, McpServerMain.class.getName())
        .build();
    McpSyncClient client = McpClient.sync(new StdioClientTransport(server, McpJsonDefaults.getMapper()))
        .requestTimeout(TIMEOUT)
        .initializationTimeout(TIMEOUT)
        .jsonSchemaValidator(new SchemaValidator())
        .build();
    client.initialize();
    return client;
  }

  /** Surefire's fork puts the test class path in java.class.path (or this property, with a manifest-only jar). */
  private static String testClassPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
  }

  /** The structured result of a call that must succeed; its text content is the same JSON. */
  static JsonNode ok(CallToolResult r) {
    assertThat(r.isError()).as("tool error: %s", text(r)).isNotEqualTo(Boolean.TRUE);
    JsonNode structured = JSON.valueToTree(r.structuredContent());
    try {
      assertThat(JSON.readTree(text(r))).isEqualTo(structured);
    } catch (IOException e) {
      throw new AssertionError("the text content is not JSON: " + text(r), e);
    }
    return structured;
  }

  /** The message of a call that must fail as a tool error. */
  static String error(CallToolResult r) {
    assertThat(r.isError()).as("expected a tool error, got %s", text(r)).isTrue();
    assertThat(text(r)).isNotBlank();
    return text(r);
  }

  static String text(CallToolResult r) {
    return r.content().stream().filter(c -> c instanceof McpSchema.TextContent)
        .map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
  }
}

package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkrca.mcp.SparkRcaMcpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sparkrca mcp} starts the MCP server: the SDK's own client starts the real command as a
 * child JVM, initializes a session over stdio, lists the tools and makes one call through the
 * command's byte sources. What each tool does is the mcp module's tests' (McpToolsTest,
 * McpSourceToolsTest), on the same server.
 */
class McpCommandTest {
  @TempDir Path tmp;

  @Test
  void startsTheServerWhichAnswersInitializeToolsListAndACall() throws Exception {
    McpSyncClient client = McpSession.start();
    try {
      assertThat(client.getServerInfo().name()).isEqualTo("sparkrca");
      assertThat(client.getServerInfo().version()).isEqualTo(new SparkRcaCommand.Version().getVersion()[0].replace("sparkrca ", ""));
      assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
          .containsExactlyElementsOf(SparkRcaMcpServer.toolNames())
          .contains("rca", "shs_profile", "dataproc_view", "k8s_pods", "inspect");

      Path log = Files.writeString(tmp.resolve("driver.log"), "first\nsecond\nthird\n");
      JsonNode tail = McpSession.ok(McpSession.call(client, "logs_tail", Map.of("uri", log.toString(), "lines", 2)));
      assertThat(tail.path("lines")).extracting(l -> l.path("text").asText()).containsExactly("second", "third");
    } finally {
      client.closeGracefully();
    }
  }
}

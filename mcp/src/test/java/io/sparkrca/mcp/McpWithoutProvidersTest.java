package io.sparkrca.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sparkrca-mcp holds the provider modules (sparkrca-history-server, -gcp, -kubernetes) in runtime
 * scope only, reaching them through core's SPIs: so the server runs on a class path without them,
 * lists every tool, answers the tools that need no provider, and answers a provider's tool with an
 * error naming the module to add, instead of failing to start or to link.
 */
class McpWithoutProvidersTest {
  /** A provider module's jar (from a repository) or classes (in a reactor build), main or test. */
  private static final Pattern PROVIDER = Pattern.compile(
      ".*([/\\\\]sparkrca-(history-server|gcp|kubernetes)-[^/\\\\]*\\.jar|[/\\\\](history-server|gcp|kubernetes)[/\\\\]target[/\\\\].*)");

  @TempDir Path tmp;

  @Test
  void theServerRunsWithoutTheProvidersAndNamesTheModuleEachOfTheirToolsNeeds() throws Exception {
    McpSyncClient client = McpSession.start(entry -> !PROVIDER.matcher(entry).matches());
    try {
      assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyElementsOf(SparkRcaMcpServer.toolNames());

      Path log = Files.writeString(tmp.resolve("driver.log"), "INFO starting\nERROR lost executor 1\n");
      assertThat(McpSession.ok(McpSession.call(client, "logs_count", Map.of("uris", List.of(log.toString()), "literal", "ERROR")))
          .path("matchingLines").asLong()).isEqualTo(1);

      assertThat(McpSession.error(McpSession.call(client, "shs_applications", Map.of("historyServer", "http://127.0.0.1:1"))))
          .contains("shs_applications").contains("sparkrca-history-server");
      assertThat(McpSession.error(McpSession.call(client, "dataproc_view", Map.of("batch", "b-1"))))
          .contains("dataproc_view").contains("sparkrca-gcp");
      assertThat(McpSession.error(McpSession.call(client, "k8s_pods", Map.of("appId", "spark-1"))))
          .contains("k8s_pods").contains("sparkrca-kubernetes");
    } finally {
      client.closeGracefully();
    }
  }
}

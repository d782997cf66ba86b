package io.sparkrca.cli;

import io.sparkrca.mcp.SparkRcaMcpServer;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;

/**
 * {@code sparkrca mcp}: serves sparkrca's tools to an AI agent over the Model Context Protocol on
 * standard input and output, until the client closes standard input. Standard output carries the
 * protocol only: everything else the process prints (logging, stray output) goes to standard error.
 *
 * <pre>{@code
 * {"mcpServers": {"sparkrca": {"command": "java", "args": ["-jar", "/opt/sparkrca/sparkrca.jar", "mcp"]}}}
 * }</pre>
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    header = "Serves sparkrca's tools to AI agents over the Model Context Protocol (stdio).",
    description = {
      "",
      "Starts an MCP server on standard input and output for an MCP client (Claude Desktop, an IDE, an "
          + "agent framework) to launch. Its tools are rca, compare, summarize, rules, logs_info, logs_head, logs_tail, "
          + "logs_range, logs_search, logs_count, shs_applications, shs_profile, dataproc_describe, dataproc_view, "
          + "k8s_pods, k8s_events, k8s_logs and inspect, each with a typed input schema and a JSON result; "
          + "an error is a tool error with the message, and the server keeps serving. It runs until the client "
          + "closes standard input; logging goes to standard error. The remote-input options below apply to "
          + "every tool call.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca mcp",
      "  sparkrca mcp --bearer-token-env SHS_TOKEN",
      "",
      "Client configuration (Claude Desktop's claude_desktop_config.json, and most MCP clients):",
      "  {\"mcpServers\": {\"sparkrca\": {\"command\": \"sparkrca\", \"args\": [\"mcp\"]}}}"
    })
final class McpCommand implements Callable<Integer> {
  @ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @Override
  public Integer call() {
    // The protocol owns the real standard output; anything else printed goes to standard error.
    OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    System.setOut(System.err);
    if (System.getProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol") == null) {
      // The SDK logs each session's start and end at INFO; an agent's stderr needs only problems.
      System.setProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol", "warn");
    }
    SparkRcaMcpServer.builder()
        .sources(http.sources())
        .http(http.settings())
        .version(new SparkRcaCommand.Version().getVersion()[0].replace("sparkrca ", ""))
        .build()
        .serve(System.in, protocol);
    return 0;
  }
}

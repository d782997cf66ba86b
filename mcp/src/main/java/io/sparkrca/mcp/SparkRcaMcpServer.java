package io.sparkrca.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.mcp.internal.ProtocolInput;
import io.sparkrca.mcp.internal.SchemaValidator;
import io.sparkrca.mcp.internal.ToolCatalog;
import io.sparkrca.mcp.internal.Tools;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * A Model Context Protocol server over stdio whose tools are sparkrca's entry points: {@code rca},
 * {@code compare}, {@code summarize}, {@code rules}, {@code logs_info}, {@code logs_head}, {@code
 * logs_tail}, {@code logs_range}, {@code logs_search}, {@code logs_count}, the History Server reads
 * ({@code shs_applications}, {@code shs_profile}), the Dataproc reads ({@code dataproc_describe},
 * {@code dataproc_view}), the Kubernetes reads ({@code k8s_pods}, {@code k8s_events}, {@code
 * k8s_logs}) and {@code inspect}, each with a typed
 * input schema and a JSON result (its output schema; rca's is the published report schema). An
 * error (bad input, an unreadable log, a bad argument) is a tool error with the message, never the
 * end of the server. Nothing but protocol messages is written to the output stream.
 *
 * <pre>{@code
 * SparkRcaMcpServer.builder().version("0.1.0").build().serve(System.in, stdout); // until stdin ends
 * }</pre>
 */
public final class SparkRcaMcpServer {
  private final ByteSources sources;
  private final HttpSettings http;
  private final String version;
  private final int maxConcurrentCalls;

  private SparkRcaMcpServer(Builder b) {
    this.sources = b.sources;
    this.http = b.http;
    this.version = b.version;
    this.maxConcurrentCalls = b.maxConcurrentCalls;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The tools' names, in the order a client lists them. */
  public static List<String> toolNames() {
    return ToolCatalog.load().tools().stream().map(McpSchema.Tool::name).toList();
  }

  /**
   * Serves one client on {@code in} and {@code out} until {@code in} ends (the client closed it),
   * then returns. {@code out} receives protocol messages only.
   */
  public void serve(InputStream in, OutputStream out) {
    CountDownLatch ended = new CountDownLatch(1);
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, new ProtocolInput(in, out, ended), out);
    McpSyncServer server = McpServer.sync(transport)
        .serverInfo("sparkrca", version)
        .instructions("Root-cause analysis of Apache Spark applications. Start with rca on the event log (add the "
            + "driver and executor logs when you have them); summarize for an overview; logs_* to read, tail and "
            + "search logs of any size without loading them; inspect to look inside the job's code; shs_* for an application "
            + "on a Spark History Server, dataproc_* for a Dataproc batch, session or cluster job, k8s_* for its "
            + "Kubernetes pods, events and container logs.")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .jsonSchemaValidator(new SchemaValidator())
        .validateToolInputs(true)
        .tools(ToolCatalog.load().specifications(new Tools(sources, http), mapper, maxConcurrentCalls))
        .build();
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      server.closeGracefully();
    }
  }

  /** Configures a server. */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private HttpSettings http = HttpSettings.defaults();
    private String version = "unknown";
    private int maxConcurrentCalls = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private Builder() {}

    /** Where inputs are read from (local files, http(s), the providers on the class path). */
    public Builder sources(ByteSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** The HTTP settings remote sources (the History Server, http event logs) read with. */
    public Builder http(HttpSettings http) {
      this.http = Objects.requireNonNull(http, "http");
      return this;
    }

    /** The version the server reports to clients. */
    public Builder version(String version) {
      this.version = Objects.requireNonNull(version, "version");
      return this;
    }

    /** How many tool calls run at once; others wait (default: the cores, 1 to 4). */
    public Builder maxConcurrentCalls(int n) {
      if (n < 1) {
        throw new InvalidRequestException("maxConcurrentCalls must be at least 1, not " + n);
      }
      this.maxConcurrentCalls = n;
      return this;
    }

    public SparkRcaMcpServer build() {
      return new SparkRcaMcpServer(this);
    }
  }
}

package io.sparkrca.mcp.examples;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.mcp.internal.ProtocolInput;
import io.sparkrca.mcp.internal.SchemaValidator;
import io.sparkrca.mcp.internal.ToolCatalog;
import io.sparkrca.mcp.internal.Tools;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** The Javadoc examples of {@code io.sparkrca.mcp.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code ProtocolInput}. */
  void protocolInput(OutputStream stdout, CountDownLatch ended) throws Exception {
    InputStream in = new ProtocolInput(System.in, stdout, ended);
  }

  /** The example of {@code SchemaValidator}. */
  void schemaValidator(McpServerTransportProvider serverTransport, McpClientTransport clientTransport) throws Exception {
    McpServer.sync(serverTransport).jsonSchemaValidator(new SchemaValidator()).serverInfo("sparkrca", "0.1.0").build();
    McpClient.sync(clientTransport).jsonSchemaValidator(new SchemaValidator()).build();
  }

  /** The example of {@code ToolCatalog}. */
  void toolCatalog(Tools tools, McpJsonMapper mapper) throws Exception {
    List<SyncToolSpecification> specs = ToolCatalog.load().specifications(tools, mapper, 2);
  }

  /** The example of {@code Tools}. */
  void tools() throws Exception {
    Tools tools = new Tools(ByteSources.defaults(), HttpSettings.defaults());
    String json = tools.call("logs_tail", Map.of("uri", "driver.log", "lines", 200));
  }
}

package io.sparkrca.mcp.examples;

import io.sparkrca.mcp.SparkRcaMcpServer;
import java.io.OutputStream;

/** The Javadoc examples of {@code io.sparkrca.mcp}, compiled (see {@link JavadocExamplesTest}). */
class McpExamples {
  /** The example of {@code SparkRcaMcpServer}. */
  void sparkRcaMcpServer(OutputStream stdout) throws Exception {
    SparkRcaMcpServer.builder().version("0.1.0").build().serve(System.in, stdout); // until stdin ends
  }
}

package io.sparkrca.mcp;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;

/**
 * The server as its own process for {@link McpSession}: {@link SparkRcaMcpServer} with its defaults
 * on the real standard input and output, as {@code sparkrca mcp} runs it (the protocol owns standard
 * output; anything else printed goes to standard error), on the test class path, where the provider
 * modules are found with ServiceLoader exactly as they are at run time.
 */
final class McpServerMain {
  private McpServerMain() {}

  public static void main(String[] args) {
    OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    System.setOut(System.err);
    if (System.getProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.io.modelcontextprotocol", "warn");
    }
    SparkRcaMcpServer.builder().version("test").build().serve(System.in, protocol);
  }
}

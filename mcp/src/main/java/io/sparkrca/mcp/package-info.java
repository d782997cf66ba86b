/**
 * {@code sparkrca mcp}: a Model Context Protocol server (stdio) whose tools are the library's entry
 * points, for AI agents. See {@link io.sparkrca.mcp.SparkRcaMcpServer}.
 */
package io.sparkrca.mcp;

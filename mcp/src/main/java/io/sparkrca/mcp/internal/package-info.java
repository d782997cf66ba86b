/** Internals of the MCP server: the tool catalog, argument reading, schema validation. Not API. */
package io.sparkrca.mcp.internal;

package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's tools: their names, descriptions and schemas from {@code tools.json} (rca's result
 * schema is the published report schema), each wired to {@link Tools} through one error contract.
 * A {@link SparkRcaException} or a bad argument is a tool error carrying the (redacted) message;
 * anything else is a tool error too, logged with its trace on standard error: the server keeps
 * serving. At most a few calls run at once, so that memory stays bounded whatever an agent sends.
 *
 * <pre>{@code
 * List<SyncToolSpecification> specs = ToolCatalog.load().specifications(tools, mapper, 2);
 * }</pre>
 */
public final class ToolCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCatalog.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RESOURCE = "/io/sparkrca/mcp/tools.json";
  /** Arguments several tools share (the History Server's, Google Cloud's, the cluster's), by group. */
  private static final String GROUPS = "/io/sparkrca/mcp/arguments.json";

  private final List<McpSchema.Tool> tools;

  private ToolCatalog(List<McpSchema.Tool> tools) {
    this.tools = tools;
  }

  /** The catalog as this build ships it. */
  public static ToolCatalog load() {
    JsonNode defs = read(RESOURCE);
    JsonNode groups = read(GROUPS);
    List<McpSchema.Tool> out = new ArrayList<>();
    for (JsonNode d : defs) {
      ObjectNode input = d.get("inputSchema").deepCopy();
      ObjectNode properties = (ObjectNode) input.get("properties");
      for (JsonNode g : d.path("argumentGroups")) {
        JsonNode group = groups.get(g.asText());
        if (group == null) {
          throw new AssertionError("the tool " + d.get("name").asText() + " names the argument group " + g
              + ", which " + GROUPS + " does not have; the build is damaged");
        }
        group.fields().forEachRemaining(f -> {
          if (!properties.has(f.getKey())) {
            properties.set(f.getKey(), f.getValue());
          }
        });
      }
      JsonNode output = d.has("outputSchemaResource") ? read(d.get("outputSchemaResource").asText()) : d.get("outputSchema");
      out.add(McpSchema.Tool.builder()
          .name(d.get("name").asText())
          .title(d.get("title").asText())
          .description(d.get("description").asText())
          .inputSchema(map(input))
          .outputSchema(map(output))
          .annotations(new McpSchema.ToolAnnotations(d.get("title").asText(), true, false, true, true, null))
          .build());
    }
    return new ToolCatalog(List.copyOf(out));
  }

  /** The tools' definitions, in the order listed. */
  public List<McpSchema.Tool> tools() {
    return tools;
  }

  /** The SDK's specifications: each tool with its handler, at most {@code maxConcurrentCalls} running at once. */
  public List<SyncToolSpecification> specifications(Tools handlers, McpJsonMapper mapper, int maxConcurrentCalls) {
    Semaphore permits = new Semaphore(maxConcurrentCalls, true);
    List<SyncToolSpecification> specs = new ArrayList<>();
    for (McpSchema.Tool tool : tools) {
      specs.add(SyncToolSpecification.builder()
          .tool(tool)
          .callHandler((exchange, request) -> call(handlers, mapper, permits, tool.name(), request.arguments()))
          .build());
    }
    return specs;
  }

  private static CallToolResult call(Tools handlers, McpJsonMapper mapper, Semaphore permits, String name,
      Map<String, Object> arguments) {
    try {
      permits.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(name + ": interrupted while waiting for the other calls to finish");
    }
    try {
      // Every result leaves redacted, whatever the tool: a job description, a SQL text or a class
      // constant may carry a token that no renderer on the way knew to look for.
      String json = Redactor.standard().redactJson(handlers.call(name, arguments));
      return CallToolResult.builder().structuredContent(mapper, json).addTextContent(json).isError(false).build();
    } catch (SparkRcaException e) {
      LOG.debug("{} failed", name, e);
      return error(e.getMessage());
    } catch (OutOfMemoryError e) {
      return error(name + ": out of memory; lower the call's limits (lines, maxMatches, maxApps) or give the server more heap (-Xmx)");
    } catch (RuntimeException | StackOverflowError | AssertionError e) {
      // A bug, not bad input: say so, keep the trace on stderr, and keep serving.
      LOG.error("{} failed unexpectedly", name, e);
      return error(name + " failed unexpectedly (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); the server's standard error has the trace");
    } finally {
      permits.release();
    }
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(Redactor.standard().redactText(String.valueOf(message))).isError(true).build();
  }

  private static JsonNode read(String resource) {
    try (InputStream in = ToolCatalog.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("the resource " + resource + " is missing from the sparkrca jar; the build is damaged");
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new SparkRcaException("cannot read the resource " + resource + " from the sparkrca jar (" + e.getMessage()
          + "); the jar is damaged: install sparkrca again", e);
    }
  }

  private static Map<String, Object> map(JsonNode node) {
    return JSON.convertValue(node, new TypeReference<Map<String, Object>>() {});
  }
}

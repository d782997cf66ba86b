package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The SDK's {@link JsonSchemaValidator} on json-schema-validator 2.x and Jackson 2 (the project's
 * own), because the SDK's default needs the 3.x line, which cannot share a class path with the
 * 2.x the project's tests use. It checks tool arguments on the server, results on the client, and
 * that every tool's schemas are JSON Schema 2020-12 documents.
 *
 * <pre>{@code
 * McpServer.sync(serverTransport).jsonSchemaValidator(new SchemaValidator())...
 * McpClient.sync(clientTransport).jsonSchemaValidator(new SchemaValidator()).build();
 * }</pre>
 */
public final class SchemaValidator implements JsonSchemaValidator {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
  /** At most this many distinct schemas are compiled and kept; a server has a fixed few. */
  private static final int MAX_CACHED = 256;

  private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private final Map<Map<String, Object>, Schema> compiled = new ConcurrentHashMap<>();

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object content) {
    if (schema == null || content == null) {
      return ValidationResponse.asInvalid("nothing to validate: " + (schema == null ? "no schema" : "no content"));
    }
    try {
      JsonNode node = content instanceof String s ? JSON.readTree(s) : JSON.valueToTree(content);
      List<Error> errors = schema(schema).validate(node);
      if (!errors.isEmpty()) {
        return ValidationResponse.asInvalid(describe(errors));
      }
      return ValidationResponse.asValid(JSON.writeValueAsString(node));
    } catch (Exception e) {
      return ValidationResponse.asInvalid("the schema or the value could not be read: " + e.getMessage());
    }
  }

  @Override
  public ValidationResponse validateSchema(Map<String, Object> schema) {
    Object dialect = schema.get("$schema");
    if (dialect != null && !DRAFT_2020_12.equals(dialect.toString())) {
      return ValidationResponse.asValid(null);
    }
    try {
      List<Error> errors = registry.getSchema(SchemaLocation.of(DRAFT_2020_12)).validate(JSON.valueToTree(schema));
      return errors.isEmpty() ? ValidationResponse.asValid(null) : ValidationResponse.asInvalid(describe(errors));
    } catch (Exception e) {
      return ValidationResponse.asInvalid("the schema could not be read: " + e.getMessage());
    }
  }

  private Schema schema(Map<String, Object> schema) {
    Schema s = compiled.get(schema);
    if (s == null) {
      s = registry.getSchema(JSON.valueToTree(schema));
      if (compiled.size() < MAX_CACHED) {
        compiled.put(schema, s);
      }
    }
    return s;
  }

  /** "lines: must have a maximum value of 5000", "required property 'uri' not found". */
  private static String describe(Error e) {
    String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().toString().replaceFirst("^[$/.]+", "");
    return (at.isEmpty() ? "" : at + ": ") + e.getMessage();
  }

  private static String describe(List<Error> errors) {
    return errors.stream().limit(10).map(SchemaValidator::describe).collect(Collectors.joining("; "))
        + (errors.size() > 10 ? "; and " + (errors.size() - 10) + " more" : "");
  }
}

package io.sparkrca.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Test-side validation of report JSON against the published schema ({@link
 * RcaReport#SCHEMA_RESOURCE}), for any module's tests (core's test-jar).
 *
 * <pre>{@code
 * assertThat(RcaSchema.errors(report.toJson())).isEmpty();
 * }</pre>
 */
public final class RcaSchema {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = load();

  private RcaSchema() {}

  /** The schema as a tree. */
  public static JsonNode tree() {
    try (InputStream in = RcaReport.class.getResourceAsStream(RcaReport.SCHEMA_RESOURCE)) {
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The schema violations of {@code json}, as readable lines; empty when it conforms. */
  public static List<String> errors(String json) {
    try {
      return SCHEMA.validate(JSON.readTree(json)).stream().map(e -> e.toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Schema load() {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    return registry.getSchema(tree());
  }
}

package io.sparkrca.core.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sparkrca.core.error.SparkRcaException;

/**
 * Indented JSON text of a tree, the way every sparkrca report, view and profile writes its JSON:
 * Jackson's default pretty printer (two-space indent, {@code "key" : value}), fields in the tree's
 * order, numbers as the tree holds them. One place, so that every module writes the same JSON.
 *
 * <pre>{@code
 * ObjectNode tree = JsonNodeFactory.instance.objectNode().put("verdict", "PROBLEM");
 * String json = JsonText.indented(tree, "the report");
 * }</pre>
 */
public final class JsonText {
  private static final ObjectWriter INDENTED = JsonMapper.builder().build().writerWithDefaultPrettyPrinter();

  private JsonText() {}

  /**
   * {@code tree} as indented JSON.
   *
   * @param what what the tree is, for the error message (e.g. {@code "the report"})
   * @throws SparkRcaException when the tree holds a value Jackson cannot write (a tree built of
   *     JSON values always writes)
   */
  public static String indented(JsonNode tree, String what) {
    try {
      return INDENTED.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new SparkRcaException("could not write " + what + " as JSON: " + e.getOriginalMessage(), e);
    }
  }
}

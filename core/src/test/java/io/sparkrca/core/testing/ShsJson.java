package io.sparkrca.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/** The comparison rules of Spark's History Server suite, for comparing REST answers. */
public final class ShsJson {
  private ShsJson() {}

  /**
   * Applies the suite's rules in place: every {@code lastUpdated} blanked, every {@code
   * lastUpdatedEpoch} zeroed (they depend on file times and clocks).
   */
  public static JsonNode normalize(JsonNode n) {
    if (n instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (name.equals("lastUpdated")) {
          o.set(name, TextNode.valueOf(""));
        } else if (name.equals("lastUpdatedEpoch")) {
          o.put(name, 0);
        } else {
          normalize(o.get(name));
        }
      }
    } else if (n instanceof ArrayNode a) {
      a.forEach(ShsJson::normalize);
    }
    return n;
  }
}

package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed reads from event trees, with Spark's defaults and clear errors for wrong types. */
final class Json {
  private Json() {}

  static boolean present(JsonNode n) {
    return n != null && !n.isNull() && !n.isMissingNode();
  }

  static JsonNode field(JsonNode n, String name) {
    return n == null ? null : n.get(name);
  }

  static long requiredLong(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (!present(v)) {
      throw new BadEventException("missing '" + name + "'");
    }
    if (!v.isNumber()) {
      throw new BadEventException("'" + name + "' should be a number");
    }
    return v.longValue();
  }

  static int requiredInt(JsonNode n, String name) {
    return (int) requiredLong(n, name);
  }

  static long optLong(JsonNode n, String name, long dflt) {
    JsonNode v = field(n, name);
    if (!present(v)) {
      return dflt;
    }
    if (!v.isNumber()) {
      throw new BadEventException("'" + name + "' should be a number");
    }
    return v.longValue();
  }

  static Optional<Long> optLong(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (!present(v)) {
      return Optional.empty();
    }
    if (!v.isNumber()) {
      throw new BadEventException("'" + name + "' should be a number");
    }
    return Optional.of(v.longValue());
  }

  static int optInt(JsonNode n, String name, int dflt) {
    return (int) optLong(n, name, dflt);
  }

  static boolean optBool(JsonNode n, String name, boolean dflt) {
    JsonNode v = field(n, name);
    if (!present(v)) {
      return dflt;
    }
    if (!v.isBoolean()) {
      throw new BadEventException("'" + name + "' should be true or false");
    }
    return v.booleanValue();
  }

  static String requiredString(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (v == null || v.isMissingNode()) {
      throw new BadEventException("missing '" + name + "'");
    }
    if (v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new BadEventException("'" + name + "' should be a string");
    }
    return v.textValue();
  }

  /**
   * A string naming something the replay keeps by it (an executor id): present and not null, or
   * the event is bad. {@link #requiredString} lets null through, which a map key cannot take.
   */
  static String requiredId(JsonNode n, String name) {
    String v = requiredString(n, name);
    if (v == null) {
      throw new BadEventException("'" + name + "' is null");
    }
    return v;
  }

  static Optional<String> optText(JsonNode n, String name) {
    JsonNode v = field(n, name);
    return present(v) ? Optional.of(v.asText()) : Optional.empty();
  }

  static Map<String, String> stringMap(JsonNode n) {
    Map<String, String> m = new LinkedHashMap<>();
    if (!present(n)) {
      return m;
    }
    if (!n.isObject()) {
      throw new BadEventException("expected an object of strings");
    }
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      m.put(e.getKey(), v == null || v.isNull() ? null : v.asText());
    }
    return m;
  }

  static List<Integer> intList(JsonNode n) {
    List<Integer> out = new ArrayList<>();
    if (present(n)) {
      for (JsonNode e : n) {
        out.add(e.intValue());
      }
    }
    return out;
  }
}

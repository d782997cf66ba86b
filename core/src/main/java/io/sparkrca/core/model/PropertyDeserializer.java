package io.sparkrca.core.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.Map;

/** Reads a {@code [key, value]} pair of the History Server's environment answer. */
final class PropertyDeserializer extends StdDeserializer<Map.Entry<String, String>> {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings({"unchecked", "rawtypes"})
  PropertyDeserializer() {
    super((Class) Map.Entry.class);
  }

  @Override
  public Map.Entry<String, String> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      return (Map.Entry<String, String>) ctxt.handleUnexpectedToken(Map.Entry.class, p);
    }
    String key = p.nextTextValue();
    String value = p.nextTextValue();
    if (p.nextToken() != JsonToken.END_ARRAY) {
      return (Map.Entry<String, String>) ctxt.handleUnexpectedToken(Map.Entry.class, p);
    }
    return new AbstractMap.SimpleImmutableEntry<>(key, value);
  }
}

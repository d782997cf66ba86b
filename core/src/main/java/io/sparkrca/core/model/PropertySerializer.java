package io.sparkrca.core.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Map;

/** Writes a property as {@code ["key", "value"]}, the way Scala tuples come out of the History Server. */
final class PropertySerializer extends StdSerializer<Map.Entry<String, String>> {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings({"unchecked", "rawtypes"})
  PropertySerializer() {
    super((Class) Map.Entry.class);
  }

  @Override
  public void serialize(Map.Entry<String, String> e, JsonGenerator g, SerializerProvider p)
      throws IOException {
    g.writeStartArray();
    g.writeString(e.getKey());
    g.writeString(e.getValue());
    g.writeEndArray();
  }
}

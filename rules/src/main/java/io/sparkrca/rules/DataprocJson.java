package io.sparkrca.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.sparkrca.core.error.CorruptInputException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads Dataproc REST JSON (proto3 JSON: camelCase or snake_case names, int64 as strings, zero
 * values omitted) into {@link DataprocSchema} messages, leniently: unknown fields and JSON
 * {@code null}s are ignored, numbers may be strings, enums may be names or numbers.
 */
final class DataprocJson {
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

  private DataprocJson() {}

  /** The message of type {@code type} read from a JSON object. */
  static Message read(JsonNode node, Descriptor type) {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
    if (node == null || !node.isObject()) {
      return b.build();
    }
    Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      FieldDescriptor f = find(type, e.getKey());
      JsonNode v = e.getValue();
      if (f == null || v == null || v.isNull()) {
        continue;
      }
      if (f.isMapField()) {
        readMap(b, f, v);
      } else if (f.isRepeated()) {
        if (v.isArray()) {
          for (JsonNode el : v) {
            if (!el.isNull()) {
              b.addRepeatedField(f, scalar(f, el));
            }
          }
        }
      } else {
        b.setField(f, scalar(f, v));
      }
    }
    return b.build();
  }

  private static void readMap(DynamicMessage.Builder b, FieldDescriptor f, JsonNode v) {
    if (!v.isObject()) {
      return;
    }
    Descriptor entry = f.getMessageType();
    FieldDescriptor key = entry.findFieldByName("key");
    FieldDescriptor value = entry.findFieldByName("value");
    Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue() == null || e.getValue().isNull()) {
        continue;
      }
      Object k;
      if (key.getJavaType() == FieldDescriptor.JavaType.STRING) {
        k = e.getKey();
      } else if (INTEGER.matcher(e.getKey().trim()).matches()) {
        k = Long.parseLong(e.getKey().trim().startsWith("+") ? e.getKey().trim().substring(1) : e.getKey().trim());
      } else {
        throw new CorruptInputException(
            "cannot read the key '" + e.getKey() + "' of map " + f.getName() + " as an integer");
      }
      b.addRepeatedField(
          f,
          DynamicMessage.newBuilder(entry)
              .setField(key, k)
              .setField(value, scalar(value, e.getValue()))
              .build());
    }
  }

  private static Object scalar(FieldDescriptor f, JsonNode v) {
    switch (f.getJavaType()) {
      case INT:
        return (int) integer(f, v);
      case LONG:
        return integer(f, v);
      case DOUBLE:
        return v.isNumber() ? v.doubleValue() : parseDouble(f, v.asText());
      case FLOAT:
        return (float) (v.isNumber() ? v.doubleValue() : parseDouble(f, v.asText()));
      case BOOLEAN:
        return v.isBoolean() ? v.booleanValue() : Boolean.parseBoolean(v.asText());
      case STRING:
        return v.isTextual() ? v.textValue() : v.toString();
      case ENUM:
        return enumValue(f, v);
      case MESSAGE:
        if (f.getMessageType().getFullName().equals("google.protobuf.Timestamp")) {
          return timestamp(f, v);
        }
        return read(v, f.getMessageType());
      default:
        // The schema is DataprocSchema's constants, whose every field type is handled above.
        throw new AssertionError("unsupported field type of " + f.getName());
    }
  }

  private static long integer(FieldDescriptor f, JsonNode v) {
    if (v.isIntegralNumber()) {
      return v.longValue();
    }
    if (v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue())) {
      return (long) v.doubleValue();
    }
    String t = v.asText().trim();
    if (INTEGER.matcher(t).matches()) {
      return Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
    }
    throw new CorruptInputException("cannot read " + v + " as an integer (field " + f.getName() + ")");
  }

  private static double parseDouble(FieldDescriptor f, String t) {
    try {
      return Double.parseDouble(t.trim());
    } catch (NumberFormatException e) {
      throw new CorruptInputException("cannot read '" + t + "' as a number (field " + f.getName() + ")");
    }
  }

  private static EnumValueDescriptor enumValue(FieldDescriptor f, JsonNode v) {
    EnumValueDescriptor e = null;
    if (v.isIntegralNumber() || INTEGER.matcher(v.asText().trim()).matches()) {
      e = f.getEnumType().findValueByNumber((int) integer(f, v));
    } else {
      e = f.getEnumType().findValueByName(v.asText());
    }
    if (e == null) {
      throw new CorruptInputException(
          "unknown " + f.getEnumType().getName() + " value '" + v.asText() + "'");
    }
    return e;
  }

  private static Timestamp timestamp(FieldDescriptor f, JsonNode v) {
    try {
      Instant i = OffsetDateTime.parse(v.asText().trim()).toInstant();
      return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
    } catch (DateTimeParseException e) {
      throw new CorruptInputException(
          "cannot read '" + v.asText() + "' as a timestamp (field " + f.getName() + ")");
    }
  }

  /** The field named {@code name} in snake_case or its JSON (camelCase) spelling. */
  static FieldDescriptor find(Descriptor type, String name) {
    FieldDescriptor f = type.findFieldByName(name);
    if (f != null) {
      return f;
    }
    for (FieldDescriptor c : type.getFields()) {
      if (c.getJsonName().equals(name)) {
        return c;
      }
    }
    return null;
  }
}

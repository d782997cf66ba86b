package io.sparkrca.core.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import io.sparkrca.core.error.InvalidRequestException;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The JSON dialect of the Spark History Server: its field names, {@code
 * 2015-02-03T16:42:59.720GMT} dates, absent optionals omitted, pretty-printed. Reading accepts the
 * same shapes, so answers of a real History Server parse into the model.
 *
 * <pre>{@code
 * String json = SparkJson.write(app.stages(StageQuery.all()));
 * StageData[] back = SparkJson.mapper().readValue(json, StageData[].class);
 * }</pre>
 */
public final class SparkJson {
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'GMT'").withZone(ZoneOffset.UTC);
  private static final ObjectMapper MAPPER = create();

  private SparkJson() {}

  /** The shared, configured mapper; do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * Pretty-printed History Server JSON for any model value.
   *
   * @throws InvalidRequestException when {@code value} is not something Jackson can write
   */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException(
          "Cannot write a " + (value == null ? "null" : value.getClass().getSimpleName())
              + " as JSON (" + e.getOriginalMessage() + "); pass a model value, a list or a map of "
              + "them",
          e);
    }
  }

  /** The value as a JSON tree (for comparisons). */
  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /** Formats an instant the History Server's way. */
  public static String formatDate(Instant instant) {
    return DATE.format(instant);
  }

  /**
   * Parses a History Server date: {@code 2015-02-03T16:42:59.720GMT} or a day such as {@code
   * 2015-02-10} (midnight GMT), as the History Server accepts in {@code minDate} and friends.
   *
   * @throws InvalidRequestException when {@code text} is neither
   */
  public static Instant parseDate(String text) {
    java.util.Objects.requireNonNull(text, "text");
    try {
      String t = text.trim();
      if (t.length() == 10) {
        return java.time.LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      if (t.endsWith("GMT")) {
        return Instant.from(DATE.parse(t));
      }
      return java.time.OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          "Couldn't parse date: " + text + " (write it as 2015-02-03T16:42:59.720GMT, an ISO-8601 "
              + "date-time with an offset, or a day such as 2015-02-10)",
          e);
    }
  }

  private static ObjectMapper create() {
    SimpleModule dates = new SimpleModule("spark-dates");
    dates.addSerializer(Instant.class, new InstantSerializer());
    dates.addDeserializer(Instant.class, new InstantDeserializer());
    ObjectMapper m = new ObjectMapper();
    m.registerModule(new Jdk8Module());
    m.registerModule(dates);
    m.setSerializationInclusion(JsonInclude.Include.NON_ABSENT);
    m.enable(SerializationFeature.INDENT_OUTPUT);
    m.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    return m;
  }

  private static final class InstantSerializer extends StdSerializer<Instant> {
    private static final long serialVersionUID = 1L;

    InstantSerializer() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator g, SerializerProvider p) throws IOException {
      g.writeString(formatDate(value));
    }
  }

  private static final class InstantDeserializer extends StdDeserializer<Instant> {
    private static final long serialVersionUID = 1L;

    InstantDeserializer() {
      super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken().isNumeric()) {
        return Instant.ofEpochMilli(p.getLongValue());
      }
      return parseDate(p.getText());
    }
  }
}

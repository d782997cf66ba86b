package io.sparkrca.fleet.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.fleet.FleetLog;
import io.sparkrca.fleet.FleetRow;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One-line JSON of fleet rows and logs: fields in a fixed order, absent values {@code null}. */
public final class FleetJson {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  private FleetJson() {}

  /** The shared mapper (compact output, plain decimals). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static String writeRow(FleetRow r) {
    return write(rowTree(r));
  }

  /** The row as a JSON object, fields in {@link FleetRow#COLUMNS} order with {@code rootCause} nested. */
  public static ObjectNode rowTree(FleetRow r) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("path", r.path());
    o.put("sizeBytes", r.sizeBytes());
    instant(o, "modifiedTime", r.modifiedTime());
    o.put("inProgress", r.inProgress());
    o.put("date", r.date());
    text(o, "appId", r.appId());
    text(o, "attemptId", r.attemptId());
    text(o, "name", r.name());
    text(o, "user", r.user());
    text(o, "sparkVersion", r.sparkVersion());
    instant(o, "startTime", r.startTime());
    instant(o, "endTime", r.endTime());
    if (r.durationMs().isPresent()) {
      o.put("durationMs", r.durationMs().get());
    } else {
      o.putNull("durationMs");
    }
    text(o, "outcome", r.outcome().map(Enum::name));
    text(o, "verdict", r.verdict().map(Enum::name));
    if (r.rootCause().isPresent()) {
      FleetRow.Cause c = r.rootCause().get();
      ObjectNode n = o.putObject("rootCause");
      n.put("kind", c.kind().name());
      n.put("confidence", c.confidence().name());
      n.put("title", c.title());
      ArrayNode stages = n.putArray("culpritStages");
      c.culpritStages().forEach(stages::add);
    } else {
      o.putNull("rootCause");
    }
    o.put("wastedMs", r.wastedMs());
    o.put("wastedCoreHours", BigDecimal.valueOf(r.wastedCoreHours()));
    o.put("coreHours", BigDecimal.valueOf(r.coreHours()));
    text(o, "topRecommendation", r.topRecommendation());
    text(o, "error", r.error());
    return o;
  }

  public static FleetRow readRow(String json) {
    JsonNode o = parse(json, "fleet row");
    try {
      Optional<FleetRow.Cause> cause = Optional.empty();
      JsonNode c = o.path("rootCause");
      if (c.isObject()) {
        List<Integer> stages = new ArrayList<>();
        c.path("culpritStages").forEach(s -> stages.add(s.asInt()));
        cause = Optional.of(new FleetRow.Cause(RootCauseKind.valueOf(c.path("kind").asText()),
            Confidence.valueOf(c.path("confidence").asText()), c.path("title").asText(), stages));
      }
      return new FleetRow(required(o, "path").asText(), o.path("sizeBytes").asLong(), instant(o, "modifiedTime"),
          o.path("inProgress").asBoolean(), required(o, "date").asText(), text(o, "appId"), text(o, "attemptId"),
          text(o, "name"), text(o, "user"), text(o, "sparkVersion"), instant(o, "startTime"), instant(o, "endTime"),
          o.hasNonNull("durationMs") ? Optional.of(o.get("durationMs").asLong()) : Optional.empty(),
          text(o, "outcome").map(ApplicationRef.Outcome::valueOf), text(o, "verdict").map(Verdict::valueOf), cause,
          o.path("wastedMs").asLong(), o.path("wastedCoreHours").asDouble(), o.path("coreHours").asDouble(),
          text(o, "topRecommendation"), text(o, "error"));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new CorruptInputException("not a fleet row (" + e.getMessage() + "): " + abbreviate(json), e);
    }
  }

  public static String writeLog(FleetLog l) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("uri", l.uri());
    o.put("name", l.name());
    ArrayNode files = o.putArray("files");
    l.files().forEach(files::add);
    o.put("rolling", l.rolling());
    o.put("inProgress", l.inProgress());
    o.put("sizeBytes", l.sizeBytes());
    instant(o, "modifiedTime", l.modifiedTime());
    text(o, "error", l.error());
    return write(o);
  }

  public static FleetLog readLog(String json) {
    JsonNode o = parse(json, "fleet log");
    try {
      List<String> files = new ArrayList<>();
      o.path("files").forEach(f -> files.add(f.asText()));
      return new FleetLog(required(o, "uri").asText(), o.path("name").asText(), files, o.path("rolling").asBoolean(),
          o.path("inProgress").asBoolean(), o.path("sizeBytes").asLong(), instant(o, "modifiedTime"), text(o, "error"));
    } catch (DateTimeParseException e) {
      throw new CorruptInputException("not a fleet log (" + e.getMessage() + "): " + abbreviate(json), e);
    }
  }

  /** The last segment of a path or URI, without a trailing slash. */
  public static String lastSegment(String uri) {
    String n = uri;
    while (n.length() > 1 && (n.endsWith("/") || n.endsWith("\\"))) {
      n = n.substring(0, n.length() - 1);
    }
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    return slash >= 0 ? n.substring(slash + 1) : n;
  }

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new SparkRcaException("could not write JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static JsonNode parse(String json, String what) {
    try {
      JsonNode o = MAPPER.readTree(json);
      if (o == null || !o.isObject()) {
        throw new CorruptInputException("not a " + what + " (a JSON object expected): " + abbreviate(json));
      }
      return o;
    } catch (JsonProcessingException e) {
      throw new CorruptInputException("not a " + what + " (" + e.getOriginalMessage() + "): " + abbreviate(json), e);
    }
  }

  private static JsonNode required(JsonNode o, String field) {
    JsonNode n = o.get(field);
    if (n == null || n.isNull()) {
      throw new CorruptInputException("a fleet record without '" + field + "': " + abbreviate(o.toString()));
    }
    return n;
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }

  private static void text(ObjectNode o, String field, Optional<String> v) {
    if (v.isPresent()) {
      o.put(field, v.get());
    } else {
      o.putNull(field);
    }
  }

  private static void instant(ObjectNode o, String field, Optional<Instant> v) {
    if (v.isPresent()) {
      o.put(field, v.get().toString());
    } else {
      o.putNull(field);
    }
  }

  private static Optional<String> text(JsonNode o, String field) {
    JsonNode n = o.get(field);
    return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
  }

  private static Optional<Instant> instant(JsonNode o, String field) {
    return text(o, field).map(Instant::parse);
  }
}

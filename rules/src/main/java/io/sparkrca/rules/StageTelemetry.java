package io.sparkrca.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.CorruptInputException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What rules are evaluated on: every stage attempt and the consolidated executor summary as
 * Dataproc v1 messages ({@link DataprocSchema}), plus the application id and, when known, its
 * Spark properties and version (for configuration-dependent advice). Built from the core model of
 * any source with {@link #from(SparkApplication)}, or from a Dataproc {@code sparkApplications}
 * JSON export with {@link #fromDataprocJson(String)}.
 *
 * <pre>{@code
 * StageTelemetry t = StageTelemetry.from(EventLogs.replay(Path.of("/logs/app-1")));
 * System.out.println(t.stageCount() + " stage attempts");
 * System.out.println(t.toJson()); // the values rules see, field names as in CEL
 * }</pre>
 */
public final class StageTelemetry {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final Optional<String> applicationId;
  private final List<Message> stages;
  private final Message executors;
  private final Optional<Map<String, String>> sparkProperties;
  private final Optional<String> sparkVersion;

  private StageTelemetry(
      Optional<String> applicationId,
      List<Message> stages,
      Message executors,
      Optional<Map<String, String>> sparkProperties,
      Optional<String> sparkVersion) {
    this.applicationId = applicationId;
    this.stages = List.copyOf(stages);
    this.executors = executors;
    this.sparkProperties = sparkProperties.map(m -> Collections.unmodifiableMap(new LinkedHashMap<>(m)));
    this.sparkVersion = sparkVersion;
  }

  /** The application's stages (all attempts, oldest first), executors and configuration. */
  public static StageTelemetry from(SparkApplication app) {
    List<Message> stages = DataprocMapper.stages(app);
    Message executors = DataprocMapper.totalExecutorSummary(app.executors(false));
    return new StageTelemetry(
        Optional.of(app.info().id()), stages, executors, app.sparkConf(), DataprocMapper.sparkVersion(app));
  }

  /**
   * Reads a Dataproc JSON export in any of the shapes the Dataproc agent accepts: a list of stages;
   * an object with {@code stages} or {@code sparkApplicationStages} (either spelling) and
   * optionally {@code totalExecutorSummary}; or one stage object. Names may be camelCase or
   * snake_case and int64 values strings, as the REST API writes them. The configuration is
   * unknown unless the object has {@code sparkProperties} (a map) or {@code applicationId}.
   */
  public static StageTelemetry fromDataprocJson(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new CorruptInputException("the stage telemetry is not valid JSON: " + e.getOriginalMessage());
    }
    JsonNode stagesNode;
    JsonNode executorsNode = null;
    Optional<String> appId = Optional.empty();
    Optional<Map<String, String>> props = Optional.empty();
    Optional<String> version = Optional.empty();
    if (root != null && root.isArray()) {
      stagesNode = root;
    } else if (root != null && root.isObject()) {
      JsonNode s = first(root, "stages", "spark_application_stages", "sparkApplicationStages");
      if (s != null) {
        stagesNode = s;
        executorsNode = first(root, "total_executor_summary", "totalExecutorSummary");
        JsonNode id = first(root, "applicationId", "application_id");
        if (id != null && id.isTextual()) {
          appId = Optional.of(id.textValue());
        }
        JsonNode p = first(root, "sparkProperties", "spark_properties");
        if (p != null && p.isObject()) {
          Map<String, String> m = new LinkedHashMap<>();
          p.properties().forEach(e -> m.put(e.getKey(), e.getValue().asText()));
          props = Optional.of(m);
        }
        JsonNode v = first(root, "sparkVersion", "spark_version");
        if (v != null && v.isTextual()) {
          version = Optional.of(v.textValue());
        }
      } else {
        stagesNode = JSON.createArrayNode().add(root);
      }
    } else {
      stagesNode = JSON.createArrayNode();
    }
    List<Message> stages = new ArrayList<>();
    try {
      if (stagesNode.isArray()) {
        for (JsonNode n : stagesNode) {
          stages.add(DataprocJson.read(n, DataprocSchema.message("StageData")));
        }
      }
      Message ex =
          DataprocJson.read(executorsNode, DataprocSchema.message("ConsolidatedExecutorSummary"));
      return new StageTelemetry(appId, stages, ex, props, version);
    } catch (CorruptInputException e) {
      throw new CorruptInputException("the stage telemetry cannot be read: " + e.getMessage(), e);
    }
  }

  private static JsonNode first(JsonNode o, String... keys) {
    for (String k : keys) {
      JsonNode v = o.get(k);
      if (v != null && !v.isNull()) {
        return v;
      }
    }
    return null;
  }

  /** This telemetry with the application id set (for sources that know it separately). */
  public StageTelemetry withApplicationId(String id) {
    return new StageTelemetry(Optional.of(id), stages, executors, sparkProperties, sparkVersion);
  }

  /** This telemetry with the application's Spark properties and version. */
  public StageTelemetry withConfiguration(Map<String, String> properties, Optional<String> version) {
    return new StageTelemetry(applicationId, stages, executors, Optional.of(properties), version);
  }

  public Optional<String> applicationId() {
    return applicationId;
  }

  /** The number of stage attempts. */
  public int stageCount() {
    return stages.size();
  }

  /** The Spark properties the application set, when its environment is known. */
  public Optional<Map<String, String>> sparkProperties() {
    return sparkProperties;
  }

  public Optional<String> sparkVersion() {
    return sparkVersion;
  }

  List<Message> stageMessages() {
    return stages;
  }

  Message executorMessage() {
    return executors;
  }

  /**
   * The values rules see, as JSON with the proto's snake_case names (unset fields omitted):
   * {@code {"applicationId", "stages": [...], "total_executor_summary": {...}}}.
   */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    applicationId.ifPresentOrElse(id -> root.put("applicationId", id), () -> root.putNull("applicationId"));
    ArrayNode arr = root.putArray("stages");
    for (Message m : stages) {
      arr.add(toNode(m));
    }
    root.set("total_executor_summary", toNode(executors));
    return io.sparkrca.core.json.JsonText.indented(root, "the stage telemetry");
  }

  static ObjectNode toNode(Message m) {
    ObjectNode o = JSON.createObjectNode();
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      if (f.isMapField()) {
        ObjectNode map = o.putObject(f.getName());
        for (Object entry : (List<?>) e.getValue()) {
          Message en = (Message) entry;
          Object k = en.getField(en.getDescriptorForType().findFieldByName("key"));
          Object v = en.getField(en.getDescriptorForType().findFieldByName("value"));
          map.set(String.valueOf(k), value(v));
        }
      } else if (f.isRepeated()) {
        ArrayNode a = o.putArray(f.getName());
        for (Object v : (List<?>) e.getValue()) {
          a.add(value(v));
        }
      } else {
        o.set(f.getName(), value(e.getValue()));
      }
    }
    return o;
  }

  private static JsonNode value(Object v) {
    if (v instanceof Timestamp t) {
      return JSON.getNodeFactory().textNode(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()).toString());
    }
    if (v instanceof Message m) {
      return toNode(m);
    }
    if (v instanceof Long l) {
      return JSON.getNodeFactory().numberNode(l);
    }
    if (v instanceof Integer i) {
      return JSON.getNodeFactory().numberNode(i);
    }
    if (v instanceof Double d) {
      return JSON.getNodeFactory().numberNode(d);
    }
    if (v instanceof Boolean b) {
      return JSON.getNodeFactory().booleanNode(b);
    }
    if (v instanceof com.google.protobuf.Descriptors.EnumValueDescriptor e) {
      return JSON.getNodeFactory().textNode(e.getName());
    }
    return JSON.getNodeFactory().textNode(String.valueOf(v));
  }
}

package io.sparkrca.historyserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.report.Markdown;
import io.sparkrca.core.report.Report;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One bounded REST snapshot of {@link HistoryProfiles}: JSON with spark_history_api.py's keys
 * (sorted, as it prints them), or a short Markdown overview.
 *
 * <pre>{@code
 * Profile p = HistoryProfiles.failure(app, HistoryProfiles.Limits.defaults());
 * Files.writeString(Path.of("failure.json"), p.toJson());
 * }</pre>
 *
 * @param name the profile: failure, slow, sql, sql-list or applications
 * @param json its content
 */
public record Profile(String name, JsonNode json) implements Report {

  public Profile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(json, "json");
  }

  /** The JSON, keys sorted at every level, pretty-printed. */
  @Override
  public String toJson() {
    return io.sparkrca.core.json.JsonText.indented(sorted(json), "the " + name + " profile");
  }

  /** A short overview: what the snapshot holds, and its limitations. */
  @Override
  public String toMarkdown() {
    StringBuilder sb = new StringBuilder("# ").append(name).append(" profile");
    if (json.has("applicationId")) {
      sb.append(" of ").append(Markdown.text(json.path("applicationId").asText(), 200));
    }
    sb.append("\n\n");
    if (json.isArray()) {
      sb.append("- ").append(json.size()).append(" entries\n");
    } else {
      List<String> keys = new ArrayList<>();
      json.fieldNames().forEachRemaining(keys::add);
      Collections.sort(keys);
      for (String k : keys) {
        JsonNode v = json.get(k);
        if (v.isArray() && !k.equals("limitations")) {
          sb.append("- ").append(k).append(": ").append(v.size()).append('\n');
        }
      }
      for (JsonNode l : json.path("limitations")) {
        sb.append("- Limitation: ").append(Markdown.text(l.asText(), 600)).append('\n');
      }
    }
    sb.append("\nThe full snapshot is its JSON form.\n");
    return sb.toString();
  }

  private static JsonNode sorted(JsonNode n) {
    if (n.isObject()) {
      List<String> keys = new ArrayList<>();
      n.fieldNames().forEachRemaining(keys::add);
      Collections.sort(keys);
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      for (String k : keys) {
        o.set(k, sorted(n.get(k)));
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = JsonNodeFactory.instance.arrayNode();
      n.forEach(x -> a.add(sorted(x)));
      return a;
    }
    return n;
  }
}

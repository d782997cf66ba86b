package io.sparkrca.historyserver.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceReadProvider;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.historyserver.HistoryProfiles;
import io.sparkrca.historyserver.HistoryServerDiscovery;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.Profile;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code shs_applications} and {@code shs_profile}, the History Server reads of {@code sparkrca
 * shs} for a front door that holds this module at run time only (the MCP server), through the same
 * entry points ({@link HistoryServerDiscovery#history}, {@link HistoryProfiles}) with the same
 * settings: the caller's HTTP settings, then the credentials of the environment ({@code
 * SPARK_HISTORY_AUTHORIZATION}, ...), then the call's timeout, concurrency and answer cap. A
 * profile's JSON keeps spark_history_api.py's keys; an array (applications, sql-list) is wrapped in
 * an object, and {@code notes} says which server discovery chose.
 *
 * <pre>{@code
 * String json = new HistoryServerReads().read("shs_profile",
 *     new ReadArguments("shs_profile", Map.of("app", "app-1", "profile", "failure")), SourceSettings.defaults());
 * }</pre>
 */
public final class HistoryServerReads implements SourceReadProvider {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Found with {@link java.util.ServiceLoader}. */
  public HistoryServerReads() {}

  @Override
  public String name() {
    return "history-server";
  }

  @Override
  public Set<String> reads() {
    return Set.of("shs_applications", "shs_profile");
  }

  @Override
  public String read(String read, ReadArguments a, SourceSettings settings) {
    return switch (read) {
      case "shs_applications" -> applications(a, settings);
      case "shs_profile" -> profile(a, settings);
      default -> throw new InvalidRequestException("the History Server reads are shs_applications and shs_profile, not '" + read + "'");
    };
  }

  private static String applications(ReadArguments a, SourceSettings settings) {
    List<String> notes = new ArrayList<>();
    Profile p = HistoryProfiles.applications(history(a, settings, notes), a.string("status"), a.integer("limit", 50));
    ObjectNode out = JSON.createObjectNode();
    out.put("profile", "applications");
    out.set("applications", tree(p));
    out.set("notes", notes(notes));
    return out.toPrettyString();
  }

  private static String profile(ReadArguments a, SourceSettings settings) {
    String kind = a.requiredString("profile");
    String id = a.requiredString("app");
    Optional<Integer> executionId = a.optionalInteger("executionId");
    if (executionId.isPresent() != kind.equals("sql")) {
      throw new InvalidRequestException("shs_profile: " + (kind.equals("sql")
          ? "the sql profile needs executionId (shs_profile with profile sql-list lists them)"
          : "executionId goes with the sql profile, not " + kind));
    }
    List<String> notes = new ArrayList<>();
    SparkApplication app = HistoryProfiles.application(history(a, settings, notes), id, a.string("attempt"));
    HistoryProfiles.Limits limits = new HistoryProfiles.Limits(a.integer("stageLimit", 8), a.integer("taskLimit", 20));
    Profile p = switch (kind) {
      case "failure" -> HistoryProfiles.failure(app, limits);
      case "slow" -> HistoryProfiles.slow(app, limits);
      case "sql-list" -> HistoryProfiles.sqlList(app, a.integer("limit", 100));
      case "sql" -> HistoryProfiles.sql(app, executionId.get(), limits);
      default -> throw new InvalidRequestException("shs_profile: the profile must be failure, slow, sql-list or sql, not '" + kind + "'");
    };
    JsonNode json = tree(p);
    ObjectNode out;
    if (json.isObject()) {
      out = (ObjectNode) json;
    } else {
      out = JSON.createObjectNode();
      out.put("profile", kind);
      out.put("applicationId", app.info().id());
      out.set("sqlExecutions", json);
    }
    out.set("notes", notes(notes));
    return out.toPrettyString();
  }

  private static SparkHistory history(ReadArguments a, SourceSettings source, List<String> notes) {
    HistoryServerSettings settings = HistoryServerSettings.builder()
        .http(source.http())
        .fromEnvironment()
        .readTimeout(Duration.ofSeconds(a.integer("timeoutSeconds", 20)))
        .concurrency(a.integer("concurrency", HistoryServerSettings.DEFAULT_CONCURRENCY))
        .maxResponseBytes(a.optionalLong("maxResponseBytes").orElse(HistoryServerSettings.DEFAULT_MAX_RESPONSE_BYTES))
        .allowCredentialsOverPlainHttp(a.bool("allowPlainHttpCredentials", false))
        .build();
    return HistoryServerDiscovery.history(a.string("historyServer"), settings, source.byteSources(), notes::add);
  }

  private static ArrayNode notes(List<String> notes) {
    ArrayNode out = JSON.createArrayNode();
    notes.forEach(n -> out.add(Redactor.standard().redactText(n)));
    return out;
  }

  private static JsonNode tree(Profile p) {
    try {
      return JSON.readTree(p.toJson());
    } catch (IOException e) {
      throw new AssertionError("the profile's own JSON did not parse", e);
    }
  }
}

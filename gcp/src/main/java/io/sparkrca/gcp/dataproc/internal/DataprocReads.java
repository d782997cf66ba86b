package io.sparkrca.gcp.dataproc.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.WorkloadEvidence;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceReadProvider;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocEvidenceProvider;
import io.sparkrca.gcp.dataproc.DataprocWorkload;
import io.sparkrca.gcp.dataproc.SparkApplicationViews;
import io.sparkrca.gcp.storage.GcsByteSourceProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code dataproc_describe} and {@code dataproc_view}, the Dataproc reads for a front door that
 * holds this module at run time only (the MCP server), through the module's entry points ({@link
 * DataprocEvidenceProvider#collect}, the evidence {@code sparkrca rca --batch} analyzes; {@link
 * SparkApplicationViews}, what {@code sparkrca dataproc ACTION} shows), with {@link GcpSettings}
 * built from the call's project, region, credentials file and endpoint overrides over the
 * environment and the gcloud configuration, as the command line's flags are.
 *
 * <pre>{@code
 * String json = new DataprocReads().read("dataproc_view",
 *     new ReadArguments("dataproc_view", Map.of("batch", "b-1", "action", "stages")), SourceSettings.defaults());
 * }</pre>
 */
public final class DataprocReads implements SourceReadProvider {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Found with {@link java.util.ServiceLoader}. */
  public DataprocReads() {}

  @Override
  public String name() {
    return "dataproc";
  }

  @Override
  public Set<String> reads() {
    return Set.of("dataproc_describe", "dataproc_view");
  }

  @Override
  public String read(String read, ReadArguments a, SourceSettings settings) {
    return switch (read) {
      case "dataproc_describe" -> describe(a, settings.http());
      case "dataproc_view" -> view(a);
      default -> throw new InvalidRequestException("the Dataproc reads are dataproc_describe and dataproc_view, not '" + read + "'");
    };
  }

  private static String describe(ReadArguments a, HttpSettings http) {
    GcpSettings gcp = settings(a);
    String uri = workload(a, gcp);
    // gs:// with the call's settings (its storage endpoint) first, then the class path's providers and http(s), as rca --batch reads.
    ByteSources bytes = ByteSources.builder().add(GcsByteSourceProvider.of(gcp)).loadServiceProviders()
        .add(HttpByteSourceProvider.of(http)).build();
    WorkloadEvidence w = new DataprocEvidenceProvider(gcp)
        .collect(uri, SourceSettings.builder().http(http).byteSources(bytes).build());
    int logLines = a.integer("logLines", 100);
    ObjectNode out = JSON.createObjectNode();
    out.put("workload", w.workload());
    out.set("notes", strings(w.notes()));
    ArrayNode logs = out.putArray("logs");
    for (WorkloadEvidence.Log l : w.logs()) {
      ObjectNode o = logs.addObject();
      o.put("uri", Redactor.redactUri(l.uri()));
      o.put("what", l.what());
      l.role().ifPresent(r -> o.put("role", r.name()));
      o.put("inHand", l.bytes().isPresent());
      if (l.bytes().isPresent() && logLines > 0) {
        o.set("tail", tree(LogJson.lines("tail", LogStream.builder().build(l.bytes().get()).tail(logLines))));
      }
    }
    out.set("code", strings(w.code().stream().map(Redactor::redactUri).toList()));
    ArrayNode events = out.putArray("events");
    for (ClusterEvent e : w.events()) {
      ObjectNode o = events.addObject();
      o.put("source", e.source());
      e.time().ifPresent(t -> o.put("time", t.toString()));
      o.put("object", e.object());
      e.executorId().ifPresent(x -> o.put("executorId", x));
      o.put("reason", e.reason());
      o.put("message", Redactor.standard().redactText(e.message()));
    }
    out.set("gaps", gaps(w.gaps()));
    w.applicationUri().ifPresent(u -> out.put("applicationUri", Redactor.redactUri(u)));
    w.application().ifPresent(app -> {
      ObjectNode o = out.putObject("application");
      o.put("id", app.info().id());
      o.put("source", w.applicationSource());
      o.put("name", app.info().name());
    });
    return out.toPrettyString();
  }

  private static String view(ReadArguments a) {
    String action = a.string("action").orElse("summary");
    SparkApplicationViews.Request.Builder r = SparkApplicationViews.Request.builder(action)
        .limit(a.integer("maxRows", 50))
        .maxFetch(a.integer("maxTasks", 2000))
        .quantiles(a.bool("quantiles", false))
        .sort(a.string("sort").orElse("none"));
    a.string("applicationId").ifPresent(r::applicationId);
    a.optionalInteger("stageId").ifPresent(id -> r.stage(id, a.integer("stageAttempt", 0)));
    a.string("status").ifPresent(r::status);
    a.string("grep").ifPresent(r::grep);
    SparkApplicationViews.Request request = r.build();
    GcpSettings gcp = settings(a);
    String uri = workload(a, gcp);
    SparkApplicationViews.View v = SparkApplicationViews.of(gcp, uri).render(request);
    ObjectNode out = JSON.createObjectNode();
    out.put("action", request.action());
    out.put("workload", DataprocWorkload.parse(uri, gcp).describe());
    out.set("payload", v.payload());
    out.put("markdown", v.toMarkdown());
    return out.toPrettyString();
  }

  /** The workload's URI: one of batch, session, job (an id, in the settings' project and region) or workload (a URI). */
  private static String workload(ReadArguments a, GcpSettings gcp) {
    List<String> given = new ArrayList<>();
    for (String k : List.of("batch", "session", "job", "workload")) {
      a.string(k).ifPresent(v -> given.add(k));
    }
    if (given.size() != 1) {
      throw new InvalidRequestException(a.read() + ": give one of batch, session, job or workload"
          + (given.isEmpty() ? "" : ", not " + String.join(" and ", given)));
    }
    String k = given.get(0);
    String v = a.requiredString(k);
    if (k.equals("workload")) {
      return DataprocWorkload.parse(v, gcp).uri();
    }
    DataprocWorkload.Type type = Map.of("batch", DataprocWorkload.Type.BATCH, "session", DataprocWorkload.Type.SESSION,
        "job", DataprocWorkload.Type.JOB).get(k);
    return DataprocWorkload.of(type, v, gcp).uri();
  }

  /** The call's project, region, credentials and endpoints over the environment and the gcloud configuration. */
  private static GcpSettings settings(ReadArguments a) {
    GcpSettings.Builder b = GcpSettings.builder();
    a.string("project").ifPresent(b::project);
    a.string("region").ifPresent(b::region);
    a.string("credentialsFile").ifPresent(f -> b.credentialsFile(Path.of(f)));
    a.string("dataprocEndpoint").ifPresent(b::dataprocEndpoint);
    a.string("sparkApplicationsEndpoint").ifPresent(b::sparkApplicationsEndpoint);
    a.string("loggingEndpoint").ifPresent(b::loggingEndpoint);
    a.string("storageEndpoint").ifPresent(b::storageEndpoint);
    return b.build();
  }

  private static ArrayNode gaps(List<EvidenceGap> gaps) {
    ArrayNode out = JSON.createArrayNode();
    for (EvidenceGap g : gaps) {
      out.addObject().put("what", g.what()).put("uri", Redactor.redactUri(g.uri())).put("reason", g.reason().name())
          .put("detail", Redactor.standard().redactText(g.detail())).put("whatToDo", g.whatToDo());
    }
    return out;
  }

  private static ArrayNode strings(List<String> values) {
    ArrayNode out = JSON.createArrayNode();
    values.forEach(v -> out.add(Redactor.standard().redactText(v)));
    return out;
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new AssertionError("the library's own JSON did not parse", e);
    }
  }
}

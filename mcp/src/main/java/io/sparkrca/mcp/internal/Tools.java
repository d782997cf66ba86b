package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogQuery;
import io.sparkrca.core.logs.LogSet;
import io.sparkrca.core.logs.LogSetResult;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.rules.BrokenRuleException;
import io.sparkrca.rules.DiagnosticStatus;
import io.sparkrca.rules.OutputContract;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.analysis.rca.RcaEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each tool does: the same library entry points, bounds and error contract as the command
 * line's commands (rca, compare, summarize, rules, logs, shs, dataproc, k8s, inspect), with the
 * arguments of the tool's input schema. Every method returns the result's JSON text; an error is a {@link SparkRcaException}
 * whose message (redacted) becomes the tool error.
 *
 * <pre>{@code
 * Tools tools = new Tools(ByteSources.defaults(), HttpSettings.defaults());
 * String json = tools.call("logs_tail", Map.of("uri", "driver.log", "lines", 200));
 * }</pre>
 */
public final class Tools {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DEFAULT_LINES = 50;

  private final ByteSources sources;
  private final HttpSettings http;
  private final HistoryServerTools shs;
  private final DataprocTools dataproc;

  public Tools(ByteSources sources, HttpSettings http) {
    this.sources = sources;
    this.http = http;
    this.shs = new HistoryServerTools(sources, http);
    this.dataproc = new DataprocTools(http);
  }

  /** Runs tool {@code name} with {@code arguments}; the result is JSON text. */
  public String call(String name, Map<String, Object> arguments) {
    Args a = new Args(name, arguments);
    return switch (name) {
      case "rca" -> rca(a);
      case "compare" -> compare(a);
      case "summarize" -> summarize(a);
      case "rules" -> rules(a);
      case "logs_info" -> LogJson.info(stream(a).build(a.requiredString("uri")).info());
      case "logs_head" -> LogJson.lines("head", stream(a).build(a.requiredString("uri")).head(a.integer("lines", DEFAULT_LINES)));
      case "logs_tail" -> tail(a);
      case "logs_range" -> LogJson.lines("range", stream(a).build(a.requiredString("uri")).range(a.requiredLong("start"), a.requiredLong("end")));
      case "logs_search" -> search(a);
      case "logs_count" -> count(a);
      case "shs_applications" -> shs.applications(a);
      case "shs_profile" -> shs.profile(a);
      case "dataproc_describe" -> dataproc.describe(a);
      case "dataproc_view" -> dataproc.view(a);
      case "k8s_pods" -> KubernetesTools.pods(a);
      case "k8s_events" -> KubernetesTools.events(a);
      case "k8s_logs" -> KubernetesTools.logs(a);
      case "inspect" -> inspect(a);
      default -> throw new InvalidRequestException("no tool named '" + name + "'");
    };
  }

  private String rca(Args a) {
    Optional<String> app = a.string("eventLog");
    List<String> driverLogs = a.strings("driverLogs");
    List<String> executorLogs = a.strings("executorLogs");
    List<String> logs = a.strings("logs");
    if (app.isEmpty() && driverLogs.isEmpty() && executorLogs.isEmpty() && logs.isEmpty()) {
      throw new InvalidRequestException("rca: give the event log (eventLog) or at least one log (driverLogs, executorLogs, logs)");
    }
    int timeout = a.integer("timeoutSeconds", 600);
    SourceSettings settings = SourceSettings.builder().http(http).byteSources(sources).strict(a.bool("strict", false)).build();
    EvidenceCollector.Builder b = EvidenceCollector.builder()
        .sources(SparkSources.builder().settings(settings).loadServiceProviders().build())
        .timeout(Duration.ofSeconds(timeout));
    app.ifPresent(b::application);
    Optional<String> baseline = a.string("baseline");
    baseline.ifPresent(b::baseline);
    driverLogs.forEach(b::driverLog);
    executorLogs.forEach(b::executorLogs);
    logs.forEach(b::logs);
    a.strings("code").forEach(b::code);
    Evidence evidence = b.build().collect();
    if (app.isPresent() && evidence.application().isEmpty() && evidence.logs().isEmpty()) {
      // Nothing at all to analyze: an input error, not an undetermined root cause.
      throw gap(evidence, EvidenceKind.EVENT_LOG, "the event log " + Redactor.redactUri(app.get()) + " could not be read");
    }
    if (baseline.isPresent() && evidence.baseline().isEmpty()) {
      throw gap(evidence, EvidenceKind.BASELINE, "the baseline " + Redactor.redactUri(baseline.get()) + " could not be read");
    }
    return RcaEngine.standard().analyze(evidence).toJson();
  }

  private String compare(Args a) {
    String candidate = a.requiredString("candidate");
    String baseline = a.requiredString("baseline");
    SourceSettings settings = SourceSettings.builder().http(http).byteSources(sources).strict(a.bool("strict", false)).build();
    SparkSources apps = SparkSources.builder().settings(settings).loadServiceProviders().build();
    io.sparkrca.core.app.SparkApplication cand = apps.application(candidate);
    io.sparkrca.core.app.SparkApplication base;
    try {
      base = apps.application(baseline);
    } catch (SparkRcaException e) {
      throw new SparkRcaException("the baseline " + Redactor.redactUri(baseline) + ": " + e.getMessage(), e);
    }
    return io.sparkrca.analysis.compare.Comparison.builder(cand, base).sources(candidate, baseline).settings(settings)
        .minSlowdown(a.number("minSlowdown").orElse(1.2)).compare().toJson();
  }

  private static SparkRcaException gap(Evidence evidence, EvidenceKind kind, String fallback) {
    return evidence.gaps(kind).stream().findFirst()
        .map(g -> new SparkRcaException(g.uri() + ": " + g.detail() + (g.whatToDo().isEmpty() ? "" : " (" + g.whatToDo() + ")")))
        .orElseGet(() -> new SparkRcaException(fallback));
  }

  private String summarize(Args a) {
    String location = a.requiredString("eventLog");
    int maxApps = a.integer("maxApps", 20);
    Optional<SparkSources> other = otherSource(location, a.bool("strict", false));
    if (other.isPresent()) {
      // A History Server or driver UI application URL (or any other source's URI): one application, as the command line reads it.
      ObjectNode one = JSON.createObjectNode();
      one.put("logsFound", 1);
      try {
        one.putArray("summaries").add(JSON.readTree(SparkJson.write(ApplicationSummary.of(other.get().application(location), location))));
      } catch (JsonProcessingException e) {
        throw new AssertionError("the summary's own JSON did not parse", e);
      }
      one.putArray("skipped");
      one.putArray("notes");
      return one.toPrettyString();
    }
    EventLogReader reader = EventLogs.reader().sources(sources).strict(a.bool("strict", false)).build();
    List<EventLogRef> found = reader.find(location);
    ObjectNode out = JSON.createObjectNode();
    out.put("logsFound", found.size());
    ArrayNode summaries = out.putArray("summaries");
    ArrayNode skipped = out.putArray("skipped");
    ArrayNode notes = out.putArray("notes");
    for (EventLogRef log : found.subList(0, Math.min(maxApps, found.size()))) {
      try {
        String name = found.size() == 1 ? location : log.uri();
        summaries.add(JSON.readTree(SparkJson.write(ApplicationSummary.of(reader.replay(log), name))));
      } catch (SparkRcaException e) {
        if (found.size() == 1) {
          throw e;
        }
        skipped.addObject().put("source", log.uri()).put("message", Redactor.standard().redactText(e.getMessage()));
      } catch (JsonProcessingException e) {
        throw new AssertionError("the summary's own JSON did not parse", e);
      }
    }
    if (found.size() > maxApps) {
      notes.add((found.size() - maxApps) + " more logs were not summarized; raise maxApps (at most 1000).");
    }
    if (summaries.isEmpty()) {
      throw new SparkRcaException("none of the " + found.size() + " logs in " + Redactor.redactUri(location) + " could be read");
    }
    return out.toPrettyString();
  }

  private String rules(Args a) {
    String location = a.requiredString("eventLog");
    OutputContract shape = "agent".equals(a.string("contract").orElse("sparkrca")) ? OutputContract.AGENT : OutputContract.SPARKRCA;
    RuleCatalog catalog = RuleCatalog.of(List.of());
    for (String f : a.strings("ruleFiles")) {
      catalog = catalog.plus(RuleCatalog.load(Path.of(f)));
    }
    List<Map<?, ?>> inline = a.objects("rules");
    if (!inline.isEmpty()) {
      try {
        catalog = catalog.plus(RuleCatalog.parse(JSON.writeValueAsString(inline), "the rules argument"));
      } catch (JsonProcessingException e) {
        throw new InvalidRequestException("rules: the rules argument could not be written as JSON: " + e.getOriginalMessage());
      }
    }
    if (a.bool("recommended", false)) {
      catalog = RuleCatalog.recommended().plus(catalog);
    }
    if (catalog.rules().isEmpty() && catalog.broken().isEmpty()) {
      throw new InvalidRequestException("rules: no diagnostic rules supplied. The engine applies no rules or thresholds of "
          + "its own, because what counts as unhealthy depends on the workload. Pass recommended: true, ruleFiles or rules.");
    }
    StageRuleEngine engine;
    try {
      engine = StageRuleEngine.builder().rules(catalog).skipBrokenRules(a.bool("skipBrokenRules", false)).parallelism(1).build();
    } catch (BrokenRuleException e) {
      throw new InvalidRequestException(e.problems() + ". No rule was evaluated: fix "
          + (e.brokenRules().size() == 1 ? "it" : "them") + ", or pass skipBrokenRules: true to run the other rules");
    }
    Optional<SparkSources> other = otherSource(location, false);
    StageDiagnostics result = engine.evaluate(other.isPresent() ? other.get().application(location)
        : EventLogs.reader().sources(sources).build().replay(location));
    if (result.status() == DiagnosticStatus.ERROR) {
      throw new SparkRcaException(result.errorMessage().orElse("the application " + location + " could not be evaluated"));
    }
    return result.toJson(shape);
  }

  /** The sources to read {@code location} with when a source other than the event-log reader reads it (a History Server URL). */
  private Optional<SparkSources> otherSource(String location, boolean strict) {
    SourceSettings settings = SourceSettings.builder().http(http).byteSources(sources).strict(strict).build();
    SparkSources all = SparkSources.builder().settings(settings).loadServiceProviders().build();
    return all.providerFor(location).name().equals("event-log") ? Optional.empty() : Optional.of(all);
  }

  private String tail(Args a) {
    LogStream.Builder b = stream(a);
    a.optionalInteger("windowBytes").ifPresent(b::tailWindowBytes);
    return LogJson.lines("tail", b.build(a.requiredString("uri")).tail(a.integer("lines", DEFAULT_LINES)));
  }

  private String search(Args a) {
    SearchQuery q = query(a, true)
        .withContext(a.integer("before", 5), a.integer("after", 5))
        .withMaxMatches(a.integer("maxMatches", SearchQuery.DEFAULT_MAX_MATCHES));
    return onlyLogsError(logSet().search(logQuery(a).search(q).build())).toJson();
  }

  private String count(Args a) {
    SearchQuery q = query(a, false);
    LogQuery.Builder b = logQuery(a);
    if (q != null) {
      b.search(q);
    }
    return onlyLogsError(logSet().count(b.build())).toJson();
  }

  /**
   * The logs of one search or count, read one after another: an agent's call is one of several the
   * server may be running, so it does not take the machine's cores for itself.
   */
  private LogSet logSet() {
    return LogSet.builder().sources(sources).threads(1).build();
  }

  private static LogQuery.Builder logQuery(Args a) {
    LogQuery.Builder b = LogQuery.builder().strict(a.bool("strict", false));
    a.optionalInteger("maxLineBytes").ifPresent(b::maxLineBytes);
    return b.names(a.strings("uris"));
  }

  /** {@code r}, unless only one log was named and it could not be read: then its error is the call's. */
  private static <R extends LogSetResult<?>> R onlyLogsError(R r) {
    r.failure().ifPresent(e -> {
      throw e;
    });
    return r;
  }

  /** regex or literal (exactly one; for a count, none counts lines). */
  private static SearchQuery query(Args a, boolean required) {
    Optional<String> regex = a.string("regex");
    Optional<String> literal = a.string("literal");
    if (regex.isPresent() && literal.isPresent()) {
      throw new InvalidRequestException("give regex or literal, not both");
    }
    if (regex.isEmpty() && literal.isEmpty()) {
      if (required) {
        throw new InvalidRequestException("give the pattern: regex (RE2 syntax) or literal");
      }
      return null;
    }
    SearchQuery q = regex.map(SearchQuery::regex).orElseGet(() -> SearchQuery.literal(literal.get()));
    return q.withIgnoreCase(a.bool("ignoreCase", false));
  }

  private LogStream.Builder stream(Args a) {
    LogStream.Builder b = LogStream.builder().sources(sources).strict(a.bool("strict", false));
    a.optionalInteger("maxLineBytes").ifPresent(b::maxLineBytes);
    return b;
  }

  private String inspect(Args a) {
    ClassInspector.Builder b = ClassInspector.builder()
        .sources(sources)
        .startLine(a.integer("startLine", 1))
        .followInnerClasses(a.bool("follow", true))
        .maxFollowedClasses(a.integer("maxFollow", 10))
        .findingsOnly(a.bool("findings", false));
    a.optionalInteger("maxLines").ifPresent(b::maxLines);
    a.number("overviewSampling").ifPresent(b::overviewSampling);
    return b.build().inspect(a.requiredString("uri"), a.string("entry").orElse("")).toJson();
  }
}

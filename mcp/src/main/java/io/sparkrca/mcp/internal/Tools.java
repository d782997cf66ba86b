package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogQuery;
import io.sparkrca.core.logs.LogSet;
import io.sparkrca.core.logs.LogSetResult;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceReadProvider;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.rules.BrokenRuleException;
import io.sparkrca.rules.DiagnosticStatus;
import io.sparkrca.rules.OutputContract;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.RulesRequest;
import io.sparkrca.rules.RulesRunner;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.analysis.compare.CompareRequest;
import io.sparkrca.analysis.compare.CompareRunner;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.analysis.rca.RcaRequest;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.core.summary.SummaryRequest;
import io.sparkrca.core.summary.SummaryRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * What each tool does: the same library entry points, bounds and error contract as the command
 * line's commands (rca, compare, summarize, rules, logs, shs, dataproc, k8s, inspect), with the
 * arguments of the tool's input schema. Every method returns the result's JSON text; an error is a {@link SparkRcaException}
 * whose message (redacted) becomes the tool error. The History Server, Dataproc and Kubernetes
 * tools are the {@link SourceReadProvider}s on the class path (sparkrca-mcp holds those modules in
 * runtime scope only): without the module, the tool's call says which one to add.
 *
 * <pre>{@code
 * Tools tools = new Tools(ByteSources.defaults(), HttpSettings.defaults());
 * String json = tools.call("logs_tail", Map.of("uri", "driver.log", "lines", 200));
 * }</pre>
 */
public final class Tools {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DEFAULT_LINES = 50;
  /** The module that answers each provider tool, for the message when it is not on the class path. */
  private static final Map<String, String> PROVIDER_MODULES = Map.of("shs_", "sparkrca-history-server",
      "dataproc_", "sparkrca-gcp", "k8s_", "sparkrca-kubernetes");

  private final ByteSources sources;
  private final HttpSettings http;
  /** The tools the provider modules on the class path answer, by name (see {@link SourceReadProvider}). */
  private final Map<String, SourceReadProvider> reads;

  public Tools(ByteSources sources, HttpSettings http) {
    this.sources = sources;
    this.http = http;
    this.reads = loadReads();
  }

  /** Each read name of the class path's providers, with the provider that answers it. */
  private static Map<String, SourceReadProvider> loadReads() {
    Map<String, SourceReadProvider> out = new TreeMap<>();
    for (SourceReadProvider p : ServiceLoader.load(SourceReadProvider.class, SourceReadProvider.class.getClassLoader())) {
      for (String read : p.reads()) {
        SourceReadProvider before = out.putIfAbsent(read, p);
        if (before != null) {
          throw new SparkRcaException("two providers on the class path answer '" + read + "': " + before.name()
              + " and " + p.name() + "; keep one of their modules");
        }
      }
    }
    return Map.copyOf(out);
  }

  /** Runs tool {@code name} with {@code arguments}; the result is JSON text. */
  public String call(String name, Map<String, Object> arguments) {
    ReadArguments a = new ReadArguments(name, arguments);
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
      case "inspect" -> inspect(a);
      default -> provided(a);
    };
  }

  /** A tool a provider module answers (shs_*, dataproc_*, k8s_*), with the server's HTTP settings and byte sources. */
  private String provided(ReadArguments a) {
    SourceReadProvider p = reads.get(a.read());
    if (p != null) {
      return p.read(a.read(), a, SourceSettings.builder().http(http).byteSources(sources).build());
    }
    for (Map.Entry<String, String> m : PROVIDER_MODULES.entrySet()) {
      if (a.read().startsWith(m.getKey())) {
        // Not the caller's mistake but the server's set-up: say which module makes the tool work.
        throw new SparkRcaException(a.read() + ": this server has no " + m.getValue() + " on its class path; "
            + "run the sparkrca jar (it has every provider), or add " + m.getValue() + " to the server's class path");
      }
    }
    throw new InvalidRequestException("no tool named '" + a.read() + "'");
  }

  private String rca(ReadArguments a) {
    RcaRequest.Builder request = RcaRequest.builder().timeout(Duration.ofSeconds(a.integer("timeoutSeconds", 600)));
    a.string("eventLog").ifPresent(request::application);
    a.string("baseline").ifPresent(request::baseline);
    a.strings("driverLogs").forEach(request::driverLog);
    a.strings("executorLogs").forEach(request::executorLogs);
    a.strings("logs").forEach(request::logs);
    a.strings("code").forEach(request::code);
    RcaRequest r = request.build();
    if (!r.hasSubject()) {
      throw new InvalidRequestException("rca: give the event log (eventLog) or at least one log (driverLogs, executorLogs, logs)");
    }
    RcaRunner.Builder runner = RcaRunner.builder().settings(settings(a));
    List<String> signatures = a.strings("signatures");
    if (!signatures.isEmpty()) {
      KnowledgeBase.Builder kb = KnowledgeBase.builder();
      signatures.forEach(f -> kb.add(Path.of(f)));
      runner.engine(RcaEngine.builder().knowledgeBase(kb.standard().build()).build());
    }
    return runner.build().run(r).toJson();
  }

  private String compare(ReadArguments a) {
    CompareRequest request = CompareRequest.builder(a.requiredString("candidate"), a.requiredString("baseline"))
        .minSlowdown(a.number("minSlowdown").orElse(CompareRequest.DEFAULT_MIN_SLOWDOWN)).build();
    return CompareRunner.builder().settings(settings(a)).build().run(request).toJson();
  }

  private String summarize(ReadArguments a) {
    SummaryRequest request = new SummaryRequest(a.requiredString("eventLog"), a.integer("maxApps", SummaryRequest.DEFAULT_MAX_APPS));
    return SummaryRunner.builder().settings(settings(a)).build().run(request).toJson();
  }

  /** How a tool reads its inputs: the server's byte sources and HTTP settings, and the call's strictness. */
  private SourceSettings settings(ReadArguments a) {
    return SourceSettings.builder().http(http).byteSources(sources).strict(a.bool("strict", false)).build();
  }

  private String rules(ReadArguments a) {
    OutputContract shape = "agent".equals(a.string("contract").orElse("sparkrca")) ? OutputContract.AGENT : OutputContract.SPARKRCA;
    RulesRequest.Builder request = RulesRequest.builder().application(a.requiredString("eventLog"))
        .recommended(a.bool("recommended", false)).skipBrokenRules(a.bool("skipBrokenRules", false));
    a.strings("ruleFiles").forEach(f -> request.ruleFile(Path.of(f)));
    List<Map<?, ?>> inline = a.objects("rules");
    if (!inline.isEmpty()) {
      try {
        request.rules(JSON.writeValueAsString(inline), "the rules argument");
      } catch (JsonProcessingException e) {
        throw new InvalidRequestException("rules: the rules argument could not be written as JSON: " + e.getOriginalMessage());
      }
    }
    RulesRequest r = request.build();
    RuleCatalog catalog = r.catalog();
    if (catalog.rules().isEmpty() && catalog.broken().isEmpty()) {
      throw new InvalidRequestException("rules: no diagnostic rules supplied. The engine applies no rules or thresholds of "
          + "its own, because what counts as unhealthy depends on the workload. Pass recommended: true, ruleFiles or rules.");
    }
    RulesRunner runner = RulesRunner.builder().settings(settings(a)).build();
    StageRuleEngine engine;
    try {
      engine = runner.engine(r);
    } catch (BrokenRuleException e) {
      throw new InvalidRequestException(e.problems() + ". No rule was evaluated: fix "
          + (e.brokenRules().size() == 1 ? "it" : "them") + ", or pass skipBrokenRules: true to run the other rules");
    }
    StageDiagnostics result = engine.evaluate(runner.application(r.application().orElseThrow()));
    if (result.status() == DiagnosticStatus.ERROR) {
      throw new SparkRcaException(result.errorMessage().orElse("the application " + r.application().get() + " could not be evaluated"));
    }
    return result.toJson(shape);
  }

  private String tail(ReadArguments a) {
    LogStream.Builder b = stream(a);
    a.optionalInteger("windowBytes").ifPresent(b::tailWindowBytes);
    return LogJson.lines("tail", b.build(a.requiredString("uri")).tail(a.integer("lines", DEFAULT_LINES)));
  }

  private String search(ReadArguments a) {
    SearchQuery q = query(a, true)
        .withContext(a.integer("before", 5), a.integer("after", 5))
        .withMaxMatches(a.integer("maxMatches", SearchQuery.DEFAULT_MAX_MATCHES));
    return onlyLogsError(logSet().search(logQuery(a).search(q).build())).toJson();
  }

  private String count(ReadArguments a) {
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

  private static LogQuery.Builder logQuery(ReadArguments a) {
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
  private static SearchQuery query(ReadArguments a, boolean required) {
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

  private LogStream.Builder stream(ReadArguments a) {
    LogStream.Builder b = LogStream.builder().sources(sources).strict(a.bool("strict", false));
    a.optionalInteger("maxLineBytes").ifPresent(b::maxLineBytes);
    return b;
  }

  private String inspect(ReadArguments a) {
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

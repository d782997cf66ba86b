package io.sparkrca.analysis.rca;

import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.EvidenceUnavailableException;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.WorkloadEvidenceProvider;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs root-cause analyses: collects the evidence an {@link RcaRequest} names, with the sources
 * and providers it was built with, checks that what the request cannot do without was read, and
 * analyzes it with its {@link RcaEngine}. Every front door (the command line, the MCP server, a
 * fleet scan, the Spark listener, the test assertions) runs its analyses through one, so they agree.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * RcaRunner runner = RcaRunner.builder().settings(SourceSettings.defaults()).build();
 * RcaReport report = runner.run(RcaRequest.builder().application("gs://bucket/events/app-1").build());
 * RcaReport another = runner.run(EventLogs.replay(Path.of("/logs/app-2")), "/logs/app-2");
 * }</pre>
 */
public final class RcaRunner {
  /** The sources given, or empty to make them from {@link #settings} when a request needs them. */
  private final Optional<SparkSources> sources;
  private final SourceSettings settings;
  private final RcaEngine engine;
  private final Optional<WorkloadEvidenceProvider> workloads;
  private final List<ClusterEvidenceProvider> clusters;

  private RcaRunner(Builder b) {
    this.sources = Optional.ofNullable(b.sources);
    this.settings = b.settings;
    this.engine = b.engine;
    this.workloads = b.workloads;
    this.clusters = List.copyOf(b.clusters);
  }

  /** A runner with the default settings, the class path's providers and the standard engine. */
  public static RcaRunner standard() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The engine analyses run on. */
  public RcaEngine engine() {
    return engine;
  }

  /**
   * Collects the evidence the request names and analyzes it. What could not be collected is in the
   * report as missing evidence, except what the request cannot be answered without.
   *
   * @throws InvalidRequestException when the request names nothing to analyze
   * @throws EvidenceUnavailableException when the application named could not be read and nothing
   *     else was given, the baseline could not be read, or the workload could not be described
   */
  public RcaReport run(RcaRequest request) {
    Objects.requireNonNull(request, "request");
    if (!request.hasSubject()) {
      throw new InvalidRequestException("nothing to analyze: give the application (an event log or any source's URI), "
          + "a workload, or at least one log");
    }
    EvidenceCollector.Builder b = EvidenceCollector.builder()
        .sources(sources.orElseGet(() -> SparkSources.builder().settings(settings).loadServiceProviders().build()))
        .timeout(request.timeout())
        .signatures(engine.knowledgeBase() == KnowledgeBase.standard() ? LogSignatures.standard()
            : LogSignatures.of(engine.knowledgeBase()));
    if (request.workload().isPresent()) {
      b.workloadEvidence(workloads.orElseThrow(() -> new InvalidRequestException("the workload "
          + Redactor.redactUri(request.workload().get()) + " needs a workload evidence provider (a platform module's, "
          + "given to RcaRunner.Builder.workloadEvidence)"))).workload(request.workload().get());
    }
    request.application().ifPresent(b::application);
    request.baseline().ifPresent(b::baseline);
    request.driverLogs().forEach(b::driverLog);
    request.executorLogs().forEach(b::executorLogs);
    request.logs().forEach(b::logs);
    request.code().forEach(b::code);
    clusters.forEach(b::clusterEvidence);
    Evidence evidence = b.build().collect();
    check(request, evidence);
    return engine.analyze(evidence);
  }

  /** Analyzes an application already read (a fleet scan's, a listener's), with no logs. */
  public RcaReport run(SparkApplication app, String source) {
    return run(Evidence.of(Objects.requireNonNull(app, "app"), Objects.requireNonNull(source, "source")));
  }

  /** Analyzes evidence already collected (a listener's, a fleet scan's with its notes). */
  public RcaReport run(Evidence evidence) {
    return engine.analyze(Objects.requireNonNull(evidence, "evidence"));
  }

  /** What the request cannot be answered without: an error naming it, not a report of missing evidence. */
  private static void check(RcaRequest request, Evidence evidence) {
    if (request.workload().isPresent()) {
      Optional<EvidenceGap> g = evidence.gaps(EvidenceKind.WORKLOAD).stream().findFirst();
      if (g.isPresent()) {
        throw new EvidenceUnavailableException("", g.get());
      }
    }
    if (request.application().isPresent() && evidence.application().isEmpty() && evidence.logs().isEmpty()) {
      // Nothing at all to analyze: an input error, not an undetermined root cause.
      String uri = Redactor.redactUri(request.application().get());
      EvidenceGap g = evidence.gaps(EvidenceKind.EVENT_LOG).stream().findFirst().orElseGet(() ->
          new EvidenceGap(EvidenceKind.EVENT_LOG, uri, GapReason.ERROR, "the event log " + uri + " could not be read", ""));
      throw new EvidenceUnavailableException("", g);
    }
    if (request.baseline().isPresent() && evidence.baseline().isEmpty()) {
      EvidenceGap g = evidence.gaps(EvidenceKind.BASELINE).stream().findFirst().orElseGet(() ->
          new EvidenceGap(EvidenceKind.BASELINE, Redactor.redactUri(request.baseline().get()), GapReason.ERROR,
              "it could not be read", ""));
      throw new EvidenceUnavailableException("the baseline " + g.uri() + " could not be read: ",
          new EvidenceGap(g.kind(), g.what(), "", g.reason(), g.detail(), "", g.remedy()));
    }
  }

  /** Builder for an {@link RcaRunner}. */
  public static final class Builder {
    private SparkSources sources;
    private SourceSettings settings = SourceSettings.defaults();
    private RcaEngine engine = RcaEngine.standard();
    private Optional<WorkloadEvidenceProvider> workloads = Optional.empty();
    private final List<ClusterEvidenceProvider> clusters = new ArrayList<>();

    private Builder() {}

    /** Where applications are read from (default: the class path's providers with {@link #settings}). */
    public Builder sources(SparkSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** How inputs are read when {@link #sources} is not given (credentials, byte sources, strictness). */
    public Builder settings(SourceSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The engine (default {@link RcaEngine#standard()}). */
    public Builder engine(RcaEngine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
      return this;
    }

    /** What describes a request's workload (a platform module's provider, e.g. Dataproc's). */
    public Builder workloadEvidence(WorkloadEvidenceProvider provider) {
      this.workloads = Optional.of(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** A cluster manager's records to add to every analysis (a Kubernetes namespace's, say). */
    public Builder clusterEvidence(ClusterEvidenceProvider provider) {
      clusters.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    public RcaRunner build() {
      return new RcaRunner(this);
    }
  }
}

package io.sparkrca.rules;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.util.Objects;

/**
 * Evaluates rules on an application: builds the engine from a {@link RulesRequest}'s rules, reads
 * the application (an event log replayed, or another source's application), and evaluates. Every
 * front door evaluates rules through one. Immutable and thread-safe.
 *
 * <pre>{@code
 * RulesRunner runner = RulesRunner.builder().settings(SourceSettings.defaults()).parallelism(4).build();
 * StageDiagnostics d = runner.run(RulesRequest.builder().application("gs://b/events/app-1").ruleFile(Path.of("rules.json")).build());
 * }</pre>
 */
public final class RulesRunner {
  private final SourceSettings settings;
  private final SparkSources sources;
  private final int parallelism;

  private RulesRunner(Builder b) {
    this.settings = b.settings;
    this.sources = SparkSources.builder().settings(b.settings).loadServiceProviders().build();
    this.parallelism = b.parallelism;
  }

  /** A runner with the default settings, evaluating on one thread. */
  public static RulesRunner standard() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The engine the request's rules make. @throws BrokenRuleException when rules are broken and not skipped */
  public StageRuleEngine engine(RulesRequest request) {
    return StageRuleEngine.builder().rules(request.catalog()).skipBrokenRules(request.skipBrokenRules())
        .parallelism(parallelism).build();
  }

  /**
   * Evaluates the request's rules on its application.
   *
   * @throws BrokenRuleException when rules are broken and not skipped (no rule was evaluated)
   * @throws io.sparkrca.core.error.SparkRcaException when the application cannot be read
   */
  public StageDiagnostics run(RulesRequest request) {
    Objects.requireNonNull(request, "request");
    String uri = request.application().orElseThrow(() -> new io.sparkrca.core.error.InvalidRequestException(
        "a rules request needs the application to evaluate (RulesRequest.Builder.application)"));
    StageRuleEngine engine = engine(request);
    return engine.evaluate(application(uri));
  }

  /** The application at {@code uri}: another source's, or an event log replayed. */
  public SparkApplication application(String uri) {
    if (!sources.providerFor(uri).fallback()) {
      return sources.application(uri);
    }
    return EventLogs.reader().sources(settings.byteSources()).build().replay(uri);
  }

  /** Builder for a {@link RulesRunner}. */
  public static final class Builder {
    private SourceSettings settings = SourceSettings.defaults();
    private int parallelism = 1;

    private Builder() {}

    /** How the application is read (credentials, byte sources). */
    public Builder settings(SourceSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Threads evaluating stages (default 1). */
    public Builder parallelism(int threads) {
      if (threads < 1) {
        throw new io.sparkrca.core.error.InvalidRequestException("parallelism must be at least 1, not " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    public RulesRunner build() {
      return new RulesRunner(this);
    }
  }
}

package io.sparkrca.analysis.compare;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Runs comparisons of two runs: reads both at once (a comparison then costs about one read of wall
 * time on two cores), and compares them. Every front door compares through one. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * CompareRunner runner = CompareRunner.builder().settings(SourceSettings.defaults()).build();
 * Comparison c = runner.run(CompareRequest.builder("gs://b/events/app-2", "gs://b/events/app-1").build());
 * }</pre>
 */
public final class CompareRunner {
  private final SourceSettings settings;
  private final SparkSources sources;

  private CompareRunner(Builder b) {
    this.settings = b.settings;
    this.sources = SparkSources.builder().settings(b.settings).loadServiceProviders().build();
  }

  /** A runner with the default settings and the class path's providers. */
  public static CompareRunner standard() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads both runs and compares them.
   *
   * @throws SparkRcaException when either run cannot be read (the baseline's message says it is the baseline's)
   */
  public Comparison run(CompareRequest request) {
    Objects.requireNonNull(request, "request");
    CompletableFuture<SparkApplication> base = CompletableFuture.supplyAsync(() -> sources.application(request.baseline()));
    SparkApplication candidate;
    SparkApplication baseline;
    try {
      candidate = sources.application(request.candidate());
      baseline = base.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof SparkRcaException s) {
        throw SparkRcaException.within("the baseline " + Redactor.redactUri(request.baseline()) + ": ", s);
      }
      throw e;
    }
    Comparison.Builder b = Comparison.builder(candidate, baseline).sources(request.candidate(), request.baseline())
        .settings(settings).minSlowdown(request.minSlowdown());
    request.code().forEach(p -> b.code(p.candidate(), p.baseline()));
    return b.compare();
  }

  /** Builder for a {@link CompareRunner}. */
  public static final class Builder {
    private SourceSettings settings = SourceSettings.defaults();

    private Builder() {}

    /** How both runs and their code are read (credentials, byte sources, strictness). */
    public Builder settings(SourceSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    public CompareRunner build() {
      return new CompareRunner(this);
    }
  }
}

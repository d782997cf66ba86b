package io.sparkrca.core.source;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings every source of applications shares: how to reach remote servers ({@link
 * HttpSettings}: credentials, CAs, timeouts, retries), how to open bytes ({@link ByteSources}:
 * local files, http(s), and whatever providers are on the class path, such as Cloud Storage), and
 * whether damaged input is fatal.
 *
 * <pre>{@code
 * SourceSettings settings = SourceSettings.builder()
 *     .http(HttpSettings.builder().bearerTokenFromEnv("SHS_TOKEN").build())
 *     .strict(true)
 *     .build();
 * SparkApplication app = SparkSources.builder().settings(settings).build().application(uri);
 * }</pre>
 */
public final class SourceSettings {
  /**
   * The default of {@link Builder#readThreads}: 2 where there are two processors or more, unless
   * {@code -Dsparkrca.replay.threads=1}.
   */
  public static final int DEFAULT_READ_THREADS =
      !"1".equals(System.getProperty("sparkrca.replay.threads"))
              && Runtime.getRuntime().availableProcessors() >= 2
          ? 2
          : 1;

  private final HttpSettings http;
  private final ByteSources byteSources;
  private final boolean strict;
  private final int readThreads;

  private SourceSettings(Builder b) {
    this.http = b.http;
    this.byteSources = b.byteSources.orElseGet(() ->
        ByteSources.builder().loadServiceProviders().add(HttpByteSourceProvider.of(b.http)).build());
    this.strict = b.strict;
    this.readThreads = b.readThreads;
  }

  /** Default HTTP settings, the class path's byte sources, damaged records skipped and reported. */
  public static SourceSettings defaults() {
    return Defaults.INSTANCE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** How remote sources reach their servers. */
  public HttpSettings http() {
    return http;
  }

  /** How URIs are opened as bytes (logs, event logs, JARs). */
  public ByteSources byteSources() {
    return byteSources;
  }

  /** Whether a damaged record (a bad event-log line) fails the read instead of being skipped. */
  public boolean strict() {
    return strict;
  }

  /** How many threads one read may keep busy (see {@link Builder#readThreads}). */
  public int readThreads() {
    return readThreads;
  }

  /** Builder for {@link SourceSettings}. */
  public static final class Builder {
    private HttpSettings http = HttpSettings.defaults();
    private Optional<ByteSources> byteSources = Optional.empty();
    private boolean strict;
    private int readThreads = DEFAULT_READ_THREADS;

    private Builder() {}

    /** HTTP settings (default {@link HttpSettings#defaults()}); also used for http(s) byte sources. */
    public Builder http(HttpSettings settings) {
      this.http = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * The byte sources to open URIs with (default: the class path's providers, then http(s) with
     * {@link #http}'s settings, then local files).
     */
    public Builder byteSources(ByteSources sources) {
      this.byteSources = Optional.of(Objects.requireNonNull(sources, "sources"));
      return this;
    }

    /** Fail on the first damaged record instead of skipping it (default false). */
    public Builder strict(boolean strict) {
      this.strict = strict;
      return this;
    }

    /**
     * How many threads one read may keep busy, 1 or 2 (default 2 on a machine with two or more
     * processors): an event-log replay reads and decodes its file on a second thread when given 2.
     * A caller that runs reads side by side, one per core, gives 1 (a fleet scan does): each read
     * then stays on its calling thread, which finishes the lot sooner.
     *
     * @throws InvalidRequestException when {@code threads} is not 1 or 2
     */
    public Builder readThreads(int threads) {
      if (threads < 1 || threads > 2) {
        throw new InvalidRequestException("read threads must be 1 or 2, not " + threads);
      }
      this.readThreads = threads;
      return this;
    }

    public SourceSettings build() {
      return new SourceSettings(this);
    }
  }

  /** Made on first use: building them loads every byte-source provider on the class path, which a caller with its own settings never needs. */
  private static final class Defaults {
    static final SourceSettings INSTANCE = builder().build();
  }
}

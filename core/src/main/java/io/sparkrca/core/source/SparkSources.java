package io.sparkrca.core.source;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Opens applications from any source by URI: asks each {@link SparkHistoryProvider} in turn
 * (those added explicitly, then those found with {@link ServiceLoader}, then the {@linkplain
 * SparkHistoryProvider#fallback() fallbacks}: event logs) and uses the first that supports the URI.
 * Immutable and safe to share.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("gs://bucket/spark-events/app-1");
 *
 * SparkSources sources = SparkSources.builder()
 *     .settings(SourceSettings.builder().http(HttpSettings.builder().bearerTokenFromEnv("TOKEN").build()).build())
 *     .loadServiceProviders()
 *     .build();
 * SparkHistory all = sources.history("/tmp/spark-events");
 * }</pre>
 */
public final class SparkSources {
  private static final SparkSources DEFAULTS = builder().loadServiceProviders().build();

  private final List<SparkHistoryProvider> providers;
  private final SourceSettings settings;

  private SparkSources(List<SparkHistoryProvider> providers, SourceSettings settings) {
    this.providers = List.copyOf(providers);
    this.settings = settings;
  }

  /** The class path's providers, then the fallbacks (event logs), with default settings. */
  public static SparkSources defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The settings every provider is opened with. */
  public SourceSettings settings() {
    return settings;
  }

  /** The providers, in the order they are asked. */
  public List<SparkHistoryProvider> providers() {
    return providers;
  }

  /** The provider that reads {@code uri}. */
  public SparkHistoryProvider providerFor(String uri) {
    Objects.requireNonNull(uri, "uri");
    for (SparkHistoryProvider p : providers) {
      if (p.supports(uri)) {
        return p;
      }
    }
    List<String> names = providers.stream().map(SparkHistoryProvider::name).toList();
    throw new UnsupportedInputException(
        "no source of Spark applications reads " + uri + " (sources: " + String.join(", ", names)
            + "); give an event-log path or URL, or add the module of that source to the class path");
  }

  /** The applications at {@code uri}. */
  public SparkHistory history(String uri) {
    return providerFor(uri).open(uri, settings);
  }

  /** The one application at {@code uri}; an error naming the applications if there are several. */
  public SparkApplication application(String uri) {
    return providerFor(uri).application(uri, settings);
  }

  /** Builder for {@link SparkSources}. */
  public static final class Builder {
    private final List<SparkHistoryProvider> explicit = new ArrayList<>();
    private boolean serviceProviders;
    private SourceSettings settings = SourceSettings.defaults();

    private Builder() {}

    /** Adds a provider, asked before those found on the class path. */
    public Builder add(SparkHistoryProvider provider) {
      explicit.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** Also asks the providers found with {@link ServiceLoader} (after the explicit ones). */
    public Builder loadServiceProviders() {
      this.serviceProviders = true;
      return this;
    }

    /** The settings providers are opened with (default {@link SourceSettings#defaults()}). */
    public Builder settings(SourceSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    public SparkSources build() {
      List<SparkHistoryProvider> all = new ArrayList<>(explicit);
      if (serviceProviders) {
        for (SparkHistoryProvider p : ServiceLoader.load(SparkHistoryProvider.class)) {
          if (!p.fallback()) {
            all.add(p);
          }
        }
      }
      all.addAll(Fallbacks.listed());
      return new SparkSources(all, settings);
    }
  }

  /**
   * The fallbacks sparkrca-core lists in its own services file, found through its own class
   * loader, so that they are there whatever the context class loader sees.
   */
  private static final class Fallbacks {
    private static final List<SparkHistoryProvider> LISTED = load();

    /** The fallbacks; a jar that lost core's services file has none, and says how to repair it. */
    static List<SparkHistoryProvider> listed() {
      if (LISTED.isEmpty()) {
        throw new SparkRcaException("sparkrca-core's event-log source is missing: its META-INF/services/"
            + SparkHistoryProvider.class.getName() + " is not on the class path, as in a jar repackaged without "
            + "merging service files; merge them (the shade plugin's ServicesResourceTransformer)");
      }
      return LISTED;
    }

    private static List<SparkHistoryProvider> load() {
      List<SparkHistoryProvider> out = new ArrayList<>();
      for (SparkHistoryProvider p : ServiceLoader.load(SparkHistoryProvider.class, SparkHistoryProvider.class.getClassLoader())) {
        if (p.fallback()) {
          out.add(p);
        }
      }
      return List.copyOf(out);
    }
  }
}

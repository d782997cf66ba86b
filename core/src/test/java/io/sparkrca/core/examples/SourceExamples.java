package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceReadProvider;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkHistoryProvider;
import io.sparkrca.core.source.SparkSources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.core.source}, compiled (see {@link JavadocExamplesTest}). */
class SourceExamples {
  /** The example of {@code SourceSettings}. */
  void sourceSettings(String uri) throws Exception {
    SourceSettings settings = SourceSettings.builder()
        .http(HttpSettings.builder().bearerTokenFromEnv("SHS_TOKEN").build())
        .strict(true)
        .build();
    SparkApplication app = SparkSources.builder().settings(settings).build().application(uri);
  }

  /** The example of {@code SparkHistoryProvider}. */
  public final class MyHistoryProvider implements SparkHistoryProvider {
    public String name() { return "my-history"; }
    public boolean supports(String uri) { return uri.startsWith("myhist://"); }
    public SparkHistory open(String uri, SourceSettings settings) { return new MyHistory(uri, settings.http()); }
  }

  /** The history the example of {@code SparkHistoryProvider} opens. */
  record MyHistory(String uri, HttpSettings http) implements SparkHistory {
    @Override
    public List<ApplicationInfo> applications() {
      return List.of();
    }

    @Override
    public Optional<SparkApplication> application(String appId, Optional<String> attemptId) {
      return Optional.empty();
    }
  }

  /** The example of {@code SparkSources}. */
  void sparkSources() throws Exception {
    SparkApplication app = SparkSources.defaults().application("gs://bucket/spark-events/app-1");

    SparkSources sources = SparkSources.builder()
        .settings(SourceSettings.builder().http(HttpSettings.builder().bearerTokenFromEnv("TOKEN").build()).build())
        .loadServiceProviders()
        .build();
    SparkHistory all = sources.history("/tmp/spark-events");
  }

  /** The example of {@code io.sparkrca.core.source}. */
  void overview() throws Exception {
    SparkApplication app = SparkSources.defaults().application("/tmp/spark-events/app-1.zstd");
  }

  /** The example of {@code ReadArguments}. */
  void readArguments() throws Exception {
    ReadArguments a = new ReadArguments("logs_head", Map.of("uri", "driver.log", "lines", 200));
    int n = a.integer("lines", 50);
  }

  /** The example of {@code SourceReadProvider}. */
  public final class MyPlatformReads implements SourceReadProvider {
    public String name() { return "my-platform"; }
    public Set<String> reads() { return Set.of("my_jobs"); }
    public String read(String read, ReadArguments arguments, SourceSettings settings) {
      return "{\"jobs\": []}";
    }
  }
}

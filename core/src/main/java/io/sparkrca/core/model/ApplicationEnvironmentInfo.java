package io.sparkrca.core.model;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The application's environment: runtime, Spark, Hadoop, system and metrics properties, class
 * path and resource profiles. Properties are (key, value) pairs sorted by key, written as
 * two-element JSON arrays like the History Server; secret values are already redacted.
 *
 * <pre>{@code
 * Optional<String> aqe = app.environment().flatMap(env -> env.sparkProperty("spark.sql.adaptive.enabled"));
 * }</pre>
 */
public record ApplicationEnvironmentInfo(
    RuntimeInfo runtime,
    @JsonSerialize(contentUsing = PropertySerializer.class) @com.fasterxml.jackson.databind.annotation.JsonDeserialize(contentUsing = PropertyDeserializer.class) List<Map.Entry<String, String>> sparkProperties,
    @JsonSerialize(contentUsing = PropertySerializer.class) @com.fasterxml.jackson.databind.annotation.JsonDeserialize(contentUsing = PropertyDeserializer.class) List<Map.Entry<String, String>> hadoopProperties,
    @JsonSerialize(contentUsing = PropertySerializer.class) @com.fasterxml.jackson.databind.annotation.JsonDeserialize(contentUsing = PropertyDeserializer.class) List<Map.Entry<String, String>> systemProperties,
    @JsonSerialize(contentUsing = PropertySerializer.class) @com.fasterxml.jackson.databind.annotation.JsonDeserialize(contentUsing = PropertyDeserializer.class) List<Map.Entry<String, String>> metricsProperties,
    @JsonSerialize(contentUsing = PropertySerializer.class) @com.fasterxml.jackson.databind.annotation.JsonDeserialize(contentUsing = PropertyDeserializer.class) List<Map.Entry<String, String>> classpathEntries,
    List<ResourceProfileInfo> resourceProfiles) {
  public ApplicationEnvironmentInfo {
    sparkProperties = List.copyOf(sparkProperties);
    hadoopProperties = List.copyOf(hadoopProperties);
    systemProperties = List.copyOf(systemProperties);
    metricsProperties = List.copyOf(metricsProperties);
    classpathEntries = List.copyOf(classpathEntries);
    resourceProfiles = List.copyOf(resourceProfiles);
  }

  /** The value of one Spark property, if set. */
  public Optional<String> sparkProperty(String key) {
    for (Map.Entry<String, String> e : sparkProperties) {
      if (e.getKey().equals(key)) {
        return Optional.of(e.getValue());
      }
    }
    return Optional.empty();
  }
}

package io.sparkrca.core.knowledge;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a senior engineer would do about a failure family: the action, why it helps, and the
 * properties to set with their values, per platform where they differ.
 *
 * <pre>{@code
 * Fix fix = kb.family("result-too-large").orElseThrow().fix();
 * fix.properties("yarn").forEach(p -> System.out.println("--conf " + p.name() + "=" + p.value()));
 * }</pre>
 *
 * @param action what to do, in one or two sentences
 * @param rationale why it helps
 * @param properties the Spark properties to set
 */
public record Fix(String action, String rationale, List<Property> properties) {
  public Fix {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(rationale, "rationale");
    properties = List.copyOf(properties);
  }

  /** The properties that apply on {@code platform} (those for any platform, and those for it). */
  public List<Property> properties(String platform) {
    return properties.stream().filter(p -> p.platforms().isEmpty() || p.platforms().contains(platform)).toList();
  }

  /**
   * A property to set.
   *
   * @param name the Spark property, e.g. {@code spark.driver.maxResultSize}
   * @param value the value to set; a starting point where the right value depends on the run
   * @param why what the value does
   * @param platforms where it applies; empty for every platform
   */
  public record Property(String name, String value, String why, Set<String> platforms) {
    public Property {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(why, "why");
      platforms = Set.copyOf(platforms);
    }
  }
}

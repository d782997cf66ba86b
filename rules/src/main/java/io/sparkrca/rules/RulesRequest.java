package io.sparkrca.rules;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which rules to evaluate on which application: rule files, rules given as JSON, the recommended
 * catalog, and whether broken rules are skipped (each a warning) rather than refused. Immutable.
 *
 * <pre>{@code
 * RulesRequest request = RulesRequest.builder().application("/tmp/spark-events/app-1").recommended(true).build();
 * StageDiagnostics d = RulesRunner.standard().run(request);
 * System.out.println(d.status());
 * }</pre>
 */
public final class RulesRequest {
  /**
   * Rules given as a JSON document, and the name messages give it.
   *
   * @param json a rule, a list of rules, or a catalog document
   * @param name what to call it in messages, e.g. {@code "--rule"}
   */
  public record InlineRules(String json, String name) {
    public InlineRules {
      Objects.requireNonNull(json, "json");
      Objects.requireNonNull(name, "name");
    }
  }

  private final java.util.Optional<String> application;
  private final List<Path> ruleFiles;
  private final List<InlineRules> inline;
  private final boolean recommended;
  private final boolean skipBrokenRules;

  private RulesRequest(Builder b) {
    this.application = b.application;
    this.ruleFiles = List.copyOf(b.ruleFiles);
    this.inline = List.copyOf(b.inline);
    this.recommended = b.recommended;
    this.skipBrokenRules = b.skipBrokenRules;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The application the rules are evaluated on (an event log, or any source's URI). */
  public java.util.Optional<String> application() {
    return application;
  }

  public List<Path> ruleFiles() {
    return ruleFiles;
  }

  public List<InlineRules> inline() {
    return inline;
  }

  /** Whether the recommended catalog is evaluated too (before the given rules). */
  public boolean recommended() {
    return recommended;
  }

  /** Whether broken rules are skipped, each a warning, instead of refusing to evaluate. */
  public boolean skipBrokenRules() {
    return skipBrokenRules;
  }

  /** The rules the request names: the files', the inline ones, and the recommended catalog first when asked. */
  public RuleCatalog catalog() {
    RuleCatalog catalog = RuleCatalog.of(List.of());
    for (Path f : ruleFiles) {
      catalog = catalog.plus(RuleCatalog.load(f));
    }
    for (InlineRules r : inline) {
      catalog = catalog.plus(RuleCatalog.parse(r.json(), r.name()));
    }
    return recommended ? RuleCatalog.recommended().plus(catalog) : catalog;
  }

  /** Builder for a {@link RulesRequest}. */
  public static final class Builder {
    private java.util.Optional<String> application = java.util.Optional.empty();
    private final List<Path> ruleFiles = new ArrayList<>();
    private final List<InlineRules> inline = new ArrayList<>();
    private boolean recommended;
    private boolean skipBrokenRules;

    private Builder() {}

    public Builder application(String uri) {
      this.application = java.util.Optional.of(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder ruleFile(Path file) {
      ruleFiles.add(Objects.requireNonNull(file, "file"));
      return this;
    }

    public Builder rules(String json, String name) {
      inline.add(new InlineRules(json, name));
      return this;
    }

    public Builder recommended(boolean recommended) {
      this.recommended = recommended;
      return this;
    }

    public Builder skipBrokenRules(boolean skip) {
      this.skipBrokenRules = skip;
      return this;
    }

    public RulesRequest build() {
      return new RulesRequest(this);
    }
  }
}

package io.sparkrca.rules;

import io.sparkrca.core.report.Severity;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.SparkRcaException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A list of rules, read from the JSON rule format (a list of
 * {@code {ruleId, description, expression, detail?, remediation?, severity?, advice?}} objects,
 * the Dataproc agent's format plus {@code severity} and {@code advice}, a list of
 * {@code {when, stageWhen?, text}} objects described in {@link Advice}), with the entries that
 * could not be read as rules. Elements that are not objects, or have no expression, are kept
 * aside as {@link BrokenRule}s rather than failing the whole list (an engine refuses them unless
 * it skips broken rules); a rule without an id gets {@code UNNAMED_RULE_<position>}.
 *
 * <pre>{@code
 * RuleCatalog mine = RuleCatalog.load(Path.of("rules.json"));
 * RuleCatalog all = RuleCatalog.recommended().plus(mine);
 * all.rules().forEach(r -> System.out.println(r.ruleId() + " " + r.severity()));
 * }</pre>
 *
 * @param rules the usable rules, in file order
 * @param broken the entries that are not usable rules, and why, in file order
 */
public record RuleCatalog(List<StageRule> rules, List<BrokenRule> broken) {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final String RESOURCE = "recommended-rules.json";

  public RuleCatalog {
    rules = List.copyOf(rules);
    broken = List.copyOf(broken);
  }

  /** The broken entries as the warnings of an engine that skips them, one line each. */
  public List<String> warnings() {
    return broken.stream().map(BrokenRule::warning).toList();
  }

  /** A catalog of the given rules. */
  public static RuleCatalog of(List<StageRule> rules) {
    return new RuleCatalog(rules, List.of());
  }

  /**
   * The recommended catalog shipped with sparkrca: the Dataproc agent catalog's rules and the
   * heuristics of Dr. Elephant, Sparklens, DataFlint and spark-advisor, each with a magnitude floor
   * so that short stages never fire, a severity and a remediation. Opt-in: an engine uses it only
   * when asked.
   */
  public static RuleCatalog recommended() {
    try (InputStream in = RuleCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new SparkRcaException(
            "the recommended rule catalog (" + RESOURCE + ") is missing from the sparkrca-rules jar: "
                + "the jar is damaged or was repackaged without its resources; use the published jar");
      }
      RuleCatalog c = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
      if (!c.broken().isEmpty()) {
        // The tests check the shipped catalog, so only a damaged jar gets here.
        throw new SparkRcaException(
            "the recommended rule catalog (" + RESOURCE + ") in the sparkrca-rules jar is broken: "
                + c.warnings() + "; use the published jar");
      }
      return c;
    } catch (IOException e) {
      throw IoErrors.translate("the recommended rule catalog (" + RESOURCE + ")", e);
    }
  }

  /**
   * Reads a rule file.
   *
   * @throws io.sparkrca.core.error.InputNotFoundException when it does not exist
   * @throws io.sparkrca.core.error.AccessDeniedException when it may not be read
   * @throws RuleFileException when it is not JSON, or not a list of rule objects
   * @throws SparkRcaException when it cannot be read otherwise (not UTF-8, an I/O error)
   */
  public static RuleCatalog load(Path file) {
    java.util.Objects.requireNonNull(file, "file");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new RuleFileException(
          "rule file " + file + " is not UTF-8 text (" + e + "); save it as UTF-8 JSON");
    } catch (IOException e) {
      throw IoErrors.translate("rule file " + file, e);
    }
    return parse(text, "rule file " + file);
  }

  /**
   * Reads rules from JSON text: a list of rule objects, or one rule object. {@code source} names
   * the text in error messages, for example {@code "inline rules"}.
   */
  public static RuleCatalog parse(String json, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new RuleFileException(
          source + " is not valid JSON: " + e.getOriginalMessage()
              + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }
    if (root != null && root.isObject()) {
      JsonNode wrapped = JSON.createArrayNode().add(root);
      root = wrapped;
    }
    if (root == null || !root.isArray()) {
      throw new RuleFileException(
          source + " must be a JSON list of {\"ruleId\", \"description\", \"expression\"} objects.");
    }
    List<StageRule> rules = new ArrayList<>();
    List<BrokenRule> broken = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode n = root.get(i);
      if (!n.isObject()) {
        String repr = n.isTextual() ? "'" + n.textValue() + "'" : n.toString();
        broken.add(entry("#" + (i + 1), "a rule must be a JSON object, not " + cut(repr, 100)));
        continue;
      }
      String id = text(n, "ruleId").filter(s -> !s.isEmpty()).orElse("UNNAMED_RULE_" + (i + 1));
      JsonNode expr = n.get("expression");
      if (expr == null || !expr.isTextual()) {
        broken.add(entry(id, "rule is missing an 'expression' string"));
        continue;
      }
      JsonNode detail = n.get("detail");
      if (detail != null && !detail.isNull() && !detail.isTextual()) {
        broken.add(entry(id, "'detail' must be a CEL expression string, not " + cut(detail.toString(), 100)));
        continue;
      }
      Severity severity = Severity.MEDIUM;
      Optional<String> sev = text(n, "severity");
      if (sev.isPresent()) {
        try {
          severity = Severity.parse(sev.get());
        } catch (InvalidRequestException e) {
          broken.add(entry(id, e.getMessage()));
          continue;
        }
      }
      List<Advice> advice = new ArrayList<>();
      JsonNode adv = n.get("advice");
      if (adv != null && !adv.isNull()) {
        if (!adv.isArray()) {
          broken.add(entry(id, "'advice' must be a list of {\"when\", \"stageWhen\"?, \"text\"} objects"));
          continue;
        }
        boolean ok = true;
        for (JsonNode a : adv) {
          if (!a.isObject() || !a.path("text").isTextual() || a.path("text").textValue().isBlank()) {
            ok = false;
            break;
          }
          advice.add(new Advice(a.path("when").asText(""), a.path("stageWhen").asText(""), a.get("text").textValue()));
        }
        if (!ok) {
          broken.add(entry(id, "'advice' must be a list of {\"when\", \"stageWhen\"?, \"text\"} objects"));
          continue;
        }
      }
      rules.add(
          new StageRule(
              id,
              text(n, "description").orElse(""),
              expr.textValue(),
              detail == null || detail.isNull() ? Optional.empty() : Optional.of(detail.textValue()),
              text(n, "remediation").orElse(StageRule.DEFAULT_REMEDIATION),
              severity,
              advice));
    }
    return new RuleCatalog(rules, broken);
  }

  /** This catalog followed by {@code other}. */
  public RuleCatalog plus(RuleCatalog other) {
    List<StageRule> r = new ArrayList<>(rules);
    r.addAll(other.rules);
    List<BrokenRule> b = new ArrayList<>(broken);
    b.addAll(other.broken);
    return new RuleCatalog(r, b);
  }

  /** The rule with this id, if any. */
  public Optional<StageRule> rule(String ruleId) {
    return rules.stream().filter(r -> r.ruleId().equals(ruleId)).findFirst();
  }

  /** This catalog as a JSON rule file. */
  public String toJson() {
    var arr = JSON.createArrayNode();
    for (StageRule r : rules) {
      var o = arr.addObject();
      o.put("ruleId", r.ruleId());
      o.put("description", r.description());
      o.put("severity", r.severity().name());
      o.put("expression", r.expression());
      r.detail().ifPresent(d -> o.put("detail", d));
      o.put("remediation", r.remediation());
      if (!r.advice().isEmpty()) {
        var a = o.putArray("advice");
        for (Advice ad : r.advice()) {
          var x = a.addObject().put("when", ad.when());
          if (!ad.stageWhen().isEmpty()) {
            x.put("stageWhen", ad.stageWhen());
          }
          x.put("text", ad.text());
        }
      }
    }
    return io.sparkrca.core.json.JsonText.indented(arr, "the rules");
  }

  private static BrokenRule entry(String id, String why) {
    return new BrokenRule(id, BrokenRule.Part.ENTRY, why);
  }

  static String skipped(String id, String why) {
    return "rule '" + id + "' could not be evaluated and was skipped: " + why;
  }

  private static Optional<String> text(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.isTextual() ? v.textValue() : v.toString());
  }

  static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }
}

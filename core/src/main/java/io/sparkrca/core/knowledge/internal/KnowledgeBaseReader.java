package io.sparkrca.core.knowledge.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.knowledge.BrokenKnowledgeBaseException;
import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.Fix;
import io.sparkrca.core.knowledge.Signal;
import io.sparkrca.core.knowledge.Wording;
import io.sparkrca.core.knowledge.RootCauseKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one knowledge-base document and checks it whole: every problem is collected (the entry,
 * the field, what is wrong), and a document with any problem is refused with all of them, so a
 * user fixes their file in one round. Unknown fields are problems too: a misspelt {@code
 * "decisve": true} must not silently make a wording suggestive.
 */
public final class KnowledgeBaseReader {
  /** The schema version this reader understands. */
  public static final int SCHEMA_VERSION = 1;
  /** The most entries one document may hold (a bound on what a hostile file can make us compile). */
  static final int MAX_ENTRIES = 2_000;
  /** The longest regular expression accepted. */
  static final int MAX_REGEX_CHARS = 2_000;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ID = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,79}");
  private static final Set<String> TOP = Set.of("schemaVersion", "name", "version", "description", "signals", "families");
  private static final Set<String> FAMILY = Set.of("id", "kind", "driverKind", "title", "meaning", "check", "fix",
      "wordings", "notes");
  private static final Set<String> SIGNAL = Set.of("id", "description", "wordings", "notes");
  private static final Set<String> WORDING = Set.of("regex", "decisive", "platforms", "sources", "examples", "notes");
  private static final Set<String> FIX = Set.of("action", "rationale", "properties");
  private static final Set<String> PROPERTY = Set.of("name", "value", "why", "platforms");

  private KnowledgeBaseReader() {}

  /** What one document holds. */
  public record Contents(String name, List<FailureFamily> families, List<Signal> signals) {}

  public static Contents read(InputStream in, String name) throws IOException {
    try {
      return read(JSON.readTree(in), name);
    } catch (JsonProcessingException e) {
      throw new BrokenKnowledgeBaseException(name, List.of("it is not valid JSON (" + e.getOriginalMessage()
          + " at line " + e.getLocation().getLineNr() + ")"));
    }
  }

  public static Contents read(String json, String name) {
    try {
      return read(JSON.readTree(json), name);
    } catch (JsonProcessingException e) {
      throw new BrokenKnowledgeBaseException(name, List.of("it is not valid JSON (" + e.getOriginalMessage()
          + " at line " + e.getLocation().getLineNr() + ")"));
    }
  }

  private static Contents read(JsonNode root, String name) {
    List<String> problems = new ArrayList<>();
    if (root == null || !root.isObject()) {
      throw new BrokenKnowledgeBaseException(name, List.of("the document must be a JSON object with \"families\" and/or \"signals\""));
    }
    unknown(root, TOP, "the document", problems);
    JsonNode v = root.get("schemaVersion");
    if (v == null || !v.canConvertToInt() || v.asInt() != SCHEMA_VERSION) {
      problems.add("\"schemaVersion\" must be " + SCHEMA_VERSION + (v == null ? " (it is missing)" : ", not " + v));
    }
    int entries = size(root, "families") + size(root, "signals");
    if (entries > MAX_ENTRIES) {
      throw new BrokenKnowledgeBaseException(name, List.of("it has " + entries + " entries, more than the "
          + MAX_ENTRIES + " one document may hold"));
    }
    Set<String> ids = new HashSet<>();
    List<Signal> signals = new ArrayList<>();
    for (JsonNode s : array(root, "signals", "the document", problems)) {
      signal(s, name, ids, problems).ifPresent(signals::add);
    }
    List<FailureFamily> families = new ArrayList<>();
    for (JsonNode f : array(root, "families", "the document", problems)) {
      family(f, name, ids, problems).ifPresent(families::add);
    }
    if (!problems.isEmpty()) {
      throw new BrokenKnowledgeBaseException(name, problems);
    }
    return new Contents(name, families, signals);
  }

  private static Optional<Signal> signal(JsonNode s, String origin, Set<String> ids, List<String> problems) {
    String where = where("signal", s);
    if (!s.isObject()) {
      problems.add(where + " must be an object");
      return Optional.empty();
    }
    int before = problems.size();
    unknown(s, SIGNAL, where, problems);
    String id = id(s, where, ids, problems);
    String description = text(s, "description", where, problems);
    List<Wording> wordings = wordings(s, where, problems);
    return problems.size() > before ? Optional.empty() : Optional.of(new Signal(id, description, wordings, origin));
  }

  private static Optional<FailureFamily> family(JsonNode f, String origin, Set<String> ids, List<String> problems) {
    String where = where("family", f);
    if (!f.isObject()) {
      problems.add(where + " must be an object");
      return Optional.empty();
    }
    int before = problems.size();
    unknown(f, FAMILY, where, problems);
    String id = id(f, where, ids, problems);
    Optional<RootCauseKind> kind = kind(f, "kind", where, problems, true);
    Optional<RootCauseKind> driverKind = kind(f, "driverKind", where, problems, false);
    String title = text(f, "title", where, problems);
    String meaning = text(f, "meaning", where, problems);
    List<String> check = strings(f, "check", where, problems);
    Fix fix = fix(f.get("fix"), where, problems);
    List<Wording> wordings = wordings(f, where, problems);
    if (problems.size() > before || kind.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new FailureFamily(id, kind.get(), driverKind, title, meaning, check, fix, wordings, origin));
  }

  private static Fix fix(JsonNode fix, String where, List<String> problems) {
    String at = where + "'s fix";
    if (fix == null || !fix.isObject()) {
      problems.add(where + " needs a \"fix\" object with \"action\", \"rationale\" and \"properties\"");
      return new Fix("", "", List.of());
    }
    unknown(fix, FIX, at, problems);
    List<Fix.Property> properties = new ArrayList<>();
    for (JsonNode p : array(fix, "properties", at, problems)) {
      String pw = at + " property " + (p.has("name") ? "'" + p.get("name").asText() + "'" : "#" + (properties.size() + 1));
      if (!p.isObject()) {
        problems.add(pw + " must be an object");
        continue;
      }
      unknown(p, PROPERTY, pw, problems);
      properties.add(new Fix.Property(text(p, "name", pw, problems), text(p, "value", pw, problems),
          text(p, "why", pw, problems), new LinkedHashSet<>(optionalStrings(p, "platforms", pw, problems))));
    }
    return new Fix(text(fix, "action", at, problems), text(fix, "rationale", at, problems), properties);
  }

  private static List<Wording> wordings(JsonNode entry, String where, List<String> problems) {
    List<Wording> out = new ArrayList<>();
    List<JsonNode> nodes = array(entry, "wordings", where, problems);
    if (nodes.isEmpty() && entry.has("wordings")) {
      problems.add(where + " has no wordings: give at least one");
    }
    int n = 0;
    for (JsonNode w : nodes) {
      n++;
      String ww = where + " wording #" + n;
      if (!w.isObject()) {
        problems.add(ww + " must be an object with \"regex\"");
        continue;
      }
      unknown(w, WORDING, ww, problems);
      String regex = text(w, "regex", ww, problems);
      if (regex.length() > MAX_REGEX_CHARS) {
        problems.add(ww + "'s regex is " + regex.length() + " characters, more than " + MAX_REGEX_CHARS);
        continue;
      }
      Pattern p;
      try {
        p = Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        problems.add(ww + "'s regex does not compile: " + e.getDescription() + " near index " + e.getIndex());
        continue;
      }
      if (!regex.isEmpty() && p.matcher("").find()) {
        problems.add(ww + "'s regex matches an empty line, so it would match every line");
        continue;
      }
      JsonNode d = w.get("decisive");
      if (d != null && !d.isBoolean()) {
        problems.add(ww + "'s \"decisive\" must be true or false");
      }
      List<String> examples = optionalStrings(w, "examples", ww, problems);
      for (String e : examples) {
        if (!p.matcher(e).find()) {
          problems.add(ww + "'s example does not match its regex: " + e);
        }
      }
      out.add(new Wording(regex, d != null && d.asBoolean(), new LinkedHashSet<>(optionalStrings(w, "platforms", ww, problems)),
          optionalStrings(w, "sources", ww, problems), examples, p));
    }
    return out;
  }

  private static Optional<RootCauseKind> kind(JsonNode entry, String field, String where, List<String> problems,
      boolean required) {
    JsonNode k = entry.get(field);
    if (k == null) {
      if (required) {
        problems.add(where + " needs \"" + field + "\" (one of RootCauseKind's names)");
      }
      return Optional.empty();
    }
    try {
      return Optional.of(RootCauseKind.valueOf(k.asText()));
    } catch (IllegalArgumentException e) {
      problems.add(where + "'s " + field + " '" + k.asText() + "' is not a root-cause kind; known: "
          + String.join(", ", Arrays.stream(RootCauseKind.values()).map(Enum::name).toList()));
      return Optional.empty();
    }
  }

  private static String id(JsonNode entry, String where, Set<String> ids, List<String> problems) {
    String id = text(entry, "id", where, problems);
    if (!id.isEmpty() && !ID.matcher(id).matches()) {
      problems.add(where + "'s id must be letters, digits, '-', '_' or '.', starting with a letter, at most 80");
    } else if (!id.isEmpty() && !ids.add(id.toLowerCase(Locale.ROOT))) {
      problems.add(where + "'s id is used twice in this document");
    }
    return id;
  }

  private static String text(JsonNode entry, String field, String where, List<String> problems) {
    JsonNode t = entry.get(field);
    if (t == null || !t.isTextual() || t.asText().isBlank()) {
      problems.add(where + " needs \"" + field + "\" (a non-empty string)");
      return "";
    }
    return t.asText();
  }

  private static List<String> strings(JsonNode entry, String field, String where, List<String> problems) {
    JsonNode a = entry.get(field);
    if (a == null) {
      problems.add(where + " needs \"" + field + "\" (a list of strings)");
      return List.of();
    }
    return optionalStrings(entry, field, where, problems);
  }

  private static List<String> optionalStrings(JsonNode entry, String field, String where, List<String> problems) {
    JsonNode a = entry.get(field);
    if (a == null) {
      return List.of();
    }
    if (!a.isArray()) {
      problems.add(where + "'s \"" + field + "\" must be a list of strings");
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : a) {
      if (!e.isTextual()) {
        problems.add(where + "'s \"" + field + "\" must hold only strings");
      } else {
        out.add(e.asText());
      }
    }
    return out;
  }

  private static List<JsonNode> array(JsonNode entry, String field, String where, List<String> problems) {
    JsonNode a = entry.get(field);
    if (a == null) {
      return List.of();
    }
    if (!a.isArray()) {
      problems.add(where + "'s \"" + field + "\" must be a list");
      return List.of();
    }
    List<JsonNode> out = new ArrayList<>();
    a.forEach(out::add);
    return out;
  }

  private static int size(JsonNode root, String field) {
    JsonNode a = root.get(field);
    return a != null && a.isArray() ? a.size() : 0;
  }

  private static void unknown(JsonNode entry, Set<String> known, String where, List<String> problems) {
    for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!known.contains(f)) {
        problems.add(where + " has an unknown field \"" + f + "\" (known: " + String.join(", ", known.stream().sorted().toList()) + ")");
      }
    }
  }

  private static String where(String what, JsonNode entry) {
    JsonNode id = entry.isObject() ? entry.get("id") : null;
    return what + (id != null && id.isTextual() ? " '" + id.asText() + "'" : " without an id");
  }
}

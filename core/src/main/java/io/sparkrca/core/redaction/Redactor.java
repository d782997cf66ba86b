package io.sparkrca.core.redaction;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets before anything reaches an output: properties whose names look secret (the same
 * rule as Spark's {@code spark.redaction.regex}, widened), credentials inside values (URLs with a
 * user and password, {@code password=} in JDBC URLs and {@code -Dpassword=} options, bearer
 * tokens, cookies, Google access tokens and private keys).
 *
 * <pre>{@code
 * Redactor r = Redactor.standard();
 * r.redactProperty("spark.hadoop.fs.s3a.secret.key", "abc");   // "*********(redacted)"
 * r.redactText("jdbc:postgresql://h/db?user=a&password=hunter2"); // "...password=*********(redacted)"
 * Redactor.redactUri("https://user:pw@host/x");                // "https://***@host/x"
 * }</pre>
 */
public final class Redactor {
  /** What Spark itself writes in place of a redacted value. */
  public static final String REDACTED = "*********(redacted)";

  /**
   * Spark's default {@code spark.redaction.regex}: the History Server replaces the value of every
   * property whose key or value matches it.
   */
  public static final Pattern SPARK_DEFAULT_REDACTION =
      Pattern.compile("(?i)secret|password|token|access[.]key");

  /**
   * Keys whose values sparkrca never prints: Spark's rule widened to what it lets through, such as
   * {@code spark.hadoop.fs.azure.account.key.*}, {@code *.auth.*}, SAS and OAuth settings, key
   * files and keytabs.
   */
  private static final Pattern DEFAULT_KEYS =
      Pattern.compile(
          "(?i)secret|password|passwd|token|access[._-]?key|private[._-]?key|credential"
              + "|api[._-]?key|authorization|cookie|session[._-]?id|signature"
              + "|account[._-]?key|(?:^|[._-])auth(?:[._-]|$)|(?:^|[._-])sas(?:[._-]|$)|oauth"
              + "|keyfile|key[._-]?file|keytab|jaas|(?:^|[._-])pass(?:[._-]|$)|passphrase|bearer"
              + "|(?:^|[._-])pwd(?:[._-]|$)|(?:^|[._-])sig(?:[._-]|$)|credential[._-]?provider");

  private static final Pattern KEY_VALUE_SECRET =
      Pattern.compile(
          "(?i)((?:password|passwd|pwd|secret|token|access[_.-]?key|secret[_.-]?key|api[_.-]?key"
              + "|client[_.-]?secret|sig|signature|x-amz-signature|x-goog-signature|accountkey"
              + "|sharedaccesssignature|sharedaccesskey|access_token|refresh_token|id_token)"
              + "\\s*[=:]\\s*)(\"[^\"]*\"|'[^']*'|[^\\s&;,\"']++(?!\\s*=))");
  private static final Pattern BEARER =
      Pattern.compile("(?i)\\b(bearer|basic|token)(\\s+)([A-Za-z0-9._~+/=-]{8,})");
  /**
   * A command-line flag whose name looks secret, then its value after a blank: {@code --password
   * hunter2}, {@code --db-token 'x'} (the {@code --password=x} form is a key=value pair).
   */
  private static final Pattern SECRET_FLAG =
      Pattern.compile(
          "(?i)(?<![A-Za-z0-9_])(--?[A-Za-z0-9._-]*(?:password|passwd|pwd|secret|token|api[-_]?key|access[-_]?key"
              + "|credential|passphrase)[A-Za-z0-9._-]*)([ \\t]+)(?!-)(\"[^\"]*\"|'[^']*'|[^\\s\"']+)");
  /**
   * A name, then a value: {@code DB_PASSWORD_PROD = "..."} in a script, {@code val dbPassword:
   * String = "..."} in Scala, {@code SOME_TOKEN_PROD=...} in an environment; the value is redacted
   * when the name is secret by this redactor's key rule.
   */
  private static final Pattern ASSIGNMENT =
      Pattern.compile(
          "(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.-]{0,150})((?:\\s*:\\s*[A-Za-z][A-Za-z0-9_\\[\\]]*)?\\s*(?::=|=|:)\\s*)"
              + "(?:([\"'])([^\"'\\r\\n]*)\\3|(?<![\\s:])([^\\s&;,\"'()\\[\\]{}]+))");
  private static final Pattern COOKIE_HEADER = Pattern.compile("(?i)\\b((?:set-)?cookie\\s*:\\s*)(.+)");
  /**
   * A quoted key, then a quoted value: a call's arguments ({@code .config("k", "v")}, {@code
   * .option("k", "v")}), a Scala pair ({@code "k" -> "v"}) or a JSON/Python member ({@code "k": "v"}).
   */
  private static final Pattern QUOTED_PAIR =
      Pattern.compile("([\"'])([^\"'\\r\\n]{1,200})\\1(\\s*(?:,|->|:|=)\\s*)([\"'])([^\"'\\r\\n]*)\\4");

  private static final Redactor STANDARD = new Redactor(DEFAULT_KEYS);
  /** Plain Jackson: this package sits below core's own JSON package, which uses it. */
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  private final Pattern secretKeys;

  private Redactor(Pattern secretKeys) {
    this.secretKeys = secretKeys;
  }

  /** The standard rules. */
  public static Redactor standard() {
    return STANDARD;
  }

  /**
   * The standard rules plus an application's own {@code spark.redaction.regex}, so that whatever
   * the application redacts in its UI is redacted here too.
   */
  public Redactor withExtraKeyPattern(String regex) {
    Objects.requireNonNull(regex, "regex");
    return new Redactor(Pattern.compile(secretKeys.pattern() + "|(?:" + regex + ")"));
  }

  /** Whether a property of this name holds a secret. */
  public boolean isSecretKey(String key) {
    return secretKeys.matcher(key).find();
  }

  /** The value to show for property {@code key}: fully redacted when the key looks secret. */
  public String redactProperty(String key, String value) {
    if (value == null) {
      return "";
    }
    if (isSecretKey(key)) {
      return REDACTED;
    }
    return redactText(value);
  }

  /** Redacts secrets found inside free text (log lines, option strings, error messages). */
  public String redactText(String text) {
    if (text == null || text.isEmpty()) {
      return text == null ? "" : text;
    }
    String s = SecretPatterns.redact(text, false);
    if (!mayHoldSecret(s)) {
      // An application's own key rule may name keys the literal gate knows nothing of.
      return this == STANDARD ? s : redactAssignments(redactQuotedPairs(s));
    }
    s = redactNamedInText(s);
    s = SECRET_FLAG.matcher(s).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    return redactAssignments(redactQuotedPairs(s));
  }

  /**
   * Redacts secrets found by their value ({@link SecretPatterns}, the whole catalogue) and by the
   * name next to them, in any text: the same as {@link #redactText}, named for what it is when
   * applied to a value whose name is not known or not secret, such as a job description or SQL
   * text.
   *
   * <pre>{@code
   * Redactor.standard().redactValue("insert into t select 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'");
   *     // "insert into t select '*********(redacted)'"
   * }</pre>
   */
  public String redactValue(String value) {
    return redactText(value);
  }

  /** The credentials redacted inside text whatever this redactor's key rule: key=value, bearer, cookies. */
  private static String redactNamedInText(String s) {
    s = KEY_VALUE_SECRET.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
    s = BEARER.matcher(s).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    return COOKIE_HEADER.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
  }

  /** The value of every assignment (quoted or not) whose name is secret by this redactor's key rule. */
  private String redactAssignments(String s) {
    if (s.indexOf('=') < 0 && s.indexOf(':') < 0) {
      return s;
    }
    Matcher m = ASSIGNMENT.matcher(s);
    StringBuilder out = null;
    int copied = 0;
    while (m.find()) {
      int group = m.group(4) != null ? 4 : 5;
      String value = m.group(group);
      if (value.isEmpty() || value.equals(REDACTED) || value.startsWith("***") || !isSecretKey(m.group(1))) {
        continue;
      }
      out = out == null ? new StringBuilder(s.length()) : out;
      out.append(s, copied, m.start(group)).append(REDACTED);
      copied = m.end(group);
    }
    return out == null ? s : out.append(s, copied, s.length()).toString();
  }

  /**
   * The value of every quoted pair whose key is secret by this redactor's key rule: code sets
   * credentials as {@code .config("spark.hadoop.fs.s3a.secret.key", "...")}, which the {@code
   * key=value} rule above does not see.
   */
  private String redactQuotedPairs(String s) {
    if (s.indexOf('"') < 0 && s.indexOf('\'') < 0) {
      return s;
    }
    Matcher m = QUOTED_PAIR.matcher(s);
    StringBuilder out = null;
    int copied = 0;
    int from = 0;
    while (from < s.length() && m.find(from)) {
      if (!m.group(5).isEmpty() && isSecretKey(m.group(2))) {
        out = out == null ? new StringBuilder(s.length()) : out;
        out.append(s, copied, m.start(5)).append(REDACTED);
        copied = m.end(5);
        from = m.end();
      } else {
        from = m.start(4); // the value may be the key of the next pair: ("a", "password", "v")
      }
    }
    return out == null ? s : out.append(s, copied, s.length()).toString();
  }

  /**
   * Whether {@code text} holds a literal that one of {@link #redactText}'s expressions needs: most
   * texts (report lines, plain property values) hold none, and seven case-insensitive expressions
   * over every one of them cost a report more than the rest of its rendering.
   */
  private static boolean mayHoldSecret(String text) {
    String l = text.toLowerCase(Locale.ROOT);
    return l.contains("pass") || l.contains("pwd") || l.contains("secret") || l.contains("token") || l.contains("key")
        || l.contains("sig") // key=value secrets (signature, sharedaccesssignature...)
        || l.contains("bearer") || l.contains("basic") || l.contains("cookie")
        || l.contains("auth") || l.contains("cred") || l.contains("sas") || l.contains("jaas") || l.contains("session");
  }

  /**
   * The value the History Server shows for a property: its own rule first (a key or value matching
   * Spark's default {@code spark.redaction.regex} replaces the whole value), then credentials
   * scrubbed inside otherwise innocent values (URLs with passwords, {@code password=} options,
   * bearer tokens, private keys). Keys are judged by Spark's rule alone, so {@code api} answers
   * exactly as the History Server does for every ordinary property; reports use the stricter
   * {@link #redactProperty}.
   */
  public String redactLikeHistoryServer(String key, String value) {
    if (matchesSparkRule(key) || (value != null && matchesSparkRule(value))) {
      return REDACTED;
    }
    return value == null ? null : scrubLikeHistoryServerAnswers(value);
  }

  /**
   * The credentials sparkrca has always scrubbed inside History Server answers (URL user info,
   * private keys, the catalogue kinds marked {@link SecretPatterns.Kind#inHistoryServerAnswers()},
   * key=value secrets, bearer tokens, cookies, quoted pairs): the rest of the catalogue applies to
   * {@code api} and {@code serve} answers with {@code --redact} only, so that by default they are
   * the History Server's own.
   */
  private String scrubLikeHistoryServerAnswers(String text) {
    if (text.isEmpty()) {
      return text;
    }
    String s = SecretPatterns.redact(text, true);
    if (!mayHoldSecret(s)) {
      return this == STANDARD ? s : redactQuotedPairs(s);
    }
    return redactQuotedPairs(redactNamedInText(s));
  }

  /**
   * Whether {@link #SPARK_DEFAULT_REDACTION} finds a match in {@code s}. An application's
   * environment has a thousand properties or more, most of them long values (class paths, Hadoop
   * settings) that hold none of the rule's words; one pass looking for the words' first letters
   * rules those out before the expression runs (in a fleet of small logs the expression alone had
   * been a fifth of the analysis).
   */
  private static boolean matchesSparkRule(String s) {
    return mayHoldSparkRuleWord(s) && SPARK_DEFAULT_REDACTION.matcher(s).find();
  }

  /**
   * Whether {@code s} may hold "secret", "password", "token" or "access", in any case: every match
   * of {@link #SPARK_DEFAULT_REDACTION} does. {@code (?i)} without {@code UNICODE_CASE} folds ASCII
   * letters only; {@link String#regionMatches(boolean, int, String, int, int)} folds more, so this
   * may say yes where the expression then says no, never the other way.
   */
  static boolean mayHoldSparkRuleWord(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      String word;
      switch (s.charAt(i) | 0x20) {
        case 's' -> word = "secret";
        case 'p' -> word = "password";
        case 't' -> word = "token";
        case 'a' -> word = "access";
        default -> {
          continue;
        }
      }
      // The second letter first: one of these four letters starts about a fifth of the characters
      // of a property value, and a case-folding region comparison each time was most of the check.
      if (i + 1 < n && (s.charAt(i + 1) | 0x20) == word.charAt(1) && s.regionMatches(true, i, word, 0, word.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * A JSON document with every string value redacted as {@link #redactText} does, and every pair
   * {@code ["name", "value"]} (how the History Server lists properties) as {@link #redactProperty}
   * does: for answers built from an application's own text (job descriptions, SQL, names,
   * properties) on their way out ({@code api --redact}, {@code serve --redact}, MCP results,
   * comparisons). Object field names are kept. The same instance when nothing was redacted; text
   * that is not JSON is redacted as text.
   *
   * <pre>{@code
   * Redactor.standard().redactJson("{\"description\": \"load dapi0123456789abcdef0123456789abcdef\"}");
   *     // {"description" : "load *********(redacted)"} (pretty-printed)
   * }</pre>
   */
  public String redactJson(String json) {
    Objects.requireNonNull(json, "json");
    com.fasterxml.jackson.databind.JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (java.io.IOException e) {
      return redactText(json);
    }
    if (tree == null) {
      return json;
    }
    boolean[] changed = {false};
    com.fasterxml.jackson.databind.JsonNode out = redactNode(tree, changed);
    if (!changed[0]) {
      return json;
    }
    try {
      return json.indexOf('\n') >= 0 ? JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out)
          : JSON.writeValueAsString(out);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return redactText(json);
    }
  }

  private com.fasterxml.jackson.databind.JsonNode redactNode(com.fasterxml.jackson.databind.JsonNode n, boolean[] changed) {
    if (n.isTextual()) {
      String v = n.textValue();
      String r = redactText(v);
      if (r.equals(v)) {
        return n;
      }
      changed[0] = true;
      return com.fasterxml.jackson.databind.node.TextNode.valueOf(r);
    }
    if (n.isArray()) {
      com.fasterxml.jackson.databind.node.ArrayNode a = (com.fasterxml.jackson.databind.node.ArrayNode) n;
      if (a.size() == 2 && a.get(0).isTextual() && a.get(1).isTextual() && looksLikePropertyName(a.get(0).textValue())) {
        String k = a.get(0).textValue();
        String v = a.get(1).textValue();
        String r = redactProperty(k, v);
        if (!r.equals(v)) {
          changed[0] = true;
          a.set(1, com.fasterxml.jackson.databind.node.TextNode.valueOf(r));
        }
        String rk = redactText(k); // a class-path entry is a pair too, its URL first
        if (!rk.equals(k)) {
          changed[0] = true;
          a.set(0, com.fasterxml.jackson.databind.node.TextNode.valueOf(rk));
        }
        return a;
      }
      for (int i = 0; i < a.size(); i++) {
        com.fasterxml.jackson.databind.JsonNode c = a.get(i);
        com.fasterxml.jackson.databind.JsonNode r = redactNode(c, changed);
        if (r != c) {
          a.set(i, r);
        }
      }
      return a;
    }
    if (n.isObject()) {
      com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) n;
      java.util.List<String> names = new java.util.ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String f : names) {
        com.fasterxml.jackson.databind.JsonNode c = o.get(f);
        com.fasterxml.jackson.databind.JsonNode r = redactNode(c, changed);
        if (r != c) {
          o.set(f, r);
        }
      }
    }
    return n;
  }

  /** A property name: no blanks, not too long (a pair of sentences is not a property). */
  private static boolean looksLikePropertyName(String s) {
    if (s.isEmpty() || s.length() > 200) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** A URI fit for messages: user info and secret query parameters removed. */
  public static String redactUri(String uri) {
    return STANDARD.redactText(uri);
  }
}

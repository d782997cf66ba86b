package io.sparkrca.core.redaction;

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
 * r.redactProperty("spark.hadoop.fs.s3a.secret.key", "abc")   // "*********(redacted)"
 * r.redactText("jdbc:postgresql://h/db?user=a&password=hunter2") // "...password=*********(redacted)"
 * Redactor.redactUri("https://user:pw@host/x")                // "https://***@host/x"
 * }</pre>
 */
public final class Redactor {
  /** What Spark itself writes in place of a redacted value. */
  public static final String REDACTED = "*********(redacted)";

  private static final Pattern DEFAULT_KEYS =
      Pattern.compile(
          "(?i)secret|password|passwd|token|access[._-]?key|private[._-]?key|credential"
              + "|api[._-]?key|authorization|cookie|session[._-]?id|signature");

  private static final Pattern URL_USERINFO =
      Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)([^/@\\s:]+(?::[^/@\\s]*)?)@");
  private static final Pattern KEY_VALUE_SECRET =
      Pattern.compile(
          "(?i)((?:password|passwd|pwd|secret|token|access[_.-]?key|secret[_.-]?key|api[_.-]?key"
              + "|client[_.-]?secret|sig|signature|x-amz-signature|x-goog-signature)"
              + "\\s*[=:]\\s*)(\"[^\"]*\"|'[^']*'|[^\\s&;,\"']+)");
  private static final Pattern BEARER =
      Pattern.compile("(?i)\\b(bearer|basic|token)(\\s+)([A-Za-z0-9._~+/=-]{8,})");
  private static final Pattern GOOGLE_TOKEN = Pattern.compile("\\bya29\\.[A-Za-z0-9._-]+");
  private static final Pattern PRIVATE_KEY =
      Pattern.compile(
          "-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)");
  private static final Pattern COOKIE_HEADER = Pattern.compile("(?i)\\b((?:set-)?cookie\\s*:\\s*)(.+)");

  private static final Redactor STANDARD = new Redactor(DEFAULT_KEYS);

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
    String s = text;
    s = PRIVATE_KEY.matcher(s).replaceAll(Matcher.quoteReplacement(REDACTED));
    s = URL_USERINFO.matcher(s).replaceAll("$1***@");
    s = KEY_VALUE_SECRET.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
    s = BEARER.matcher(s).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    s = GOOGLE_TOKEN.matcher(s).replaceAll(Matcher.quoteReplacement(REDACTED));
    s = COOKIE_HEADER.matcher(s).replaceAll("$1" + Matcher.quoteReplacement(REDACTED));
    return s;
  }

  /** A URI fit for messages: user info and secret query parameters removed. */
  public static String redactUri(String uri) {
    return STANDARD.redactText(uri);
  }
}

package io.sparkrca.core.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalogue of secrets recognised by their value, whatever the name of the property, the job
 * description, the SQL text or the log line that carries them: cloud keys (AWS, Google, Azure),
 * source-forge and chat tokens (GitHub, GitLab, Slack), payment and SaaS keys (Stripe, Databricks,
 * OpenAI, Hugging Face, SendGrid, Twilio...), JSON Web Tokens, PEM private keys (the whole block,
 * and each line of one printed line by line), and passwords in URLs and JDBC strings. The formats
 * follow what the providers document and what public secret scanners match (gitleaks and others
 * were the reference); the expressions are our own. {@link Redactor#redactText} applies it, so
 * every output that redacts text applies it.
 *
 * <p>Each kind has literals, one of which every match holds: a text holding none (almost every
 * report line and log line) costs one pass over its characters and no expression at all. There is
 * no generic "high entropy" rule: Spark's own ids and hashes (application, container and executor
 * ids, stage and RDD hashes) are left as they are.
 *
 * <pre>{@code
 * SecretPatterns.redact("spark.app.name=nightly AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW");
 *     // "spark.app.name=nightly *********(redacted)"
 * for (SecretPatterns.Kind k : SecretPatterns.catalogue()) {
 *   System.out.println(k.name() + ": " + k.format());
 * }
 * }</pre>
 */
public final class SecretPatterns {
  /**
   * One kind of secret known by its value.
   *
   * @param name what it is, e.g. "GitHub token"
   * @param format its shape in words, as the catalogue in the docs shows it
   * @param literals lower-case texts of which every match holds one (the cheap test before the
   *     expression)
   * @param pattern the expression; when it has a group named {@code s}, only that group is the
   *     secret (the rest is context such as {@code AccountKey=}), otherwise the whole match
   * @param replacement what replaces the secret
   * @param inHistoryServerAnswers whether {@link Redactor#redactLikeHistoryServer} applies it too
   *     (the credentials sparkrca has always scrubbed from History Server answers); the others are
   *     applied to {@code api} and {@code serve} answers only with {@code --redact}
   */
  public record Kind(String name, String format, List<String> literals, Pattern pattern, String replacement,
      boolean inHistoryServerAnswers) {
    public Kind {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(format, "format");
      literals = literals.stream().map(l -> l.toLowerCase(Locale.ROOT)).toList();
      Objects.requireNonNull(pattern, "pattern");
      Objects.requireNonNull(replacement, "replacement");
      // The kinds are the catalogue's own: a kind without a literal of two characters or more is a bug here.
      if (literals.isEmpty() || literals.stream().anyMatch(l -> l.length() < 2)) {
        throw new AssertionError(name + ": every kind needs literals of 2 characters or more, has " + literals);
      }
    }
  }

  private static final String R = Redactor.REDACTED;

  private static final List<Kind> CATALOGUE = List.of(
      kind("PEM private key block", "-----BEGIN ... PRIVATE KEY----- to its END line, every line of it (also with \\n escapes in JSON)",
          "-----BEGIN[A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[A-Z ]*PRIVATE KEY(?: BLOCK)?-----|$)",
          R, true, "-----begin"),
      kind("Password in a URL's user info", "scheme://user:password@host (the user info becomes ***)",
          "(?i)\\b[a-z][a-z0-9+.-]*://(?<s>[^/@\\s:]+(?::[^/@\\s]*)?)@", "***", true, "://"),
      kind("Password in an Oracle JDBC URL", "jdbc:oracle:thin:user/password@host",
          "(?i)jdbc:oracle:[a-z]+:[^/@\\s:]+/(?<s>[^@\\s]+)@", R, false, "jdbc:oracle"),
      kind("AWS access key id", "AKIA, ASIA, ABIA or ACCA and 16 upper-case letters or digits",
          "\\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b", R, true, "akia", "asia", "abia", "acca"),
      kind("AWS secret access key", "40 base64 characters after a name holding aws and secret or key",
          "(?i)aws[\\w.-]{0,30}?(?:secret|key)[\\w.-]{0,20}?[\"']?\\s*(?:[=:,]|=>|->)\\s*[\"']?(?<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
          R, false, "aws"),
      kind("Google API key", "AIza and 35 letters, digits, - or _",
          "\\bAIza[0-9A-Za-z_-]{35}", R, false, "aiza"),
      kind("Google OAuth access token", "ya29. and the token",
          "\\bya29\\.[0-9A-Za-z_-]+", R, true, "ya29."),
      kind("Google OAuth client secret", "GOCSPX- and 28 characters (24 or more)",
          "\\bGOCSPX-[A-Za-z0-9_-]{24,}", R, false, "gocspx-"),
      kind("GCP service-account key (JSON)", "the value of \"private_key\" and \"private_key_id\"",
          "\"private_key(?:_id)?\\\\?\"\\s*:\\s*\\\\?\"(?<s>(?:[^\"\\\\]|\\\\[^\"])+)", R, false, "private_key"),
      kind("Azure storage account key", "AccountKey= and its base64 value (connection strings)",
          "(?i)\\bAccountKey\\s*=\\s*(?<s>[A-Za-z0-9+/]{20,}={0,2})", R, false, "accountkey"),
      kind("Azure SAS signature", "sig= in a shared access signature's query",
          "(?i)[?&;]sig=(?<s>[^&\\s\"'<>]+)", R, false, "sig="),
      kind("Azure AD client secret", "three characters, a digit, Q~ and 31 to 34 characters",
          "(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])", R, false, "q~"),
      kind("GitHub token", "ghp_, gho_, ghu_, ghs_ or ghr_ and at least 20 letters or digits",
          "\\bgh[pousr]_[A-Za-z0-9]{20,}", R, true, "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
      kind("GitHub fine-grained token", "github_pat_ and at least 22 characters",
          "\\bgithub_pat_[A-Za-z0-9_]{22,}", R, false, "github_pat_"),
      kind("GitLab token", "glpat-, gldt-, glrt-, glptt-, glcbt- or gloas- and at least 20 characters",
          "\\bgl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,}", R, false,
          "glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-"),
      kind("Slack token", "xoxa-, xoxb-, xoxp-, xoxr-, xoxs-, xoxe- or xapp- and the token",
          "\\bxox[abprse]-[A-Za-z0-9-]{10,}|\\bxapp-[A-Za-z0-9-]{10,}", R, true, "xox", "xapp-"),
      kind("Slack webhook URL", "hooks.slack.com/services/... (the path after the host)",
          "(?i)hooks\\.slack\\.com/(?<s>(?:services|workflows|triggers)/[A-Za-z0-9+/_-]+)", R, false, "hooks.slack.com"),
      kind("Discord webhook URL", "discord.com/api/webhooks/ID/TOKEN",
          "(?i)discord(?:app)?\\.com/api/webhooks/(?<s>\\d+/[A-Za-z0-9_-]+)", R, false, "discord"),
      kind("Stripe key", "sk_live_, rk_live_, sk_test_ or rk_test_ and at least 16 characters; whsec_ webhook secrets",
          "\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\\bwhsec_[A-Za-z0-9+/]{24,}", R, false,
          "sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"),
      kind("Databricks token", "dapi (or dose) and 32 hexadecimal characters, an optional -N",
          "\\bd(?:api|ose)[a-h0-9]{32}(?:-\\d+)?\\b", R, false, "dapi", "dose"),
      kind("JSON Web Token", "eyJ..., three dot-separated base64url parts",
          "\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}", R, true, "eyj"),
      kind("npm token", "npm_ and 36 letters or digits",
          "\\bnpm_[A-Za-z0-9]{36}\\b", R, false, "npm_"),
      kind("PyPI token", "pypi-AgEIcHlwaS5vcmc and the token",
          "\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}", R, false, "pypi-ageichlwas5vcmc"),
      kind("SendGrid API key", "SG., 22 characters, a dot, 43 characters",
          "\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}\\b", R, false, "sg."),
      kind("Twilio API key", "SK and 32 hexadecimal characters",
          "\\bSK[0-9a-fA-F]{32}\\b", R, false, "sk"),
      kind("OpenAI or Anthropic API key", "sk- (sk-proj-, sk-ant-...) and at least 32 characters",
          "\\bsk-[A-Za-z0-9_-]{32,}", R, false, "sk-"),
      kind("Hugging Face token", "hf_ and at least 30 letters or digits",
          "\\bhf_[A-Za-z0-9]{30,}", R, false, "hf_"),
      kind("HashiCorp Vault token", "hvs., hvb. or hvr. and at least 24 characters",
          "\\bhv[sbr]\\.[A-Za-z0-9_-]{24,}", R, false, "hvs.", "hvb.", "hvr."),
      kind("DigitalOcean token", "dop_v1_, doo_v1_ or dor_v1_ and 64 hexadecimal characters",
          "\\bdo[por]_v1_[a-f0-9]{64}", R, false, "dop_v1_", "doo_v1_", "dor_v1_"),
      kind("Shopify token", "shpat_, shpca_, shppa_ or shpss_ and 32 hexadecimal characters",
          "\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", R, false, "shpat_", "shpca_", "shppa_", "shpss_"),
      kind("Mailgun API key", "key- and 32 hexadecimal characters",
          "\\bkey-[0-9a-f]{32}\\b", R, false, "key-"),
      kind("Telegram bot token", "the bot id, :AA and 33 characters",
          "\\b\\d{8,10}:AA[A-Za-z0-9_-]{33}\\b", R, false, ":aa"),
      kind("Alibaba Cloud access key id", "LTAI and 12 to 20 letters or digits",
          "\\bLTAI[A-Za-z0-9]{12,20}\\b", R, false, "ltai"),
      kind("Docker Hub token", "dckr_pat_ and the token",
          "\\bdckr_pat_[A-Za-z0-9_-]{20,}", R, false, "dckr_pat_"),
      kind("Grafana token", "glsa_ service-account tokens and glc_ cloud tokens",
          "\\bglsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|\\bglc_[A-Za-z0-9+/]{32,}={0,2}", R, false, "glsa_", "glc_"),
      kind("New Relic user key", "NRAK- and 27 upper-case letters or digits",
          "\\bNRAK-[A-Z0-9]{27}\\b", R, false, "nrak-"),
      kind("Postman API key", "PMAK-, 24 and 34 hexadecimal characters",
          "\\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\\b", R, false, "pmak-"),
      kind("Atlassian API token", "ATATT3 and the token",
          "\\bATATT3[A-Za-z0-9_=-]{100,}", R, false, "atatt3"),
      kind("Sentry token", "sntrys_ or sntryu_ and the token",
          "\\bsntr[yu][su]?_[A-Za-z0-9+/=_-]{40,}", R, false, "sntrys_", "sntryu_"),
      kind("Square token", "sq0atp- or sq0csp- and at least 22 characters",
          "\\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}", R, false, "sq0atp-", "sq0csp-"),
      kind("Linear API key", "lin_api_ and 40 letters or digits",
          "\\blin_api_[A-Za-z0-9]{40}", R, false, "lin_api_"),
      kind("Terraform Cloud token", "14 characters, .atlasv1. and the token",
          "\\b[a-z0-9]{14}\\.atlasv1\\.[a-z0-9_=-]{60,}", R, false, ".atlasv1."),
      kind("age secret key", "AGE-SECRET-KEY-1 and 58 bech32 characters",
          "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", R, false, "age-secret-key-1"));

  /** The literals' first two characters, each with the bit that says a text holds it. */
  private static final short[] BIGRAM_BIT = new short[128 * 128];
  private static final long[] KIND_BITS;

  static {
    List<Integer> bigrams = new ArrayList<>();
    KIND_BITS = new long[CATALOGUE.size()];
    for (int k = 0; k < CATALOGUE.size(); k++) {
      for (String l : CATALOGUE.get(k).literals()) {
        int b = bigram(l.charAt(0), l.charAt(1));
        int bit = bigrams.indexOf(b);
        if (bit < 0) {
          bigrams.add(b);
          bit = bigrams.size() - 1;
          BIGRAM_BIT[b] = (short) (bit + 1);
        }
        if (bit >= 64) {
          throw new AssertionError("more than 64 distinct literal starts in the secret catalogue");
        }
        KIND_BITS[k] |= 1L << bit;
      }
    }
  }

  /** At least 40 base64 characters alone on a line: a line of a PEM block printed line by line. */
  private static final Pattern PEM_BODY_LINE = Pattern.compile("(?m)^([ \\t]*)([A-Za-z0-9+/]{40,}={0,2})([ \\t]*)$");
  /** The short last line of a PEM block's body: base64 ending in padding, alone on its line. */
  private static final Pattern PEM_LAST_LINE = Pattern.compile("(?m)^([ \\t]*)([A-Za-z0-9+/]{4,}={1,2})([ \\t]*)$");
  private static final Pattern PEM_END_LINE = Pattern.compile("-----END[A-Z ]*PRIVATE KEY(?: BLOCK)?-----");

  private SecretPatterns() {}

  private static Kind kind(String name, String format, String regex, String replacement, boolean historyServer,
      String... literals) {
    return new Kind(name, format, List.of(literals), Pattern.compile(regex), replacement, historyServer);
  }

  private static int bigram(char a, char b) {
    return (a & 0x7f) * 128 + (b & 0x7f);
  }

  /** Every kind, in the order they are applied. */
  public static List<Kind> catalogue() {
    return CATALOGUE;
  }

  /** {@code text} with every secret of the catalogue replaced; the same instance when it holds none. */
  public static String redact(String text) {
    Objects.requireNonNull(text, "text");
    return redact(text, false);
  }

  /**
   * {@code text} with the secrets of the catalogue replaced: all of them, or with {@code
   * historyServerOnly} those marked {@link Kind#inHistoryServerAnswers()}.
   */
  static String redact(String text, boolean historyServerOnly) {
    long present = presentBigrams(text);
    String s = text;
    if (present != 0) {
      String lower = null;
      for (int k = 0; k < CATALOGUE.size(); k++) {
        if ((KIND_BITS[k] & present) == 0) {
          continue;
        }
        Kind kind = CATALOGUE.get(k);
        if (historyServerOnly && !kind.inHistoryServerAnswers()) {
          continue;
        }
        lower = lower == null ? s.toLowerCase(Locale.ROOT) : lower;
        if (!holdsAny(lower, kind.literals())) {
          continue;
        }
        String r = replace(kind, s);
        if (r != s) {
          s = r;
          lower = null;
        }
      }
    }
    return historyServerOnly ? s : redactPemLines(s);
  }

  /** The bits of the literal starts that {@code text} holds, in any case. */
  private static long presentBigrams(String text) {
    long bits = 0;
    int n = text.length();
    if (n < 2) {
      return 0;
    }
    char prev = Character.toLowerCase(text.charAt(0));
    for (int i = 1; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        c = (char) (c + 32);
      }
      if (prev < 128 && c < 128) {
        int bit = BIGRAM_BIT[prev * 128 + c];
        if (bit != 0) {
          bits |= 1L << (bit - 1);
        }
      }
      prev = c;
    }
    return bits;
  }

  private static boolean holdsAny(String lower, List<String> literals) {
    for (String l : literals) {
      if (lower.contains(l)) {
        return true;
      }
    }
    return false;
  }

  private static String replace(Kind kind, String s) {
    Matcher m = kind.pattern().matcher(s);
    if (!m.find()) {
      return s;
    }
    boolean group = kind.pattern().pattern().contains("(?<s>");
    StringBuilder out = new StringBuilder(s.length());
    int copied = 0;
    do {
      int start = group ? m.start("s") : m.start();
      int end = group ? m.end("s") : m.end();
      if (start < 0) {
        continue;
      }
      out.append(s, copied, start).append(kind.replacement());
      copied = end;
    } while (m.find());
    return copied == 0 && out.isEmpty() ? s : out.append(s, copied, s.length()).toString();
  }

  /**
   * Every line of a PEM block that a log printed line by line: a log line holds one line of the
   * block, so a block's BEGIN line may be far from the line shown (an excerpt, a tail). A line of
   * 40 base64 characters or more alone on its line, with upper- and lower-case letters and digits
   * (at least four, four and three: a path or a class name alone on a line has fewer), or a short
   * one ending in {@code =} padding, is redacted whatever its neighbours.
   */
  private static String redactPemLines(String s) {
    if (!hasBase64Run(s, 4)) {
      return s;
    }
    String r = replaceBodyLines(PEM_BODY_LINE, s, 40);
    r = replaceBodyLines(PEM_LAST_LINE, r, 4);
    if (r != s && r.contains("-----END")) {
      r = PEM_END_LINE.matcher(r).replaceAll(Matcher.quoteReplacement(R));
    }
    return r;
  }

  private static String replaceBodyLines(Pattern p, String s, int min) {
    if (!hasBase64Run(s, min)) {
      return s;
    }
    Matcher m = p.matcher(s);
    StringBuilder out = null;
    int copied = 0;
    while (m.find()) {
      String body = m.group(2);
      if (min >= 40 ? !mixed(body) : !mixedShort(body)) {
        continue;
      }
      out = out == null ? new StringBuilder(s.length()) : out;
      out.append(s, copied, m.start(2)).append(R);
      copied = m.end(2);
    }
    return out == null ? s : out.append(s, copied, s.length()).toString();
  }

  private static boolean mixed(String b) {
    int upper = 0;
    int lower = 0;
    int digits = 0;
    for (int i = 0; i < b.length(); i++) {
      char c = b.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        upper++;
      } else if (c >= 'a' && c <= 'z') {
        lower++;
      } else if (c >= '0' && c <= '9') {
        digits++;
      }
    }
    return upper >= 4 && lower >= 4 && digits >= 3;
  }

  private static boolean mixedShort(String b) {
    boolean upper = false;
    boolean lower = false;
    for (int i = 0; i < b.length(); i++) {
      char c = b.charAt(i);
      upper |= c >= 'A' && c <= 'Z';
      lower |= c >= 'a' && c <= 'z';
    }
    return upper && lower;
  }

  /**
   * Whether {@code s} holds a line made only of at least {@code min} base64 characters (and
   * surrounding blanks): one pass, no expression, for the common case of none.
   */
  private static boolean hasBase64Run(String s, int min) {
    int run = 0;
    boolean lineClean = true;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r') {
        if (lineClean && run >= min) {
          return true;
        }
        run = 0;
        lineClean = true;
      } else if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
        run++;
      } else if (c == ' ' || c == '\t') {
        if (run > 0) {
          // blanks after the run are fine; anything else after them makes the line not clean
          int j = i;
          while (j < n && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) {
            j++;
          }
          if (j < n && s.charAt(j) != '\n' && s.charAt(j) != '\r') {
            lineClean = false;
          }
          i = j - 1;
        }
      } else {
        lineClean = false;
        // skip to the end of the line: it cannot be a body line
        while (i + 1 < n && s.charAt(i + 1) != '\n' && s.charAt(i + 1) != '\r') {
          i++;
        }
      }
    }
    return lineClean && run >= min;
  }
}

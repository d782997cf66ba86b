package io.sparkrca.core.evidence;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A failure signature to look for in logs: an id that analyzers refer to, what it means, and the
 * regular expression (Java syntax, matched anywhere in a line) that finds it.
 *
 * <pre>{@code
 * LogSignature s = new LogSignature("MY_QUOTA", "Quota exceeded on the warehouse", "QuotaExceeded|429 Too Many");
 * LogSignatures mine = LogSignatures.standard().plus(s);
 * }</pre>
 *
 * @param id an upper-case identifier such as {@code JAVA_HEAP_OOM} (the standard catalog's), or a
 *     kebab-case one such as {@code disk-full} (a knowledge-base family's)
 * @param description what the signature means, in a few words
 * @param regex the expression; it must compile
 */
public record LogSignature(String id, String description, String regex) {
  public LogSignature {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(regex, "regex");
    if (!id.matches("[A-Za-z][A-Za-z0-9_.-]{0,79}")) {
      throw new InvalidRequestException("log signature id '" + id
          + "' must be a letter then up to 79 letters, digits, '_', '.' or '-'");
    }
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new InvalidRequestException(
          "log signature " + id + " has an invalid regular expression: " + e.getDescription());
    }
  }
}

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
 * @param id upper-case identifier, e.g. {@code JAVA_HEAP_OOM}
 * @param description what the signature means, in a few words
 * @param regex the expression; it must compile
 */
public record LogSignature(String id, String description, String regex) {
  public LogSignature {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(regex, "regex");
    if (!id.matches("[A-Z][A-Z0-9_]*")) {
      throw new InvalidRequestException("log signature id '" + id + "' must be UPPER_SNAKE_CASE");
    }
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new InvalidRequestException(
          "log signature " + id + " has an invalid regular expression: " + e.getDescription());
    }
  }
}

package io.sparkrca.core.error;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What to do about a failure or a result, as data: a stable {@link #id()}, the library's own
 * {@link #words()} (in library terms: a builder setting, a query kind), and the {@link #values()}
 * those words name. A caller with words of its own, such as a command line naming its flags, maps
 * the id to them; everyone else reads the library's words. A {@link SparkRcaException}, an {@link
 * io.sparkrca.core.evidence.EvidenceGap} and some text outputs carry one.
 *
 * <pre>{@code
 * try {
 *   EventLogs.reader().strict(true).build().replay(uri);
 * } catch (SparkRcaException e) {
 *   System.err.println(e.message(r -> r.id().equals("replay.lenient") ? "run with --lenient" : r.words()));
 * }
 * }</pre>
 *
 * @param id what to do, stable across releases and wordings, e.g. {@code "replay.lenient"}
 * @param words the library's words for it, as they stand in the message or text
 * @param values the values the words name (a line count, an example name), for other words to name too
 */
public record Remedy(String id, String words, List<String> values) implements Serializable {
  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)+");

  public Remedy {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(words, "words");
    if (!ID.matcher(id).matches()) {
      throw new InvalidRequestException("a remedy id is dotted lower-case words, like 'replay.lenient', not '" + id + "'");
    }
    if (words.isBlank()) {
      throw new InvalidRequestException("remedy " + id + " has no words; say what to do");
    }
    values = List.copyOf(values);
  }

  /** A remedy whose words name {@code values}. */
  public static Remedy of(String id, String words, String... values) {
    return new Remedy(id, words, List.of(values));
  }

  /**
   * {@code text}, which says this remedy in the library's words, with them in {@code words}' words
   * instead; {@code text} as it is when it does not hold them. The words stand once in a text that
   * carries a remedy (at its end, or before closing punctuation), so the last occurrence is theirs.
   */
  public String in(String text, Function<? super Remedy, String> words) {
    Objects.requireNonNull(text, "text");
    int at = text.lastIndexOf(this.words);
    if (at < 0) {
      return text;
    }
    return text.substring(0, at) + words.apply(this) + text.substring(at + this.words.length());
  }
}

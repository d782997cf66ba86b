package io.sparkrca.core.logs;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.LineReader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether one line (a byte range) matches a {@link SearchQuery}. Literals are found with
 * {@link ByteFinder} directly in the bytes. Regular expressions are tried first with {@link
 * BoundedJdkRegex} (java.util.regex under a per-line work budget, ASCII lines, dialect-safe
 * patterns) and otherwise run on RE2/J, whose automata match in time linear in the line; both sit
 * behind a prefilter of {@link RequiredLiterals}, so lines that cannot match never reach an
 * engine, and {@link #candidates(byte[])} lets a search skip whole buffers. Not thread-safe.
 */
abstract class LineMatcher {
  /** Compiles {@code query}, failing with a clear message on an invalid regular expression. */
  static LineMatcher compile(SearchQuery query) {
    if (!query.regex()) {
      String lit = query.pattern();
      boolean ascii = lit.chars().allMatch(c -> c < 0x80);
      if (!query.ignoreCase() || ascii) {
        return new Literal(lit.getBytes(StandardCharsets.UTF_8), query.ignoreCase());
      }
      // Case-insensitive non-ASCII text: let the engine do Unicode case folding.
      return new Regex(
          Pattern.compile(Pattern.quote(lit), Pattern.CASE_INSENSITIVE),
          RequiredLiterals.of(Pattern.quote(lit), true));
    }
    Pattern p;
    try {
      p = Pattern.compile(query.pattern(), query.ignoreCase() ? Pattern.CASE_INSENSITIVE : 0);
    } catch (PatternSyntaxException e) {
      throw new InvalidRequestException(
          "search: invalid regular expression '" + query.pattern() + "': " + e.getDescription()
              + (e.getIndex() >= 0 ? " at position " + e.getIndex() : "")
              + ". The syntax is RE2 (like Java's, without backreferences or look-around); to "
              + "search for the text as it is, ", SearchQuery.LITERAL);
    }
    // Case folding is left to the engine: Unicode folds ASCII letters to others (the Kelvin sign).
    Optional<List<String>> exact = query.ignoreCase() ? Optional.empty() : literalAlternation(query.pattern());
    if (exact.isPresent()) {
      return new Regex(p, exact, true);
    }
    return new Regex(p, RequiredLiterals.of(query.pattern(), query.ignoreCase()), false);
  }

  /**
   * The literals of {@code regex} when it is nothing but ASCII literals joined by {@code |} (a
   * metacharacter escaped with a backslash counts as itself), such as a catalog's prefilter of
   * hundreds of literals; empty otherwise. A line matches such an expression exactly when it holds
   * one of the literals, so no regex engine needs to run on it (when case matters).
   */
  static Optional<List<String>> literalAlternation(String regex) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c >= 0x80 || c < 0x20) {
        return Optional.empty();
      }
      if (c == '\\') {
        if (i + 1 == regex.length() || META.indexOf(regex.charAt(i + 1)) < 0) {
          return Optional.empty(); // \d, \b, \Q...: not a literal
        }
        cur.append(regex.charAt(++i));
      } else if (c == '|') {
        if (cur.length() < RequiredLiterals.MIN_LENGTH) {
          return Optional.empty();
        }
        out.add(cur.toString());
        cur.setLength(0);
      } else if (META.indexOf(c) >= 0) {
        return Optional.empty();
      } else {
        cur.append(c);
      }
    }
    if (cur.length() < RequiredLiterals.MIN_LENGTH) {
      return Optional.empty();
    }
    out.add(cur.toString());
    return Optional.of(out);
  }

  private static final String META = "\\.[]{}()*+?^$|";

  abstract boolean matches(byte[] b, int start, int length);

  /**
   * A finder of the positions where a matching line must hold a literal, for skipping whole
   * buffers of lines; empty when the query has no required literal.
   */
  abstract Optional<LineReader.Candidates> candidates();

  /**
   * As {@link #candidates()}, with rare bytes chosen by their frequency in {@code sample}, the
   * first bytes of the text to be searched.
   */
  abstract Optional<LineReader.Candidates> candidates(byte[] sample);

  /** What the prefilter looks for, for tests and diagnostics. */
  abstract List<String> prefilter();

  /** The earliest occurrence of any of several literals. */
  static LineReader.Candidates anyOf(ByteFinder[] finders) {
    if (finders.length == 1) {
      return finders[0]::indexOf;
    }
    return new MultiFinder(finders);
  }

  static final class Literal extends LineMatcher {
    private final ByteFinder finder;
    private final byte[] needle;
    private final boolean fold;

    Literal(byte[] needle, boolean fold) {
      this.needle = needle.clone();
      this.fold = fold;
      this.finder = new ByteFinder(needle, fold);
    }

    @Override
    boolean matches(byte[] b, int start, int length) {
      return finder.indexOf(b, start, start + length) >= 0;
    }

    @Override
    List<String> prefilter() {
      return List.of();
    }

    @Override
    Optional<LineReader.Candidates> candidates() {
      return Optional.of(finder::indexOf);
    }

    @Override
    Optional<LineReader.Candidates> candidates(byte[] sample) {
      if (WuManber.suits(List.of(needle))) {
        return Optional.of(new WuManber(List.of(needle), fold, sample));
      }
      ByteFinder tuned = new ByteFinder(needle, fold, ByteFinder.frequencies(sample));
      return Optional.of(tuned::indexOf);
    }
  }

  static final class Regex extends LineMatcher {
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Matcher matcher;
    private final BoundedJdkRegex fast; // may be null
    private final ByteFinder[] required;
    private final WuManber requiredAny; // may be null
    private final List<String> literals;
    private final ByteCharSequence view = new ByteCharSequence();
    private final boolean fold;
    /** The pattern is exactly its ASCII literals joined by '|' (see {@link #literalAlternation}). */
    private final boolean exact;

    Regex(Pattern pattern, Optional<List<String>> literals) {
      this(pattern, literals, false);
    }

    Regex(Pattern pattern, Optional<List<String>> literals, boolean exact) {
      this.exact = exact;
      this.matcher = pattern.matcher("");
      this.fast =
          BoundedJdkRegex.of(pattern.pattern(), (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0)
              .orElse(null);
      this.literals = literals.orElse(List.of());
      this.fold =
          (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0
              || RequiredLiterals.hasInlineCaseFolding(pattern.pattern());
      List<ByteFinder> finders = new ArrayList<>();
      for (String lit : this.literals) {
        finders.add(new ByteFinder(lit.getBytes(StandardCharsets.UTF_8), fold));
      }
      this.required = finders.toArray(new ByteFinder[0]);
      List<byte[]> bytes = new ArrayList<>();
      for (String lit : this.literals) {
        bytes.add(lit.getBytes(StandardCharsets.UTF_8));
      }
      // Hundreds of literals (a knowledge base's prefilter) are checked in one pass, not one by one.
      this.requiredAny = required.length > RequiredLiterals.MAX_ALTERNATIVES && WuManber.suits(bytes)
          ? new WuManber(bytes, fold) : null;
    }

    @Override
    boolean matches(byte[] b, int start, int length) {
      if (required.length > 0 && !anyRequired(b, start, length)) {
        return false;
      }
      // An ASCII literal's bytes are found in any UTF-8 text exactly where the engine finds it.
      if (exact) {
        return true;
      }
      boolean ascii = isAscii(b, start, length);
      if (ascii && fast != null) {
        Boolean quick = fast.find(b, start, length);
        if (quick != null) {
          return quick;
        }
      }
      CharSequence text = ascii ? view.reset(b, start, length) : new String(b, start, length, StandardCharsets.UTF_8);
      return matcher.reset(text).find();
    }

    private boolean anyRequired(byte[] b, int start, int length) {
      if (requiredAny != null) {
        return requiredAny.indexOf(b, start, start + length) >= 0;
      }
      for (ByteFinder f : required) {
        if (f.indexOf(b, start, start + length) >= 0) {
          return true;
        }
      }
      return false;
    }

    static boolean isAscii(byte[] b, int start, int length) {
      int i = start;
      int end = start + length;
      long acc = 0;
      for (; i + 8 <= end; i += 8) {
        acc |= (long) LONGS.get(b, i);
      }
      for (; i < end; i++) {
        acc |= b[i];
      }
      return (acc & 0x8080808080808080L) == 0;
    }

    @Override
    List<String> prefilter() {
      return literals;
    }

    @Override
    Optional<LineReader.Candidates> candidates() {
      return required.length == 0 ? Optional.empty() : Optional.of(anyOf(required));
    }

    @Override
    Optional<LineReader.Candidates> candidates(byte[] sample) {
      if (required.length == 0) {
        return Optional.empty();
      }
      List<byte[]> bytes = new ArrayList<>();
      for (String lit : literals) {
        bytes.add(lit.getBytes(StandardCharsets.UTF_8));
      }
      if (WuManber.suits(bytes)) {
        return Optional.of(new WuManber(bytes, fold, sample));
      }
      int[] frequency = ByteFinder.frequencies(sample);
      ByteFinder[] tuned = new ByteFinder[literals.size()];
      for (int i = 0; i < tuned.length; i++) {
        tuned[i] = new ByteFinder(literals.get(i).getBytes(StandardCharsets.UTF_8), fold, frequency);
      }
      return Optional.of(anyOf(tuned));
    }
  }
}

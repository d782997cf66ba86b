package io.sparkrca.core.logs;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A fast first try for RE2 patterns: {@code java.util.regex} (much quicker per line than RE2/J's
 * automata) run on ASCII lines under a work budget. The line is read through a view that counts
 * character reads; past {@code 64 * length + 4096} reads (a pattern that backtracks) or a stack
 * overflow, the attempt is abandoned and the caller asks RE2/J, which is linear. Work per line is
 * therefore bounded, and no pattern or line can make a search hang.
 *
 * <p>Only patterns whose meaning is the same in both dialects on ASCII text without line
 * terminators are accepted (see {@link #compatible(String)}); the rest go to RE2/J directly.
 */
final class BoundedJdkRegex {
  static final int MAX_LINE = 64 * 1024;

  /** Thrown by the view when the budget is spent; preallocated, without a stack trace. */
  private static final class BudgetSpent extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BudgetSpent() {
      super("regex work budget spent", null, false, false);
    }
  }

  private static final BudgetSpent SPENT = new BudgetSpent();

  /** An ASCII byte range as a CharSequence that counts reads. */
  private static final class CountingView implements CharSequence {
    private byte[] bytes = new byte[0];
    private int start;
    private int length;
    private long budget;

    void reset(byte[] b, int from, int len, long allowance) {
      bytes = b;
      start = from;
      length = len;
      budget = allowance;
    }

    @Override
    public int length() {
      return length;
    }

    @Override
    public char charAt(int index) {
      if (--budget < 0) {
        throw SPENT;
      }
      return (char) bytes[start + index];
    }

    @Override
    public CharSequence subSequence(int from, int to) {
      return new String(bytes, start + from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
      return new String(bytes, start, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
  }

  private final Pattern pattern;
  private Matcher matcher;
  private final boolean verticalTabMatters;
  private final CountingView view = new CountingView();

  private BoundedJdkRegex(Pattern pattern, boolean verticalTabMatters) {
    this.pattern = pattern;
    this.matcher = pattern.matcher("");
    this.verticalTabMatters = verticalTabMatters;
  }

  /** A bounded JDK matcher for {@code re}, or empty when the dialects could disagree. */
  static Optional<BoundedJdkRegex> of(String re, boolean ignoreCase) {
    Compatibility c = compatible(re);
    if (!c.ok) {
      return Optional.empty();
    }
    try {
      // UNICODE_CASE also makes an inline (?i) fold like RE2's, not ASCII only.
      int flags = Pattern.UNIX_LINES | Pattern.UNICODE_CASE | (ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
      return Optional.of(new BoundedJdkRegex(Pattern.compile(re, flags), c.usesSpace));
    } catch (PatternSyntaxException | StackOverflowError e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the ASCII line {@code b[start, start + length)} matches: TRUE or FALSE, or null when
   * this matcher cannot tell (budget spent, line too long, a vertical tab where \s matters).
   */
  Boolean find(byte[] b, int start, int length) {
    if (length > MAX_LINE) {
      return null;
    }
    if (verticalTabMatters) {
      for (int i = start; i < start + length; i++) {
        if (b[i] == 0x0b) {
          return null; // \s holds VT in Java, not in RE2
        }
      }
    }
    view.reset(b, start, length, 64L * length + 4096);
    try {
      return matcher.reset(view).find();
    } catch (BudgetSpent | StackOverflowError e) {
      // An aborted match can leave the matcher's loop state behind: start from a fresh one.
      matcher = pattern.matcher("");
      return null;
    }
  }

  record Compatibility(boolean ok, boolean usesSpace) {}

  /**
   * Rejects what the two dialects read differently: POSIX classes {@code [:alpha:]}, Unicode
   * classes {@code \p}, {@code \v}, nested classes and {@code &&} (Java set operations), digit
   * escapes (octal in RE2, back-references in Java), inline flags other than i and s ({@code
   * (?U)} is "ungreedy" in RE2 and "Unicode classes" in Java; Java's multi-line {@code ^} misses
   * an empty line), repeated groups and a repetition right after a flag group (Java refuses
   * empty iterations, RE2 allows them), and non-ASCII characters (whose case folding differs in
   * details). Notes uses of {@code \s}.
   */
  static Compatibility compatible(String re) {
    boolean inClass = false;
    boolean space = false;
    for (int i = 0; i < re.length(); i++) {
      char c = re.charAt(i);
      if (c >= 0x80) {
        return new Compatibility(false, false); // case folding of non-ASCII differs in details
      }
      if (c == '\\') {
        if (i + 1 >= re.length()) {
          return new Compatibility(false, false);
        }
        char e = re.charAt(++i);
        if (e == 'Q') {
          int end = re.indexOf("\\E", i + 1);
          if (end < 0) {
            return new Compatibility(false, false);
          }
          i = end + 1;
          continue;
        }
        if (e == 'p' || e == 'P' || e == 'v' || (e >= '0' && e <= '9')) {
          return new Compatibility(false, false);
        }
        if (e == 's' || e == 'S') {
          space = true;
        }
        continue;
      }
      if (inClass) {
        if (c == '[' || (c == '&' && i + 1 < re.length() && re.charAt(i + 1) == '&')) {
          return new Compatibility(false, false);
        }
        if (c == ']') {
          inClass = false;
        }
        continue;
      }
      if (c == '[') {
        inClass = true;
        if (i + 1 < re.length() && re.charAt(i + 1) == '^') {
          i++;
        }
        if (i + 1 < re.length() && re.charAt(i + 1) == ']') {
          i++; // a leading ] is a literal
        }
        continue;
      }
      if (c == ')' && i + 1 < re.length() && "*+?{".indexOf(re.charAt(i + 1)) >= 0) {
        // A repeated group: Java refuses empty iterations (so "(^\\S*){2}" fails), RE2 does not.
        return new Compatibility(false, false);
      }
      if (c == '(' && i + 1 < re.length() && re.charAt(i + 1) == '?') {
        int j = i + 2;
        while (j < re.length() && (Character.isLetter(re.charAt(j)) || re.charAt(j) == '-')) {
          if ("is-".indexOf(re.charAt(j)) < 0) {
            // (?m): Java's multi-line ^ does not match at the end of the input (an empty line).
            return new Compatibility(false, false);
          }
          j++;
        }
        if (j + 1 < re.length() && re.charAt(j) == ')' && "*+?{".indexOf(re.charAt(j + 1)) >= 0) {
          // RE2 applies a repetition after "(?s)" to the atom before it; Java does not.
          return new Compatibility(false, false);
        }
      }
    }
    return new Compatibility(!inClass, space);
  }
}

package io.sparkrca.core.logs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Works out, from a regular expression (RE2 syntax, already known to compile), a set of literal
 * strings such that every line the expression matches contains at least one of them. A search can
 * then skip, at memory speed, every line that contains none, and run the regex engine only on the
 * rest (what grep does). The analysis is conservative: anything it does not fully understand
 * (classes, escapes like {@code \d}, optional parts) ends a literal, and when a branch of an
 * alternation has no literal the whole expression gets no prefilter.
 *
 * <p>Case folding: with ignore-case (or any inline {@code (?i)}), literals hold only ASCII
 * characters other than k and s, because Unicode folding maps K to the Kelvin sign and s to the
 * long s, which a byte comparison would miss.
 */
final class RequiredLiterals {
  /** Thrown inside the parser to give up on a pattern; {@link #of} answers "no prefilter". */
  private static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GiveUp(String why) {
      super(why, null, false, false);
    }
  }

  /** Shortest literal (in UTF-8 bytes) worth prefiltering on. */
  static final int MIN_LENGTH = 2;
  /** Most alternatives kept; more than that and the regex engine alone is as fast. */
  static final int MAX_ALTERNATIVES = 16;
  /**
   * Most alternatives kept when every one is long enough for {@link WuManber}, which finds any of
   * hundreds of literals in one pass (a failure knowledge base's prefilter is such a set).
   */
  static final int MAX_LONG_ALTERNATIVES = 1024;

  private final String s;
  private final boolean fold;
  private int i;

  private RequiredLiterals(String s, boolean fold) {
    this.s = s;
    this.fold = fold;
  }

  /**
   * The literals, one of which every match contains; empty when no useful set exists.
   *
   * @param ignoreCase whether the expression is matched ignoring case
   */
  static Optional<List<String>> of(String regex, boolean ignoreCase) {
    boolean fold = ignoreCase || hasInlineCaseFolding(regex);
    RequiredLiterals p = new RequiredLiterals(regex, fold);
    List<String> set;
    try {
      set = p.alternation();
    } catch (RuntimeException e) {
      return Optional.empty(); // too subtle, or unexpected: no prefilter is always correct
    }
    if (set == null || p.i < regex.length() || quality(set) < MIN_LENGTH) {
      return Optional.empty();
    }
    return Optional.of(List.copyOf(set));
  }

  /** Whether the pattern may turn on case folding with an inline flag such as (?i) or (?mi:. */
  static boolean hasInlineCaseFolding(String regex) {
    for (int k = regex.indexOf("(?"); k >= 0; k = regex.indexOf("(?", k + 1)) {
      for (int j = k + 2; j < regex.length(); j++) {
        char c = regex.charAt(j);
        if (c == 'i') {
          return true;
        }
        if (!Character.isLetter(c) && c != '-') {
          break;
        }
      }
    }
    return false;
  }

  /** Branches separated by '|', up to ')' or the end. Null means "no requirement". */
  private List<String> alternation() {
    List<List<String>> branches = new ArrayList<>();
    while (true) {
      branches.add(sequence());
      if (i < s.length() && s.charAt(i) == '|') {
        i++;
        continue;
      }
      break;
    }
    LinkedHashSet<String> union = new LinkedHashSet<>();
    for (List<String> b : branches) {
      if (b == null) {
        return null;
      }
      union.addAll(b);
    }
    if (union.size() > MAX_ALTERNATIVES && (union.size() > MAX_LONG_ALTERNATIVES || !allLong(union))) {
      return null;
    }
    return new ArrayList<>(union);
  }

  private static boolean allLong(Iterable<String> literals) {
    for (String l : literals) {
      if (l.getBytes(StandardCharsets.UTF_8).length < WuManber.MIN_LENGTH) {
        return false;
      }
    }
    return true;
  }

  /** The best requirement among the literal runs and mandatory groups of one branch. */
  private List<String> sequence() {
    List<String> best = null;
    StringBuilder run = new StringBuilder();
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '|' || c == ')') {
        break;
      }
      if (c == '(') {
        best = better(best, literal(run));
        run.setLength(0);
        Group g = group();
        if (g.flagsOnly) {
          if (i < s.length() && ("*+?".indexOf(s.charAt(i)) >= 0 || s.charAt(i) == '{' && isQuantifierAt(i))) {
            // RE2 applies a repetition after "(?i)" to the atom before it: too subtle, give up.
            throw new GiveUp("repetition after a flag group");
          }
          continue;
        }
        if (quantifier()[0] >= 1) {
          best = better(best, g.requirement);
        }
        continue;
      }
      if (c == '[') {
        skipClass();
        quantifier();
        best = better(best, literal(run));
        run.setLength(0);
        continue;
      }
      if (c == '.' || c == '^' || c == '$') {
        i++;
        quantifier();
        best = better(best, literal(run));
        run.setLength(0);
        continue;
      }
      if (c == '*' || c == '+' || c == '?') {
        i++; // a stray repetition (rejected by the compiler anyway)
        best = better(best, literal(run));
        run.setLength(0);
        continue;
      }
      int cp;
      if (c == '\\') {
        if (i + 1 >= s.length()) {
          i++;
          break;
        }
        char e = s.charAt(i + 1);
        if (e == 'Q') {
          i += 2;
          int end = s.indexOf("\\E", i);
          String quoted = end < 0 ? s.substring(i) : s.substring(i, end);
          i = end < 0 ? s.length() : end + 2;
          if (quoted.isEmpty()) {
            continue;
          }
          // All but the last character are plain; the last one may carry a quantifier.
          int lastStart = quoted.offsetByCodePoints(quoted.length(), -1);
          for (int k = 0; k < lastStart; ) {
            int q = quoted.codePointAt(k);
            if (usable(q)) {
              run.appendCodePoint(q);
            } else {
              best = better(best, literal(run));
              run.setLength(0);
            }
            k += Character.charCount(q);
          }
          cp = quoted.codePointAt(lastStart);
        } else {
          i += 2;
          cp = escapedLiteral(e);
          if (cp < 0) {
            quantifier();
            best = better(best, literal(run));
            run.setLength(0);
            continue;
          }
        }
      } else if (c == '{' && isQuantifierAt(i)) {
        quantifier(); // a repetition with nothing to repeat: invalid, ignore
        best = better(best, literal(run));
        run.setLength(0);
        continue;
      } else {
        cp = s.codePointAt(i);
        i += Character.charCount(cp);
      }
      int[] q = quantifier();
      if (q[0] == 0 || !usable(cp)) {
        best = better(best, literal(run));
        run.setLength(0);
        continue;
      }
      run.appendCodePoint(cp);
      if (q[1] != 1) {
        // Repeated: the character is there, but what follows may not be next to it.
        best = better(best, literal(run));
        run.setLength(0);
      }
    }
    return better(best, literal(run));
  }

  /** Whether a literal code point can be matched byte-for-byte in the current mode. */
  private boolean usable(int cp) {
    if (cp == 0xFFFD) {
      return false; // also stands for undecodable bytes
    }
    if (!fold) {
      return true;
    }
    return cp < 0x80 && "kKsS".indexOf(cp) < 0;
  }

  /** The character an escape stands for, or -1 when it is a class, an anchor or a code. */
  private int escapedLiteral(char e) {
    switch (e) {
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      case 'v':
        return 0x0b;
      case 'a':
        return 0x07;
      case 'p':
      case 'P':
        if (i < s.length() && s.charAt(i) == '{') {
          int close = s.indexOf('}', i);
          i = close < 0 ? s.length() : close + 1;
        } else if (i < s.length()) {
          i++;
        }
        return -1;
      case 'x':
        if (i < s.length() && s.charAt(i) == '{') {
          int close = s.indexOf('}', i);
          i = close < 0 ? s.length() : close + 1;
        } else {
          i = Math.min(s.length(), i + 2);
        }
        return -1;
      default:
        if (Character.isLetterOrDigit(e)) {
          // \d \w \s \b \B \A \z \C, octal codes, ...: not a plain literal.
          while (e >= '0' && e <= '7' && i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7') {
            i++;
          }
          return -1;
        }
        return e; // escaped punctuation stands for itself
    }
  }

  /** Parses "(...)" at i; returns its requirement. */
  private Group group() {
    i++; // '('
    if (i < s.length() && s.charAt(i) == '?') {
      i++;
      if (i < s.length() && (s.charAt(i) == 'P' || s.charAt(i) == '<')) {
        int close = s.indexOf('>', i);
        i = close < 0 ? s.length() : close + 1;
      } else {
        while (i < s.length() && (Character.isLetter(s.charAt(i)) || s.charAt(i) == '-')) {
          i++;
        }
        if (i < s.length() && s.charAt(i) == ')') {
          i++;
          return new Group(null, true); // (?i): flags only, matches nothing
        }
        if (i < s.length() && s.charAt(i) == ':') {
          i++;
        }
      }
    }
    List<String> inner = alternation();
    if (i < s.length() && s.charAt(i) == ')') {
      i++;
    }
    return new Group(inner, false);
  }

  private record Group(List<String> requirement, boolean flagsOnly) {}

  private void skipClass() {
    i++; // '['
    if (i < s.length() && s.charAt(i) == '^') {
      i++;
    }
    if (i < s.length() && s.charAt(i) == ']') {
      i++;
    }
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == '[' && i + 1 < s.length() && s.charAt(i + 1) == ':') {
        int close = s.indexOf(":]", i + 2);
        i = close < 0 ? i + 1 : close + 2;
      } else if (c == ']') {
        i++;
        return;
      } else {
        i++;
      }
    }
  }

  /** Parses an optional repetition at i: {min, max}, max -1 for unbounded; {1, 1} for none. */
  private int[] quantifier() {
    if (i >= s.length()) {
      return new int[] {1, 1};
    }
    int[] q;
    char c = s.charAt(i);
    if (c == '*') {
      q = new int[] {0, -1};
      i++;
    } else if (c == '+') {
      q = new int[] {1, -1};
      i++;
    } else if (c == '?') {
      q = new int[] {0, 1};
      i++;
    } else if (c == '{' && isQuantifierAt(i)) {
      int close = s.indexOf('}', i);
      String body = s.substring(i + 1, close);
      int comma = body.indexOf(',');
      int min = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
      int max = comma < 0 ? min : body.substring(comma + 1).isEmpty() ? -1 : Integer.parseInt(body.substring(comma + 1));
      q = new int[] {min, max};
      i = close + 1;
    } else {
      return new int[] {1, 1};
    }
    if (i < s.length() && s.charAt(i) == '?') {
      i++; // non-greedy: same requirement
    }
    return q;
  }

  private boolean isQuantifierAt(int at) {
    int close = s.indexOf('}', at);
    if (close < 0) {
      return false;
    }
    return s.substring(at + 1, close).matches("\\d{1,4}(,\\d{0,4})?");
  }

  private static List<String> literal(StringBuilder run) {
    return run.length() == 0 ? null : List.of(run.toString());
  }

  /** The better of two requirements: the one whose shortest literal is longer. */
  private static List<String> better(List<String> a, List<String> b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    int qa = quality(a);
    int qb = quality(b);
    if (qa != qb) {
      return qa > qb ? a : b;
    }
    return b.size() < a.size() ? b : a;
  }

  private static int quality(List<String> set) {
    int min = Integer.MAX_VALUE;
    for (String lit : set) {
      min = Math.min(min, lit.getBytes(StandardCharsets.UTF_8).length);
    }
    return set.isEmpty() ? 0 : min;
  }
}

package io.sparkrca.core.logs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.re2j.Pattern;
import io.sparkrca.core.error.InvalidRequestException;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The byte-level literal finder, the regex prefilter analysis and the line matcher. */
class MatchingTest {

  @Test
  void finderLocatesNeedlesAtEveryPositionAndIgnoresAsciiCaseOnRequest() {
    Random random = new Random(7);
    for (int round = 0; round < 2000; round++) {
      int n = 1 + random.nextInt(40);
      byte[] hay = new byte[n];
      for (int k = 0; k < n; k++) {
        hay[k] = (byte) "abAB:x\u0000".charAt(random.nextInt(7));
      }
      int len = 1 + random.nextInt(4);
      byte[] needle = new byte[len];
      for (int k = 0; k < len; k++) {
        needle[k] = (byte) "abAB:".charAt(random.nextInt(5));
      }
      boolean fold = random.nextBoolean();
      int from = random.nextInt(n);
      int expected = naive(hay, from, n, needle, fold);
      assertThat(new ByteFinder(needle, fold).indexOf(hay, from, n))
          .as("%s in %s from %d fold %s", new String(needle, UTF_8), new String(hay, UTF_8), from, fold)
          .isEqualTo(expected);
    }
  }

  private static int naive(byte[] h, int from, int to, byte[] n, boolean fold) {
    outer:
    for (int i = from; i + n.length <= to; i++) {
      for (int k = 0; k < n.length; k++) {
        byte a = h[i + k];
        byte b = n[k];
        if (fold ? ByteFinder.lower(a) != ByteFinder.lower(b) : a != b) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void setFindersReturnTheEarliestOccurrenceOfAnyLiteral() {
    Random random = new Random(3);
    String alphabet = "abcAB xy";
    for (int round = 0; round < 4000; round++) {
      int k = 1 + random.nextInt(3);
      List<byte[]> literals = new java.util.ArrayList<>();
      for (int i = 0; i < k; i++) {
        int len = (round % 2 == 0 ? 4 : 1) + random.nextInt(5);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < len; j++) {
          sb.append(alphabet.charAt(random.nextInt(4)));
        }
        literals.add(sb.toString().getBytes(UTF_8));
      }
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(300);
      for (int j = 0; j < n; j++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      byte[] hay = text.toString().getBytes(UTF_8);
      boolean fold = random.nextBoolean();
      int from = hay.length == 0 ? 0 : random.nextInt(hay.length);
      int expected = -1;
      for (byte[] lit : literals) {
        int i = naive(hay, from, hay.length, lit, fold);
        if (i >= 0 && (expected < 0 || i < expected)) {
          expected = i;
        }
      }
      ByteFinder[] finders = literals.stream().map(l -> new ByteFinder(l, fold)).toArray(ByteFinder[]::new);
      assertThat(new MultiFinder(finders).indexOf(hay, from, hay.length)).as("multi %d", round).isEqualTo(expected);
      if (WuManber.suits(literals)) {
        byte[] sample = random.nextBoolean() ? hay : new byte[0];
        assertThat(new WuManber(literals, fold, sample).indexOf(hay, from, hay.length))
            .as("wu-manber %d", round).isEqualTo(expected);
      }
    }
  }

  @Test
  void requiredLiteralsOfTypicalPatterns() {
    assertThat(RequiredLiterals.of("OutOfMemoryError", false)).contains(List.of("OutOfMemoryError"));
    assertThat(RequiredLiterals.of("java\\.lang\\.OutOfMemoryError: .*heap", false))
        .contains(List.of("java.lang.OutOfMemoryError: "));
    assertThat(RequiredLiterals.of("OutOfMemoryError|FetchFailed(Exception)?|Container killed", false))
        .contains(List.of("OutOfMemoryError", "FetchFailed", "Container killed"));
    assertThat(RequiredLiterals.of("exit code [0-9]+", false)).contains(List.of("exit code "));
    assertThat(RequiredLiterals.of("(?:ERROR|FATAL) .*Exception", false)).contains(List.of("Exception"));
    assertThat(RequiredLiterals.of("colou?r", false)).contains(List.of("colo"));
    assertThat(RequiredLiterals.of("\\QC++\\E compiler", false)).contains(List.of("C++ compiler"));
    // No literal every match must contain:
    assertThat(RequiredLiterals.of("\\d{4}-\\d{2}", false)).isEmpty();
    assertThat(RequiredLiterals.of("abc|\\d+", false)).isEmpty();
    assertThat(RequiredLiterals.of("(abc)?x", false)).isEmpty();
    assertThat(RequiredLiterals.of("(abc)*", false)).isEmpty();
  }

  @Test
  void caseFoldingKeepsOnlyCharactersWhoseFoldingIsAscii() {
    // k and s fold to the Kelvin sign and the long s: they end a literal.
    assertThat(RequiredLiterals.of("java heap space", true)).contains(List.of("java heap "));
    assertThat(RequiredLiterals.of("(?i)OutOfMemoryError", false)).contains(List.of("OutOfMemoryError"));
    assertThat(RequiredLiterals.of("caf\u00e9 au lait", true)).contains(List.of(" au lait"));
  }

  @Test
  void prefilterNeverRejectsALineTheRegexMatches() {
    Random random = new Random(Long.getLong("seed", 11));
    String[] atoms = {"a", "b", "k", "K", "s", "\u212a", ".", "[ab]", "\\d", "x", "\\.", "\\Qa.\\E", "{", "(?i)",
        "\\s", "\\S", "\\b", "\\w", "\\W", "[^a]", "^", "$", " ", "[[:alpha:]]", "(?m)", "(?s)", "\\x41", "\\pL", "[a-c&&b]"};
    String[] quants = {"", "", "", "?", "*", "+", "{2}", "{0,1}", "{1,3}", "+?"};
    for (int round = 0; round < Integer.getInteger("rounds", 2000); round++) {
      String re = randomRegex(random, atoms, quants, 2);
      Pattern p;
      boolean ignoreCase = random.nextBoolean();
      try {
        p = Pattern.compile(re, ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
      } catch (RuntimeException e) {
        continue;
      }
      LineMatcher m = LineMatcher.compile(new SearchQuery(re, true, ignoreCase, 0, 0, 1));
      for (int k = 0; k < 30; k++) {
        String line = randomLine(random);
        byte[] b = line.getBytes(UTF_8);
        boolean expected = p.matcher(line).find();
        assertThat(m.matches(b, 0, b.length))
            .as("/%s/%s on '%s' %s (prefilter %s)", re, ignoreCase ? "i" : "", LogText.safe(line),
                line.codePoints().mapToObj(Integer::toHexString).toList(), m.prefilter())
            .isEqualTo(expected);
      }
    }
  }

  private static String randomRegex(Random r, String[] atoms, String[] quants, int depth) {
    StringBuilder sb = new StringBuilder();
    int branches = r.nextInt(4) == 0 ? 2 : 1;
    for (int b = 0; b < branches; b++) {
      if (b > 0) {
        sb.append('|');
      }
      int n = 1 + r.nextInt(6);
      for (int i = 0; i < n; i++) {
        if (depth > 0 && r.nextInt(6) == 0) {
          sb.append(r.nextBoolean() ? "(" : "(?:").append(randomRegex(r, atoms, quants, depth - 1)).append(')');
        } else {
          sb.append(atoms[r.nextInt(atoms.length)]);
        }
        sb.append(quants[r.nextInt(quants.length)]);
      }
    }
    return sb.toString();
  }

  private static String randomLine(Random r) {
    String alphabet = r.nextInt(3) == 0 ? "abkKsSx.1{\u212a\u017f" : "abkKsSx.1{ _-A\u000b\t&";
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(12);
    for (int i = 0; i < n; i++) {
      sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @Test
  void literalSearchIsExactOrAsciiCaseInsensitive() {
    LineMatcher exact = LineMatcher.compile(SearchQuery.literal("java heap space"));
    LineMatcher folded = LineMatcher.compile(SearchQuery.literal("java heap space").withIgnoreCase(true));
    byte[] line = "Java Heap Space exhausted".getBytes(UTF_8);
    assertThat(exact.matches(line, 0, line.length)).isFalse();
    assertThat(folded.matches(line, 0, line.length)).isTrue();
    // Regex metacharacters in a literal are plain text.
    byte[] dots = "a.b*c".getBytes(UTF_8);
    assertThat(LineMatcher.compile(SearchQuery.literal(".b*")).matches(dots, 0, dots.length)).isTrue();
  }

  @Test
  void nonAsciiCaseInsensitiveLiteralUsesUnicodeFolding() {
    LineMatcher m = LineMatcher.compile(SearchQuery.literal("\u00c9CHEC").withIgnoreCase(true));
    byte[] line = "t\u00e2che: \u00e9chec du job".getBytes(UTF_8);
    assertThat(m.matches(line, 0, line.length)).isTrue();
  }

  @Test
  void invalidRegexIsRejectedWithItsPositionAndTheLiteralAlternative() {
    assertThatThrownBy(() -> LineMatcher.compile(SearchQuery.regex("Exception(")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("invalid regular expression 'Exception('")
        .hasMessageContaining("use a literal query (SearchQuery.literal)");
    assertThatThrownBy(() -> LineMatcher.compile(SearchQuery.regex("(a)\\1")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("RE2");
  }

  @Test
  void hostileRegexOnAHostileLineFinishes() {
    // (a+)+$ backtracks exponentially in java.util.regex on "aaaa...!"; RE2 is linear.
    LineMatcher m = LineMatcher.compile(SearchQuery.regex("(a+)+$"));
    byte[] line = ("a".repeat(1 << 20) + "!").getBytes(UTF_8);
    assertThat(m.matches(line, 0, line.length)).isFalse();
    LineMatcher nested = LineMatcher.compile(SearchQuery.regex("(x+x+)+y"));
    byte[] xs = "x".repeat(100_000).getBytes(UTF_8);
    assertThat(nested.matches(xs, 0, xs.length)).isFalse();
  }

  @Test
  void backtrackingPatternThatPassesTheDialectFenceIsCutOffByTheBudgetAndAnsweredByRe2() {
    // No repeated group, so java.util.regex may try it first; it backtracks polynomially here.
    String hostile = "\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*!";
    byte[] line = "a".repeat(20_000).getBytes(UTF_8);
    assertThat(BoundedJdkRegex.of(hostile, false)).hasValueSatisfying(f -> assertThat(f.find(line, 0, line.length)).isNull());
    LineMatcher m = LineMatcher.compile(SearchQuery.regex(hostile));
    assertThat(m.matches(line, 0, line.length)).isFalse();
    byte[] hit = ("a".repeat(20_000) + "!").getBytes(UTF_8);
    assertThat(m.matches(hit, 0, hit.length)).isTrue();
  }

  @Test
  void dialectFenceKeepsPatternsJavaReadsDifferentlyOnRe2() {
    for (String re : List.of("[[:alpha:]]+", "\\pL", "\\v", "[a-z&&[^b]]", "[a[b]]", "\\1", "\\123",
        "(?U)a+", "(?m)^x", "(ab)+", "(?:a|b){2}", "a(?i)*", "caf\u00e9")) {
      assertThat(BoundedJdkRegex.compatible(re).ok()).as(re).isFalse();
    }
    for (String re : List.of("Lost task [0-9]+\\.[0-9] in stage", "(OutOfMemory|FetchFailed)Error", "\\bERROR\\b",
        "(?i)exit code \\d+", "\\Q(x)+\\E", "a.*b$")) {
      assertThat(BoundedJdkRegex.compatible(re).ok()).as(re).isTrue();
    }
    assertThat(BoundedJdkRegex.compatible("ERROR\\s+x").usesSpace()).isTrue();
  }

  @Test
  void verticalTabKeepsSpaceClassesOnRe2() {
    // Java's \s holds the vertical tab, RE2's does not.
    LineMatcher m = LineMatcher.compile(SearchQuery.regex("a\\sb"));
    byte[] vt = "a\u000bb".getBytes(UTF_8);
    byte[] sp = "a b".getBytes(UTF_8);
    assertThat(m.matches(vt, 0, vt.length)).isFalse();
    assertThat(m.matches(sp, 0, sp.length)).isTrue();
  }

  @Test
  void matchesWithinAWindowOfALargerBuffer() {
    byte[] buf = "xxERRORyy Exception zz".getBytes(UTF_8);
    LineMatcher m = LineMatcher.compile(SearchQuery.regex("^ERROR"));
    assertThat(m.matches(buf, 2, 5)).isTrue();
    assertThat(m.matches(buf, 1, 6)).isFalse();
    assertThat(Optional.of(m.prefilter())).contains(List.of("ERROR"));
  }

  @Test
  void anAlternationOfLiteralsMatchesWithoutAnEngineExactlyAsTheEngineDoes() {
    assertThat(LineMatcher.literalAlternation("OutOfMemoryError|Job aborted\\.|exit code 137\\(SIGKILL"))
        .contains(List.of("OutOfMemoryError", "Job aborted.", "exit code 137(SIGKILL"));
    assertThat(LineMatcher.literalAlternation("a.b|cd")).isEmpty(); // '.' is any character
    assertThat(LineMatcher.literalAlternation("\\bERROR|WARN")).isEmpty();
    assertThat(LineMatcher.literalAlternation("ERROR||WARN")).isEmpty();
    assertThat(LineMatcher.literalAlternation("d\u00e9j\u00e0|vu")).isEmpty();
    Random random = new Random(40);
    String[] words = {"kelvin", "KELVIN", "Job aborted.", "Job abortedX", "exit code 137(SIGKILL", "ERROR ",
        "\u212aelvin", "d\u00e9j\u00e0", "x"};
    for (boolean fold : new boolean[] {false, true}) {
      SearchQuery q = SearchQuery.regex("kelvin|Job aborted\\.|exit code 137\\(SIGKILL|ERROR ").withIgnoreCase(fold);
      LineMatcher m = LineMatcher.compile(q);
      Pattern engine = Pattern.compile(q.pattern(), fold ? Pattern.CASE_INSENSITIVE : 0);
      for (int round = 0; round < 3000; round++) {
        StringBuilder line = new StringBuilder();
        for (int k = random.nextInt(4); k >= 0; k--) {
          line.append(words[random.nextInt(words.length)]).append(random.nextBoolean() ? " " : "");
        }
        byte[] b = ("pre " + line + "\n").getBytes(UTF_8);
        assertThat(m.matches(b, 4, b.length - 5)).as("'%s' fold %s", line, fold)
            .isEqualTo(engine.matcher(line.toString()).find());
      }
    }
  }
}

package io.sparkrca.inspector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds Spark anti-patterns in plain sources ({@code .py}, {@code .scala}, {@code .java},
 * {@code .sql}) with a light lexer: comments removed, string contents masked, lines joined into
 * statements, and loops and functions tracked by indentation (Python) or braces (Scala, Java).
 * It is a heuristic reader, not a compiler: every finding quotes the line it comes from.
 *
 * <p>The work is linear in the size of the source, so a generated script of megabytes is read in
 * seconds: each statement's assignment is parsed once and the latest assignment of every name is
 * kept in a map as the statements go by; the scans that look ahead (is a cached value reused, what
 * does a UDF's body do) share a budget proportional to the script and say so when it runs out;
 * findings are capped ({@link FindingCap}) and statements too long to be hand-written code are
 * left out, with a note.
 */
final class SourceAnalyzer {
  enum Lang { PYTHON, SCALA, JAVA, SQL }

  private static final Pattern PY_LOOP = Pattern.compile("^\\s*(?:async\\s+)?(for|while)\\b.*:\\s*$");
  private static final Pattern PY_DEF = Pattern.compile("^\\s*(?:async\\s+)?def\\s+(\\w+)");
  private static final Pattern PY_BLOCK = Pattern.compile(".*:\\s*$");
  private static final Pattern JVM_LOOP = Pattern.compile(
      // (?<!\\w): a receiver starts where its word does (as the leftmost match always did), so a
      // long word is not retried from each of its characters.
      "(?:^|[^\\w.])(for|while)\\s*\\(|\\bdo\\s*\\{|((?<!\\w)\\w+|\\))\\s*\\.\\s*(foreach|forEach)"
          + "\\s*[({]");
  private static final Pattern SCALA_DEF = Pattern.compile("\\bdef\\s+(\\w+)");
  private static final Pattern JAVA_DEF = Pattern.compile(
      "^\\s*(?:(?:public|private|protected|static|final|synchronized|abstract)\\s+)+"
          + "[\\w<>\\[\\],.? ]+\\s+(\\w+)\\s*\\([^;]*$");

  private static final String ACTION_NAMES =
      "count|collect|collectAsList|show|first|head|take|takeAsList|tail|toPandas|foreach"
          + "|foreachPartition|reduce|isEmpty|toLocalIterator|saveAsTable|insertInto"
          + "|saveAsTextFile";
  private static final Pattern ACTION = Pattern.compile("\\.\\s*(" + ACTION_NAMES + ")\\s*\\(");
  private static final Pattern SCALA_BARE_ACTION = Pattern.compile(
      "\\.\\s*(count|collect|show|first|isEmpty|toLocalIterator)\\b(?!\\s*[({\\w])");
  /**
   * A write: {@code WRITE_HEAD}, then the first {@code WRITE_END} after it. Searched as two
   * expressions, since one ({@code write\\b[\\s\\S]*?\\.save}) scanned to the statement's end again
   * from every {@code .write} when nothing ended it.
   */
  private static final Pattern WRITE_HEAD = Pattern.compile("\\.\\s*write(?:Stream|To)?\\b");
  private static final Pattern WRITE_END = Pattern.compile(
      "\\.\\s*(save|parquet|csv|json|orc|text|jdbc|saveAsTable|insertInto|start|append|overwrite"
          + "|toTable)\\s*\\(");
  private static final Pattern COLLECT = Pattern.compile(
      "\\.\\s*(collect|collectAsList|toPandas|collectAsMap)\\s*\\(\\s*\\)");
  private static final Pattern SCALA_COLLECT = Pattern.compile(
      "\\.\\s*(collect|collectAsList|collectAsMap)\\b(?!\\s*[{\\w])(?!\\s*\\(\\s*[^)\\s])");
  private static final Pattern BOUNDING = Pattern.compile(
      "\\.\\s*(limit|sample|agg|groupBy|groupby|describe|summary|take|head|tail|count|distinct"
          + "|first|rollup|cube)\\s*\\(");
  /**
   * An assignment: the name and the value. The possessive and atomic parts match what the plain
   * ones did (leading whitespace cannot start a keyword; a type annotation can only be followed
   * by '=' when taken whole) without trying every split of a long run of spaces.
   */
  private static final Pattern ASSIGN = Pattern.compile(
      "^\\s*+(?:val|var|final|let)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*(?>:\\s*[\\w\\[\\]<>., ]+)?"
          + "=(?!=)\\s*(.+)$");
  private static final Pattern LINEAGE = Pattern.compile(
      "^\\s*+(?:val|var|final)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*=\\s*\\1\\s*\\.\\s*"
          + "(withColumn|withColumns|withColumnRenamed|union|unionAll|unionByName|join|select"
          + "|selectExpr|filter|where|drop|crossJoin|dropDuplicates)\\s*\\(");
  private static final Pattern FOLD = Pattern.compile(
      "\\.\\s*(foldLeft|foldRight|fold)\\s*\\(\\s*(\\w+)\\s*\\)");
  private static final Pattern REDUCE_UNION = Pattern.compile(
      "\\breduce\\s*\\((?:.*\\bunion(?:All|ByName)?\\b|\\s*_\\s*(?:\\.\\s*)?union)");
  private static final Pattern GROWING = Pattern.compile(
      "\\.\\s*(withColumn|withColumnRenamed|union|unionAll|unionByName|join)\\s*\\(");
  private static final Pattern REPARTITION = Pattern.compile("\\.\\s*repartition\\s*\\(\\s*(\\d+)\\s*\\)");
  private static final Pattern SQL_REPARTITION = Pattern.compile(
      "(?i)/\\*\\+\\s*REPARTITION\\s*\\(\\s*(\\d+)\\s*\\)\\s*\\*/");
  private static final Pattern BROADCAST = Pattern.compile(
      "\\b(?:sc|sparkContext|spark\\s*\\.\\s*sparkContext|jsc|javaSparkContext|ctx)"
          + "\\s*(?:\\(\\s*\\))?\\s*\\.\\s*broadcast\\s*\\((.*)");
  private static final Pattern DRIVER_DATA = Pattern.compile(
      "\\.\\s*(collect|collectAsList|collectAsMap|toPandas|toLocalIterator)\\b|\\bpd\\s*\\.\\s*read_"
          + "|\\bopen\\s*\\(|\\bjson\\s*\\.\\s*load|Source\\s*\\.\\s*fromFile|readAllLines");
  private static final Pattern CACHE_ASSIGN = Pattern.compile(
      "^\\s*+(?:val|var|final)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*=\\s*(.*)\\.\\s*(cache|persist)"
          + "\\s*\\([^()]*(?:\\([^()]*\\))?[^()]*\\)\\s*;?\\s*$");
  private static final Pattern CACHE_ALONE = Pattern.compile(
      "^\\s*(\\w+)\\s*\\.\\s*(cache|persist)\\s*\\([^()]*(?:\\([^()]*\\))?[^()]*\\)\\s*;?\\s*$");
  private static final Pattern CACHE_CHAIN = Pattern.compile(
      "\\.\\s*(cache|persist)\\s*\\([^()]*\\)\\s*\\.\\s*(" + ACTION_NAMES + ")\\s*\\(");
  private static final Pattern SQL_CACHE = Pattern.compile(
      "(?i)\\bCACHE\\s+(?:LAZY\\s+)?TABLE\\s+([\\w.`]+)");
  private static final Pattern UDF_DECORATOR = Pattern.compile(
      "^\\s*@\\s*(?:[\\w.]+\\.)?udf\\b");
  private static final Pattern PANDAS_DECORATOR = Pattern.compile(
      "^\\s*@\\s*(?:[\\w.]+\\.)?pandas_udf\\b");
  private static final Pattern UDF_CALL = Pattern.compile(
      "(?<![\\w.])(?:[\\w]+\\.)?udf\\s*\\(\\s*(lambda\\b[^,)]*[^,]*|\\w+)");
  private static final Pattern UDF_REGISTER = Pattern.compile(
      "\\.\\s*udf\\s*\\.\\s*register\\s*\\(\\s*['\"][^'\"]*['\"]\\s*,\\s*(lambda\\b.*|\\w+)");
  private static final Pattern RDD_ROWWISE = Pattern.compile(
      "\\.\\s*rdd\\s*\\.\\s*(map|flatMap|foreach|filter)\\s*\\(");
  private static final Pattern SPARKISH_RECEIVER = Pattern.compile(
      "(?i)^(df|ds|rdd|data(set|frame)?)\\w*$");
  private static final Pattern FIRST_WORD = Pattern.compile("^\\s*(\\w+)");
  private static final Pattern SPARK_SOURCE = Pattern.compile(
      "\\bspark\\s*\\.\\s*(read|sql|table|createDataFrame|range)\\b|\\.\\s*(toDF|toDS|textFile"
          + "|parallelize|load|parquet|csv|json|orc|table)\\s*\\(");

  /**
   * The longest statement analysed. The rules are regular expressions over a statement, and some
   * of them cost the square of its length; a hand-written statement, even a long chain of
   * DataFrame calls, is a few thousand characters, so longer ones are minified or generated code.
   */
  static final int MAX_STATEMENT_CHARS = 20_000;
  /** How far back {@link #receiverOf} walks a call chain before giving up. */
  private static final int MAX_CHAIN_CHARS = 4_096;
  /** The longest UDF body whose built-ins are looked for. */
  private static final int MAX_BODY_CHARS = 16_384;

  private final String file;
  private final Lang lang;
  private final FindingCap cap = new FindingCap();
  private final Set<String> keys = new HashSet<>();
  private final List<String> notes = new ArrayList<>();
  /** The latest statement before the current one assigning each name, as the rules go by. */
  private final Map<String, Integer> lastAssignment = new HashMap<>();
  /** Per statement, whether its text bounds what it assigns (limit, sample, aggregation...). */
  private final Map<Integer, Boolean> boundedAssignment = new HashMap<>();
  private final Map<Integer, Boolean> pandasAssignment = new HashMap<>();
  /** The bodies of Python functions by the index of their def, each computed once. */
  private final Map<Integer, String> bodies = new HashMap<>();
  /** The index of the first def of each Python function name, once a UDF asks for one. */
  private Map<String, Integer> firstDefs;
  /**
   * Statements the look-ahead scans (cache reuse, UDF bodies, CACHE TABLE reads) may still visit:
   * many times the script's length, so no real script runs out, while a generated one with
   * thousands of cached values cannot make the analysis quadratic.
   */
  private long lookAheadBudget;
  private int skippedCacheChecks;
  private Stmt quotedStmt;
  private String[] quotedLines;

  /** One statement: its code (strings masked), raw text and where each physical line starts. */
  private record Stmt(int line, String code, String raw, int[] lineStarts, int[] lineNumbers,
      boolean inLoop, String loopText, Optional<String> function, int indent, int loopLine,
      String assigned, String assignedValue) {

    int lineAt(int offset) {
      int l = lineNumbers[0];
      for (int i = 0; i < lineStarts.length; i++) {
        if (lineStarts[i] <= offset) {
          l = lineNumbers[i];
        }
      }
      return l;
    }
  }

  private SourceAnalyzer(String file, Lang lang) {
    this.file = file;
    this.lang = lang;
  }

  static Optional<Lang> language(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".py") || n.endsWith(".pyw") || n.endsWith(".ipynb.py")) {
      return Optional.of(Lang.PYTHON);
    }
    if (n.endsWith(".scala") || n.endsWith(".sc")) {
      return Optional.of(Lang.SCALA);
    }
    if (n.endsWith(".java")) {
      return Optional.of(Lang.JAVA);
    }
    if (n.endsWith(".sql") || n.endsWith(".hql")) {
      return Optional.of(Lang.SQL);
    }
    return Optional.empty();
  }

  /**
   * What {@link #analyze} found.
   *
   * @param findings the findings kept under the {@link FindingCap}, by line
   * @param findingsOmitted how many more the cap left out
   * @param notes what was not analysed (over-long statements, look-aheads over budget)
   */
  record Result(List<Finding> findings, int findingsOmitted, List<String> notes) {
    Result {
      findings = List.copyOf(findings);
      notes = List.copyOf(notes);
    }
  }

  static Result analyze(String file, Lang lang, List<String> lines) {
    SourceAnalyzer a = new SourceAnalyzer(file, lang);
    List<Stmt> stmts = a.statements(lines);
    a.lookAheadBudget = 32L * stmts.size() + 1_000_000;
    a.run(stmts);
    if (a.skippedCacheChecks > 0) {
      a.notes.add(file + ": reuse was not checked for " + Texts.plural(a.skippedCacheChecks,
          "cached value") + " (cache(), persist(), CACHE TABLE): the look-ahead budget for a "
          + "script of this size ran out; split the script to check them");
    }
    List<Finding> kept = new ArrayList<>(a.cap.findings());
    kept.sort((x, y) -> Integer.compare(x.line().orElse(0), y.line().orElse(0)));
    return new Result(kept, a.cap.omitted(), a.notes);
  }

  // ---- lexing ----------------------------------------------------------------------------------

  /** Removes comments and masks string contents (quotes kept) so code patterns match only code. */
  private List<String> mask(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    boolean inBlock = false; // /* */ or """ / '''
    String tripleQuote = null;
    for (String line : lines) {
      StringBuilder b = new StringBuilder(line.length());
      int i = 0;
      while (i < line.length()) {
        char c = line.charAt(i);
        if (inBlock) {
          int end = line.indexOf("*/", i);
          if (end < 0) {
            i = line.length();
          } else {
            i = end + 2;
            inBlock = false;
          }
          continue;
        }
        if (tripleQuote != null) {
          int end = line.indexOf(tripleQuote, i);
          if (end < 0) {
            b.append(" ".repeat(line.length() - i));
            i = line.length();
          } else {
            b.append(" ".repeat(end - i)).append(tripleQuote);
            i = end + 3;
            tripleQuote = null;
          }
          continue;
        }
        if (lang == Lang.PYTHON && c == '#') {
          break;
        }
        if (lang == Lang.SQL && c == '-' && line.startsWith("--", i)) {
          break;
        }
        if (lang != Lang.PYTHON && c == '/' && line.startsWith("//", i)) {
          break;
        }
        if (lang != Lang.PYTHON && c == '/' && line.startsWith("/*", i)
            && !(lang == Lang.SQL && line.startsWith("/*+", i))) {
          inBlock = true;
          i += 2;
          continue;
        }
        if ((c == '"' || c == '\'') && (lang != Lang.SQL || c == '\'' || c == '"')) {
          if (line.startsWith("\"\"\"", i) || (lang == Lang.PYTHON && line.startsWith("'''", i))) {
            String q = line.substring(i, i + 3);
            b.append(q);
            i += 3;
            tripleQuote = q;
            continue;
          }
          if (c == '\'' && lang != Lang.PYTHON && lang != Lang.SQL) {
            // A Scala/Java char literal ('x', '\n'), or a Scala symbol: keep as is.
            b.append(c);
            i++;
            continue;
          }
          b.append(c);
          int j = i + 1;
          while (j < line.length() && line.charAt(j) != c) {
            if (line.charAt(j) == '\\') {
              j++;
            }
            j++;
          }
          b.append(" ".repeat(Math.max(0, Math.min(j, line.length()) - i - 1)));
          if (j < line.length()) {
            b.append(c);
          }
          i = j + 1;
          continue;
        }
        b.append(c);
        i++;
      }
      out.add(b.toString());
    }
    return out;
  }

  private static int indent(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ' ') {
        n++;
      } else if (c == '\t') {
        n += 8 - n % 8;
      } else {
        break;
      }
    }
    return n;
  }

  private List<Stmt> statements(List<String> raw) {
    List<String> code = mask(raw);
    List<Stmt> out = new ArrayList<>();
    // Python: an indentation stack; JVM: a brace stack.
    Deque<int[]> pyStack = new ArrayDeque<>(); // {indent, isLoop, line}
    Deque<String> pyFuncs = new ArrayDeque<>();
    Deque<int[]> braces = new ArrayDeque<>(); // {isLoop, line}
    // The lines of the loops open in those stacks, innermost first, so that whether a statement
    // is in a loop costs nothing however deep the nesting (a scan of the stack did not).
    Deque<Integer> openLoops = new ArrayDeque<>();
    Optional<String> jvmFunction = Optional.empty();
    int pendingLoopLine = -1; // a brace-less JVM loop header: the next statement is its body
    Map<String, Integer> assignedSoFar = new HashMap<>();
    int i = 0;
    while (i < code.size()) {
      if (code.get(i).isBlank()) {
        i++; // blank, or a comment only: not the start of a statement
        continue;
      }
      int start = i;
      StringBuilder c = new StringBuilder(code.get(i));
      StringBuilder r = new StringBuilder(raw.get(i));
      List<Integer> starts = new ArrayList<>(List.of(0));
      List<Integer> numbers = new ArrayList<>(List.of(i + 1));
      // Bracket depth and last character kept as lines join, not recounted over the whole
      // statement each time.
      int depth = depth(code.get(i));
      char last = lastNonBlank(code.get(i), ' ');
      while (continues(depth, last) && i + 1 < code.size() && i - start < 200) {
        i++;
        starts.add(c.length() + 1);
        numbers.add(i + 1);
        c.append(' ').append(code.get(i));
        r.append('\n').append(raw.get(i));
        depth += depth(code.get(i));
        last = lastNonBlank(code.get(i), last);
      }
      i++;
      String text = c.toString();
      if (text.isBlank()) {
        continue;
      }
      // Too long to be hand-written: kept for the line numbers and the nesting, not analysed.
      boolean analysed = text.length() <= MAX_STATEMENT_CHARS;
      int ind = indent(code.get(start));
      boolean inLoop;
      String loopText = "";
      Optional<String> function;
      int loopLine = -1;
      if (lang == Lang.PYTHON) {
        while (!pyStack.isEmpty() && pyStack.peek()[0] >= ind) {
          int[] top = pyStack.pop();
          if (top[1] == 2) {
            pyFuncs.pop();
          } else if (top[1] == 1) {
            openLoops.pop();
          }
        }
        inLoop = !openLoops.isEmpty();
        if (inLoop) {
          loopLine = openLoops.peek();
        }
        function = Optional.ofNullable(pyFuncs.peek());
        Matcher def = PY_DEF.matcher(text);
        if (!analysed) {
          // neither a def, a loop nor a block as far as the analysis knows
        } else if (def.find()) {
          pyStack.push(new int[] {ind, 2, start + 1});
          pyFuncs.push(def.group(1));
        } else if (PY_LOOP.matcher(text).matches()) {
          pyStack.push(new int[] {ind, 1, start + 1});
          openLoops.push(start + 1);
        } else if (PY_BLOCK.matcher(text).matches()) {
          pyStack.push(new int[] {ind, 0, start + 1});
        }
        if (analysed && !inLoop && isComprehension(text)) {
          loopText = text;
          loopLine = start + 1;
        }
      } else {
        inLoop = pendingLoopLine > 0;
        if (inLoop) {
          loopLine = pendingLoopLine;
        }
        if (!openLoops.isEmpty()) {
          inLoop = true;
          loopLine = loopLine < 0 ? openLoops.peek() : loopLine;
        }
        pendingLoopLine = -1;
        Matcher def = (lang == Lang.JAVA ? JAVA_DEF : SCALA_DEF).matcher(text);
        if (analysed && lang != Lang.SQL && def.find() && !text.contains(" new ")) {
          jvmFunction = Optional.of(def.group(1));
        }
        function = jvmFunction;
        Matcher loop = JVM_LOOP.matcher(text);
        int loopBrace = -1;
        if (analysed && lang != Lang.SQL && loop.find()
            && isDriverLoop(loop, text, out, assignedSoFar)) {
          int after = loop.end();
          loopText = text.substring(Math.min(after, text.length()));
          loopLine = start + 1;
          int brace = text.indexOf('{', loop.start());
          if (brace >= 0) {
            loopBrace = brace;
          } else if (!text.trim().endsWith(";") && !text.trim().endsWith(")")
              || loop.group(1) != null && bodyIsEmpty(text, loop.end())) {
            pendingLoopLine = start + 1;
          }
        }
        for (int k = 0; k < text.length(); k++) {
          char ch = text.charAt(k);
          if (ch == '{') {
            braces.push(new int[] {k == loopBrace ? 1 : 0, start + 1});
            if (k == loopBrace) {
              openLoops.push(start + 1);
            }
          } else if (ch == '}' && !braces.isEmpty()) {
            if (braces.pop()[0] == 1) {
              openLoops.pop();
            }
          }
        }
        if (braces.isEmpty()) {
          jvmFunction = Optional.empty();
        }
      }
      int[] s = starts.stream().mapToInt(Integer::intValue).toArray();
      int[] n = numbers.stream().mapToInt(Integer::intValue).toArray();
      String assigned = "";
      String assignedValue = "";
      Matcher a = ASSIGN.matcher(text);
      if (analysed && a.find()) {
        assigned = a.group(1);
        assignedValue = a.group(2);
        assignedSoFar.put(assigned, out.size());
      }
      out.add(new Stmt(start + 1, text, r.toString(), s, n, inLoop, loopText, function, ind,
          loopLine, assigned, assignedValue));
    }
    return out;
  }

  /**
   * Whether {@code text} holds a comprehension or generator: an opening bracket, then the word
   * {@code for}, at least one character, the word {@code in}, and a closing bracket, all on one
   * line. One pass; the expression it replaces, {@code [\\[({].*\\bfor\\b.+\\bin\\b.*[\\])}]},
   * backtracked over the whole statement from every bracket.
   */
  static boolean isComprehension(String text) {
    int stage = 0; // 0: want an opening bracket, 1: "for", 2: "in", 3: a closing bracket
    int from = 0; // where the next word may start
    for (int k = 0; k < text.length(); k++) {
      char c = text.charAt(k);
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        stage = 0; // '.' stops at line terminators: the four parts must share a line
        continue;
      }
      switch (stage) {
        case 0 -> {
          if (c == '[' || c == '(' || c == '{') {
            stage = 1;
          }
        }
        case 1 -> {
          if (isWordAt(text, k, "for")) {
            stage = 2;
            from = k + 4; // "for", then at least one character
          }
        }
        case 2 -> {
          if (k >= from && isWordAt(text, k, "in")) {
            stage = 3;
            from = k + 2;
          }
        }
        default -> {
          if (k >= from && (c == ']' || c == ')' || c == '}')) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether {@code word} stands at {@code k} of {@code s} between word boundaries. */
  private static boolean isWordAt(String s, int k, String word) {
    return s.startsWith(word, k) && (k == 0 || !isWordChar(s.charAt(k - 1)))
        && (k + word.length() == s.length() || !isWordChar(s.charAt(k + word.length())));
  }

  /** A word character as {@code \\b} sees one. */
  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** A JVM loop header whose parenthesis closes at the end of the line: the body is next. */
  private static boolean bodyIsEmpty(String text, int from) {
    int depth = 1;
    for (int k = from; k < text.length(); k++) {
      char ch = text.charAt(k);
      if (ch == '(') {
        depth++;
      } else if (ch == ')') {
        depth--;
        if (depth == 0) {
          return text.substring(k + 1).isBlank();
        }
      }
    }
    return false;
  }

  /** foreach on a Dataset or RDD runs on executors; on a collection it is a driver loop. */
  private boolean isDriverLoop(Matcher loop, String text, List<Stmt> before,
      Map<String, Integer> assignedSoFar) {
    if (loop.group(3) == null) {
      return true; // for, while, do
    }
    String receiver = loop.group(2);
    if (receiver == null || receiver.equals(")")) {
      return !SPARK_SOURCE.matcher(text.substring(0, loop.start())).find();
    }
    if (SPARKISH_RECEIVER.matcher(receiver).matches()) {
      return false;
    }
    Integer k = assignedSoFar.get(receiver);
    if (k == null) {
      return true;
    }
    String assigned = before.get(k).assignedValue();
    return !SPARK_SOURCE.matcher(assigned).find() || DRIVER_DATA.matcher(assigned).find();
  }

  /** Opening minus closing round and square brackets. */
  private static int depth(String line) {
    int depth = 0;
    for (int k = 0; k < line.length(); k++) {
      char ch = line.charAt(k);
      if (ch == '(' || ch == '[') {
        depth++;
      } else if (ch == ')' || ch == ']') {
        depth--;
      }
    }
    return depth;
  }

  /** The last character of {@code line} that is not whitespace; {@code before} when none. */
  private static char lastNonBlank(String line, char before) {
    for (int k = line.length() - 1; k >= 0; k--) {
      if (!Character.isWhitespace(line.charAt(k))) {
        return line.charAt(k);
      }
    }
    return before;
  }

  /** Whether a statement with this bracket depth and last character goes on to the next line. */
  private boolean continues(int depth, char last) {
    if (lang == Lang.PYTHON) {
      return depth > 0 || last == '\\';
    }
    if (lang == Lang.SQL) {
      return last != ';';
    }
    return depth > 0 || last == '.' || last == '=' || last == '+';
  }

  // ---- rules -------------------------------------------------------------------------------

  private void add(AntiPattern p, Stmt s, int offset, String evidence, String remediation) {
    int line = offset >= 0 ? s.lineAt(offset) : s.line();
    if (!keys.add(p + "|" + line)) {
      return;
    }
    if (!cap.hasRoom(p)) {
      cap.omit(1); // counted, not quoted nor redacted: past the cap only the count is shown
      return;
    }
    String quoted = quoteLine(s, line);
    cap.add(new Finding(p, file, Optional.empty(), s.function(), OptionalInt.of(line),
        evidence + (quoted.isEmpty() ? "" : ": " + quoted), remediation));
  }

  /** Whether a finding of {@code p} on the line at {@code offset} of {@code s} was made already. */
  private boolean found(AntiPattern p, Stmt s, int offset) {
    return keys.contains(p + "|" + s.lineAt(offset));
  }

  private String quoteLine(Stmt s, int line) {
    if (s != quotedStmt) {
      // Split once per statement: one long statement may give several findings.
      quotedStmt = s;
      quotedLines = s.raw().split("\n", -1);
    }
    String[] raws = quotedLines;
    for (int i = 0; i < s.lineNumbers().length && i < raws.length; i++) {
      if (s.lineNumbers()[i] == line) {
        String t = io.sparkrca.core.redaction.Redactor.standard().redactText(raws[i].strip());
        return "`" + Texts.safe(t.length() > 160 ? t.substring(0, 157) + "..." : t) + "`";
      }
    }
    return "";
  }

  private void run(List<Stmt> stmts) {
    Set<String> pandasUdfs = new HashSet<>();
    int tooLong = 0;
    for (int i = 0; i < stmts.size(); i++) {
      Stmt s = stmts.get(i);
      if (i > 0 && !stmts.get(i - 1).assigned().isEmpty()) {
        lastAssignment.put(stmts.get(i - 1).assigned(), i - 1);
      }
      if (s.code().length() > MAX_STATEMENT_CHARS) {
        tooLong++;
        continue;
      }
      if (lang == Lang.SQL) {
        sql(stmts, i);
        continue;
      }
      actions(s);
      collect(stmts, i);
      lineage(stmts, i);
      repartition(stmts, i);
      broadcast(stmts, i);
      cache(stmts, i);
      if (lang == Lang.PYTHON) {
        udfs(stmts, i, pandasUdfs);
      }
    }
    if (tooLong > 0) {
      notes.add(file + ": " + Texts.plural(tooLong, "statement") + " longer than "
          + Texts.count(MAX_STATEMENT_CHARS) + " characters (minified or generated code) "
          + (tooLong == 1 ? "was" : "were") + " not analysed for anti-patterns");
    }
  }

  private void actions(Stmt s) {
    String loopPart = s.inLoop() ? s.code() : s.loopText();
    if (loopPart.isEmpty()) {
      return;
    }
    int base = s.inLoop() ? 0 : s.code().length() - loopPart.length();
    Matcher head = WRITE_HEAD.matcher(loopPart);
    Matcher w = WRITE_END.matcher(loopPart);
    if (head.find() && w.find(head.end())) {
      add(AntiPattern.ACTION_IN_LOOP, s, base + w.start(1), "a write (." + w.group(1)
          + ") runs once per iteration of the loop" + loopRef(s),
          AntiPattern.ACTION_IN_LOOP.remediation());
      return;
    }
    Matcher a = ACTION.matcher(loopPart);
    Matcher bare = SCALA_BARE_ACTION.matcher(loopPart);
    if (a.find()) {
      add(AntiPattern.ACTION_IN_LOOP, s, base + a.start(1), "." + a.group(1)
          + "() runs a Spark job once per iteration of the loop" + loopRef(s),
          AntiPattern.ACTION_IN_LOOP.remediation());
    } else if (lang == Lang.SCALA && bare.find()) {
      add(AntiPattern.ACTION_IN_LOOP, s, base + bare.start(1), "." + bare.group(1)
          + " runs a Spark job once per iteration of the loop" + loopRef(s),
          AntiPattern.ACTION_IN_LOOP.remediation());
    }
  }

  private static String loopRef(Stmt s) {
    return s.loopLine() > 0 && s.loopLine() != s.line() ? " at line " + s.loopLine() : "";
  }

  private void collect(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher m = (lang == Lang.SCALA ? SCALA_COLLECT : COLLECT).matcher(s.code());
    // A bounding call before a collect means one in the statement's prefix; BOUNDING's matches
    // cannot overlap, so that is the first match in the statement ending before the collect
    // (found once, rather than searching each collect's prefix again).
    Matcher bounding = BOUNDING.matcher(s.code());
    int boundedFrom = bounding.find() ? bounding.end() : Integer.MAX_VALUE;
    while (m.find()) {
      if (boundedFrom <= m.start() || found(AntiPattern.COLLECT_UNBOUNDED, s, m.start(1))) {
        continue;
      }
      String receiver = receiverOf(s.code(), m.start());
      Integer k = receiver.isEmpty() ? null : lastAssignment.get(receiver);
      if (k != null && (pandas(stmts.get(k)) || bounded(stmts.get(k)))) {
        continue;
      }
      add(AntiPattern.COLLECT_UNBOUNDED, s, m.start(1), "." + m.group(1) + "() with no "
          + "limit(), sample() or aggregation before it", AntiPattern.COLLECT_UNBOUNDED.remediation());
    }
  }

  /** Whether the value a statement assigns is a pandas one: collecting it is not Spark's. */
  private boolean pandas(Stmt assignment) {
    return pandasAssignment.computeIfAbsent(assignment.line(),
        l -> assignment.assignedValue().matches("(?s).*\\bpd\\s*\\..*"));
  }

  /** Whether a statement bounds the value it assigns (limit, sample, aggregation...). */
  private boolean bounded(Stmt assignment) {
    return boundedAssignment.computeIfAbsent(assignment.line(),
        l -> BOUNDING.matcher(assignment.raw()).find()
            || assignment.raw().matches("(?is).*\\blimit\\s+\\d+.*"));
  }

  /**
   * The identifier a call chain starts from: {@code df} in {@code df.filter(x).collect}, the
   * chain ending at {@code end} of {@code code}. Only the last {@link #MAX_CHAIN_CHARS} are
   * walked, so a line of a thousand chained calls costs no more than a short one.
   */
  private static String receiverOf(String code, int end) {
    return receiverOf(code.substring(Math.max(0, end - MAX_CHAIN_CHARS), end));
  }

  /** The identifier a call chain starts from: {@code df} in {@code df.filter(x).collect}. */
  private static String receiverOf(String before) {
    String t = before.strip();
    int depth = 0;
    int k = t.length() - 1;
    // Walk back over the chain to its head.
    while (k >= 0) {
      char ch = t.charAt(k);
      if (ch == ')' || ch == ']') {
        depth++;
      } else if (ch == '(' || ch == '[') {
        if (depth == 0) {
          break;
        }
        depth--;
      } else if (depth == 0 && !(Character.isJavaIdentifierPart(ch) || ch == '.'
          || Character.isWhitespace(ch))) {
        break;
      }
      k--;
    }
    String chain = t.substring(k + 1).strip();
    Matcher id = Pattern.compile("^(\\w+)").matcher(chain);
    return id.find() ? id.group(1) : "";
  }

  private void lineage(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher m = LINEAGE.matcher(s.code());
    if ((s.inLoop() || !s.loopText().isEmpty()) && m.find()) {
      add(AntiPattern.LINEAGE_IN_LOOP, s, m.start(2), m.group(1) + " = " + m.group(1) + "."
          + m.group(2) + "(...) inside a loop" + loopRef(s) + ": the plan grows every iteration",
          AntiPattern.LINEAGE_IN_LOOP.remediation());
      return;
    }
    Matcher f = FOLD.matcher(s.code());
    if (f.find()) {
      StringBuilder window = new StringBuilder(s.code().substring(f.end()));
      for (int k = i + 1; k < Math.min(stmts.size(), i + 6); k++) {
        window.append(' ').append(stmts.get(k).code());
      }
      Matcher g = GROWING.matcher(window);
      if (g.find()) {
        add(AntiPattern.LINEAGE_IN_LOOP, s, f.start(1), "." + f.group(1) + "(" + f.group(2)
            + ") applies ." + g.group(1) + "(...) once per element: one more plan node each",
            AntiPattern.LINEAGE_IN_LOOP.remediation());
      }
      return;
    }
    Matcher r = REDUCE_UNION.matcher(s.code());
    if (r.find()) {
      add(AntiPattern.LINEAGE_IN_LOOP, s, r.start(), "reduce(...) unions DataFrames one at a "
          + "time, nesting one Union per element", "pass the whole list at once: "
          + (lang == Lang.PYTHON ? "spark.createDataFrame(...) of all inputs, or read them with "
              + "one spark.read call over all paths" : "read all inputs with one spark.read call")
          + "; when unions are unavoidable, checkpoint() every few dozen of them");
    }
  }

  private void repartition(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher m = REPARTITION.matcher(s.code());
    if (!m.find()) {
      return;
    }
    int n = Integer.parseInt(m.group(1).length() > 9 ? "999999999" : m.group(1));
    boolean writeAfter = s.code().substring(m.end()).matches("(?s).*\\.\\s*write\\b.*");
    if (!writeAfter) {
      Matcher a = ASSIGN.matcher(s.code());
      if (a.find()) {
        String var = a.group(1);
        Pattern use = Pattern.compile("\\b" + Pattern.quote(var) + "\\s*\\.\\s*write\\b");
        for (int k = i + 1; k < Math.min(stmts.size(), i + 6); k++) {
          if (use.matcher(stmts.get(k).code()).find()) {
            writeAfter = true;
            break;
          }
        }
      }
    }
    if (n == 1 || writeAfter) {
      add(AntiPattern.REPARTITION_WHERE_COALESCE_FITS, s, m.start(), "repartition(" + n + ")"
          + (writeAfter ? " only to set the number of output files" : " funnels all data "
              + "through one task after a full shuffle"),
          "use coalesce(" + n + "): it merges partitions without shuffling every row; keep "
              + "repartition to raise parallelism or to spread skewed data by a column");
    }
  }

  private void broadcast(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher m = BROADCAST.matcher(s.code());
    if (!m.find()) {
      return;
    }
    String arg = m.group(1);
    Matcher direct = DRIVER_DATA.matcher(arg);
    if (direct.find()) {
      add(AntiPattern.BROADCAST_DRIVER_COLLECTION, s, m.start(), "broadcasts data built on the "
          + "driver by " + direct.group().strip() + "...", AntiPattern.BROADCAST_DRIVER_COLLECTION.remediation());
      return;
    }
    Matcher id = FIRST_WORD.matcher(arg);
    Integer k = id.find() ? lastAssignment.get(id.group(1)) : null;
    if (k != null) {
      Matcher d = DRIVER_DATA.matcher(stmts.get(k).assignedValue());
      if (d.find()) {
        add(AntiPattern.BROADCAST_DRIVER_COLLECTION, s, m.start(), "broadcasts "
            + id.group(1) + ", built on the driver by " + d.group().strip() + "... at line "
            + stmts.get(k).line(), AntiPattern.BROADCAST_DRIVER_COLLECTION.remediation());
      }
    }
  }

  private void cache(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher chain = CACHE_CHAIN.matcher(s.code());
    String var = null;
    int offset;
    Matcher a = CACHE_ASSIGN.matcher(s.code());
    Matcher alone = CACHE_ALONE.matcher(s.code());
    if (a.find()) {
      var = a.group(1);
      offset = a.start(3);
    } else if (alone.find()) {
      var = alone.group(1);
      offset = alone.start(2);
    } else if (chain.find() && s.assigned().isEmpty()) {
      add(AntiPattern.CACHE_WITHOUT_REUSE, s, chain.start(1), "." + chain.group(1)
          + "() on a result that is not kept, so only this one ." + chain.group(2)
          + "() can use the cache", AntiPattern.CACHE_WITHOUT_REUSE.remediation());
      return;
    } else {
      return;
    }
    if (s.inLoop()) {
      return;
    }
    Pattern use = Pattern.compile("\\b" + Pattern.quote(var) + "\\b");
    Pattern unpersist = Pattern.compile("\\b" + Pattern.quote(var) + "\\s*\\.\\s*unpersist\\b");
    Pattern reassigned = Pattern.compile("^\\s*+(?:val|var)?\\s*" + Pattern.quote(var) + "\\s*=(?!=)");
    int uses = 0;
    for (int k = i + 1; k < stmts.size(); k++) {
      if (--lookAheadBudget < 0) {
        skippedCacheChecks++;
        return; // unknown whether it is reused: no finding rather than a wrong one
      }
      Stmt t = stmts.get(k);
      if (lang == Lang.PYTHON && t.indent() < s.indent() && !s.function().equals(t.function())) {
        break;
      }
      if (!t.code().contains(var)) {
        continue; // neither a use nor a reassignment, without running either expression
      }
      if (reassigned.matcher(t.code()).find()) {
        Matcher self = use.matcher(t.code().substring(t.code().indexOf('=') + 1));
        if (self.find()) {
          uses++;
        }
        break;
      }
      Matcher u = use.matcher(t.code());
      while (u.find()) {
        if (unpersist.matcher(t.code().substring(u.start())).lookingAt()) {
          continue;
        }
        uses += t.inLoop() || !t.loopText().isEmpty() ? 2 : 1;
        if (uses > 1) {
          return;
        }
      }
    }
    add(AntiPattern.CACHE_WITHOUT_REUSE, s, offset, var + " is cached but used "
        + (uses == 0 ? "nowhere" : "only once") + " afterwards",
        AntiPattern.CACHE_WITHOUT_REUSE.remediation());
  }

  private void udfs(List<Stmt> stmts, int i, Set<String> pandasUdfs) {
    Stmt s = stmts.get(i);
    if (PANDAS_DECORATOR.matcher(s.code()).find()) {
      for (int k = i + 1; k < Math.min(stmts.size(), i + 3); k++) {
        Matcher def = PY_DEF.matcher(stmts.get(k).code());
        if (def.find()) {
          pandasUdfs.add(def.group(1));
          break;
        }
      }
      return;
    }
    if (UDF_DECORATOR.matcher(s.code()).find()) {
      for (int k = i + 1; k < Math.min(stmts.size(), i + 3); k++) {
        Stmt d = stmts.get(k);
        Matcher def = PY_DEF.matcher(d.code());
        if (def.find()) {
          if (cap.hasRoom(AntiPattern.ROW_WISE_PYTHON_UDF)) {
            add(AntiPattern.ROW_WISE_PYTHON_UDF, s, -1, "@udf " + def.group(1) + "(...) runs "
                + "once per row in a Python worker", udfRemediation(body(stmts, k)));
          } else {
            add(AntiPattern.ROW_WISE_PYTHON_UDF, s, -1, "", ""); // only counted
          }
          return;
        }
      }
      return;
    }
    Matcher call = UDF_CALL.matcher(s.code());
    while (call.find()) {
      String prefix = s.code().substring(0, call.start());
      if (prefix.endsWith("pandas_") || s.code().substring(call.start()).startsWith("pandas_udf")) {
        continue;
      }
      String fn = call.group(1).strip();
      if (pandasUdfs.contains(fn)) {
        continue;
      }
      if (!cap.hasRoom(AntiPattern.ROW_WISE_PYTHON_UDF)) {
        add(AntiPattern.ROW_WISE_PYTHON_UDF, s, call.start(), "", ""); // only counted
        continue;
      }
      String body = fn.startsWith("lambda") ? s.raw() : functionBody(stmts, fn);
      add(AntiPattern.ROW_WISE_PYTHON_UDF, s, call.start(), "udf(" + shorten(fn) + ") runs once "
          + "per row in a Python worker", udfRemediation(body));
    }
    Matcher reg = UDF_REGISTER.matcher(s.code());
    if (reg.find() && !pandasUdfs.contains(reg.group(1).strip())) {
      String fn = reg.group(1).strip();
      String body = !cap.hasRoom(AntiPattern.ROW_WISE_PYTHON_UDF) ? ""
          : fn.startsWith("lambda") ? s.raw() : functionBody(stmts, fn);
      add(AntiPattern.ROW_WISE_PYTHON_UDF, s, reg.start(), "spark.udf.register(..., "
          + shorten(fn) + ") registers a row-at-a-time Python UDF", udfRemediation(body));
    }
    Matcher rdd = RDD_ROWWISE.matcher(s.code());
    if (rdd.find()) {
      add(AntiPattern.ROW_WISE_PYTHON_UDF, s, rdd.start(), ".rdd." + rdd.group(1) + "(...) "
          + "turns every row into a Python object", "stay in the DataFrame API: select/"
          + "withColumn with built-in functions, or mapInPandas for vectorised Python");
    }
  }

  private static String shorten(String s) {
    String t = s.replaceAll("\\s+", " ");
    return t.length() > 40 ? t.substring(0, 37) + "..." : t;
  }

  /** The body of the first Python function called {@code name}; empty when there is none. */
  private String functionBody(List<Stmt> stmts, String name) {
    if (firstDefs == null) {
      firstDefs = new HashMap<>();
      for (int k = 0; k < stmts.size(); k++) {
        if (stmts.get(k).code().length() <= MAX_STATEMENT_CHARS) {
          Matcher def = PY_DEF.matcher(stmts.get(k).code());
          if (def.find()) {
            firstDefs.putIfAbsent(def.group(1), k);
          }
        }
      }
    }
    Integer k = firstDefs.get(name);
    return k == null ? "" : body(stmts, k);
  }

  /**
   * The raw text of the statements indented under the one at {@code def}, at most {@link
   * #MAX_BODY_CHARS} of it: enough to see which built-ins a UDF's body maps to.
   */
  private String body(List<Stmt> stmts, int def) {
    String known = bodies.get(def);
    if (known != null) {
      return known;
    }
    StringBuilder body = new StringBuilder();
    int ind = stmts.get(def).indent();
    for (int b = def + 1; b < stmts.size() && stmts.get(b).indent() > ind
        && body.length() < MAX_BODY_CHARS && --lookAheadBudget >= 0; b++) {
      body.append(stmts.get(b).raw()).append('\n');
    }
    String text = body.length() > MAX_BODY_CHARS ? body.substring(0, MAX_BODY_CHARS)
        : body.toString();
    bodies.put(def, text);
    return text;
  }

  private static final Map<Pattern, String> BUILTINS = new LinkedHashMap<>();

  static {
    BUILTINS.put(Pattern.compile("\\.upper\\(\\)"), "F.upper");
    BUILTINS.put(Pattern.compile("\\.lower\\(\\)"), "F.lower");
    BUILTINS.put(Pattern.compile("\\.strip\\(\\)|\\.lstrip\\(\\)|\\.rstrip\\(\\)"), "F.trim/ltrim/rtrim");
    BUILTINS.put(Pattern.compile("\\blen\\("), "F.length / F.size");
    BUILTINS.put(Pattern.compile("\\bre\\.sub\\(|\\.replace\\("), "F.regexp_replace");
    BUILTINS.put(Pattern.compile("\\bre\\.(search|match|findall)\\("), "F.regexp_extract");
    BUILTINS.put(Pattern.compile("\\.split\\("), "F.split");
    BUILTINS.put(Pattern.compile("\\bjson\\.loads\\("), "F.from_json");
    BUILTINS.put(Pattern.compile("strptime|strftime"), "F.to_timestamp / F.date_format");
    BUILTINS.put(Pattern.compile("\\bis None\\b|\\bif\\b.*\\belse\\b"), "F.when(...).otherwise(...) / F.coalesce");
    BUILTINS.put(Pattern.compile("\\bround\\("), "F.round");
    BUILTINS.put(Pattern.compile("\\babs\\("), "F.abs");
    BUILTINS.put(Pattern.compile("\\.startswith\\(|\\.endswith\\("), "Column.startswith / endswith");
    BUILTINS.put(Pattern.compile("\\bin\\s*[\\[({]"), "Column.isin");
    BUILTINS.put(Pattern.compile("\\bhashlib\\.(md5|sha1|sha256)"), "F.md5 / F.sha1 / F.sha2");
  }

  private static String udfRemediation(String body) {
    List<String> hints = new ArrayList<>();
    for (Map.Entry<Pattern, String> e : BUILTINS.entrySet()) {
      if (e.getKey().matcher(body).find()) {
        hints.add(e.getValue());
      }
    }
    if (hints.isEmpty()) {
      return AntiPattern.ROW_WISE_PYTHON_UDF.remediation();
    }
    return "the body maps to built-ins: " + String.join(", ", hints) + " (pyspark.sql.functions, "
        + "run in the JVM); if Python is still needed, make it a vectorised @pandas_udf";
  }

  private void sql(List<Stmt> stmts, int i) {
    Stmt s = stmts.get(i);
    Matcher r = SQL_REPARTITION.matcher(s.raw());
    if (r.find() && s.code().matches("(?is).*\\b(insert|create)\\b.*")) {
      add(AntiPattern.REPARTITION_WHERE_COALESCE_FITS, s, -1, "/*+ REPARTITION(" + r.group(1)
          + ") */ in a write only sets the number of output files",
          "use /*+ COALESCE(" + r.group(1) + ") */, which avoids a full shuffle; keep "
              + "REPARTITION(n, col) to spread skewed data");
    }
    Matcher c = SQL_CACHE.matcher(s.code());
    if (c.find()) {
      String table = c.group(1).replace("`", "");
      String simple = table.substring(table.lastIndexOf('.') + 1);
      Pattern use = Pattern.compile("(?i)\\b" + Pattern.quote(simple) + "\\b");
      int uses = 0;
      for (int k = i + 1; k < stmts.size(); k++) {
        if (--lookAheadBudget < 0) {
          skippedCacheChecks++;
          return;
        }
        String code = stmts.get(k).code();
        if (!containsIgnoreCase(code, simple)) {
          continue; // no read of the table, without running the expressions
        }
        if (code.matches("(?is)\\s*UNCACHE\\b.*")) {
          continue;
        }
        if (use.matcher(code).find()) {
          uses++;
        }
      }
      if (uses <= 1) {
        add(AntiPattern.CACHE_WITHOUT_REUSE, s, c.start(), "CACHE TABLE " + table + " is read "
            + (uses == 0 ? "by no later statement" : "by only one later statement"),
            "drop the CACHE TABLE when the table is read once; otherwise UNCACHE TABLE after "
                + "the last read");
      }
    }
  }

  /**
   * Whether {@code s} holds {@code word} in any case. It folds case at least as widely as {@code
   * (?i)}, so it never says no where that expression would find the word.
   */
  private static boolean containsIgnoreCase(String s, String word) {
    for (int k = 0; k + word.length() <= s.length(); k++) {
      if (s.regionMatches(true, k, word, 0, word.length())) {
        return true;
      }
    }
    return false;
  }

  /** The language name of a file, {@code text} when it is not a source this class reads. */
  static String languageName(String name) {
    return language(name).map(l -> l.name().toLowerCase(Locale.ROOT)).orElse("text");
  }
}

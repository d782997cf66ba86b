package io.sparkrca.inspector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 */
final class SourceAnalyzer {
  enum Lang { PYTHON, SCALA, JAVA, SQL }

  private static final Pattern PY_LOOP = Pattern.compile("^\\s*(?:async\\s+)?(for|while)\\b.*:\\s*$");
  private static final Pattern PY_DEF = Pattern.compile("^\\s*(?:async\\s+)?def\\s+(\\w+)");
  private static final Pattern PY_BLOCK = Pattern.compile(".*:\\s*$");
  private static final Pattern JVM_LOOP = Pattern.compile(
      "(?:^|[^\\w.])(for|while)\\s*\\(|\\bdo\\s*\\{|(\\w+|\\))\\s*\\.\\s*(foreach|forEach)\\s*[({]");
  private static final Pattern SCALA_DEF = Pattern.compile("\\bdef\\s+(\\w+)");
  private static final Pattern JAVA_DEF = Pattern.compile(
      "^\\s*(?:(?:public|private|protected|static|final|synchronized|abstract)\\s+)+"
          + "[\\w<>\\[\\],.? ]+\\s+(\\w+)\\s*\\([^;]*$");
  private static final Pattern COMPREHENSION = Pattern.compile("[\\[({].*\\bfor\\b.+\\bin\\b.*[\\])}]");

  private static final String ACTION_NAMES =
      "count|collect|collectAsList|show|first|head|take|takeAsList|tail|toPandas|foreach"
          + "|foreachPartition|reduce|isEmpty|toLocalIterator|saveAsTable|insertInto"
          + "|saveAsTextFile";
  private static final Pattern ACTION = Pattern.compile("\\.\\s*(" + ACTION_NAMES + ")\\s*\\(");
  private static final Pattern SCALA_BARE_ACTION = Pattern.compile(
      "\\.\\s*(count|collect|show|first|isEmpty|toLocalIterator)\\b(?!\\s*[({\\w])");
  private static final Pattern WRITE = Pattern.compile(
      "\\.\\s*write(?:Stream|To)?\\b[\\s\\S]*?\\.\\s*(save|parquet|csv|json|orc|text|jdbc|saveAsTable"
          + "|insertInto|start|append|overwrite|toTable)\\s*\\(");
  private static final Pattern COLLECT = Pattern.compile(
      "\\.\\s*(collect|collectAsList|toPandas|collectAsMap)\\s*\\(\\s*\\)");
  private static final Pattern SCALA_COLLECT = Pattern.compile(
      "\\.\\s*(collect|collectAsList|collectAsMap)\\b(?!\\s*[{\\w])(?!\\s*\\(\\s*[^)\\s])");
  private static final Pattern BOUNDING = Pattern.compile(
      "\\.\\s*(limit|sample|agg|groupBy|groupby|describe|summary|take|head|tail|count|distinct"
          + "|first|rollup|cube)\\s*\\(");
  private static final Pattern ASSIGN = Pattern.compile(
      "^\\s*(?:val|var|final|let)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*(?::\\s*[\\w\\[\\]<>., ]+)?"
          + "=(?!=)\\s*(.+)$");
  private static final Pattern LINEAGE = Pattern.compile(
      "^\\s*(?:val|var|final)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*=\\s*\\1\\s*\\.\\s*"
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
      "^\\s*(?:val|var|final)?\\s*(?:[\\w<>\\[\\],.?]+\\s+)?(\\w+)\\s*=\\s*(.*)\\.\\s*(cache|persist)"
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
  private static final Pattern SPARK_SOURCE = Pattern.compile(
      "\\bspark\\s*\\.\\s*(read|sql|table|createDataFrame|range)\\b|\\.\\s*(toDF|toDS|textFile"
          + "|parallelize|load|parquet|csv|json|orc|table)\\s*\\(");

  private final String file;
  private final Lang lang;
  private final List<Finding> findings = new ArrayList<>();
  private final Set<String> keys = new HashSet<>();

  /** One statement: its code (strings masked), raw text and where each physical line starts. */
  private record Stmt(int line, String code, String raw, int[] lineStarts, int[] lineNumbers,
      boolean inLoop, String loopText, Optional<String> function, int indent, int loopLine) {

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

  static List<Finding> analyze(String file, Lang lang, List<String> lines) {
    SourceAnalyzer a = new SourceAnalyzer(file, lang);
    List<Stmt> stmts = a.statements(lines);
    a.run(stmts);
    a.findings.sort((x, y) -> Integer.compare(x.line().orElse(0), y.line().orElse(0)));
    return a.findings;
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
    Optional<String> jvmFunction = Optional.empty();
    int pendingLoopLine = -1; // a brace-less JVM loop header: the next statement is its body
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
      while (continues(c) && i + 1 < code.size() && i - start < 200) {
        i++;
        starts.add(c.length() + 1);
        numbers.add(i + 1);
        c.append(' ').append(code.get(i));
        r.append('\n').append(raw.get(i));
      }
      i++;
      String text = c.toString();
      if (text.isBlank()) {
        continue;
      }
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
          }
        }
        inLoop = false;
        for (int[] f : pyStack) {
          if (f[1] == 1) {
            inLoop = true;
            loopLine = loopLine < 0 ? f[2] : loopLine;
          }
        }
        function = Optional.ofNullable(pyFuncs.peek());
        Matcher def = PY_DEF.matcher(text);
        if (def.find()) {
          pyStack.push(new int[] {ind, 2, start + 1});
          pyFuncs.push(def.group(1));
        } else if (PY_LOOP.matcher(text).matches()) {
          pyStack.push(new int[] {ind, 1, start + 1});
        } else if (PY_BLOCK.matcher(text).matches()) {
          pyStack.push(new int[] {ind, 0, start + 1});
        }
        if (!inLoop && COMPREHENSION.matcher(text).find()) {
          loopText = text;
          loopLine = start + 1;
        }
      } else {
        inLoop = pendingLoopLine > 0;
        if (inLoop) {
          loopLine = pendingLoopLine;
        }
        for (int[] b : braces) {
          if (b[0] == 1) {
            inLoop = true;
            loopLine = loopLine < 0 ? b[1] : loopLine;
          }
        }
        pendingLoopLine = -1;
        Matcher def = (lang == Lang.JAVA ? JAVA_DEF : SCALA_DEF).matcher(text);
        if (lang != Lang.SQL && def.find() && !text.contains(" new ")) {
          jvmFunction = Optional.of(def.group(1));
        }
        function = jvmFunction;
        Matcher loop = JVM_LOOP.matcher(text);
        int loopBrace = -1;
        if (lang != Lang.SQL && loop.find() && isDriverLoop(loop, text, out)) {
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
          } else if (ch == '}' && !braces.isEmpty()) {
            braces.pop();
          }
        }
        if (braces.isEmpty()) {
          jvmFunction = Optional.empty();
        }
      }
      int[] s = starts.stream().mapToInt(Integer::intValue).toArray();
      int[] n = numbers.stream().mapToInt(Integer::intValue).toArray();
      out.add(new Stmt(start + 1, text, r.toString(), s, n, inLoop, loopText, function, ind,
          loopLine));
    }
    return out;
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
  private boolean isDriverLoop(Matcher loop, String text, List<Stmt> before) {
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
    Optional<String> assigned = assignment(before, receiver);
    return assigned.isEmpty() || !SPARK_SOURCE.matcher(assigned.get()).find()
        || DRIVER_DATA.matcher(assigned.get()).find();
  }

  private boolean continues(CharSequence s) {
    int depth = 0;
    for (int k = 0; k < s.length(); k++) {
      char ch = s.charAt(k);
      if (ch == '(' || ch == '[') {
        depth++;
      } else if (ch == ')' || ch == ']') {
        depth--;
      }
    }
    String t = s.toString().stripTrailing();
    if (lang == Lang.PYTHON) {
      return depth > 0 || t.endsWith("\\");
    }
    if (lang == Lang.SQL) {
      return !t.endsWith(";");
    }
    return depth > 0 || t.endsWith(".") || t.endsWith("=") || t.endsWith("+");
  }

  // ---- rules -------------------------------------------------------------------------------

  private void add(AntiPattern p, Stmt s, int offset, String evidence, String remediation) {
    int line = offset >= 0 ? s.lineAt(offset) : s.line();
    if (!keys.add(p + "|" + line)) {
      return;
    }
    String quoted = quoteLine(s, line);
    findings.add(new Finding(p, file, Optional.empty(), s.function(), OptionalInt.of(line),
        evidence + (quoted.isEmpty() ? "" : ": " + quoted), remediation));
  }

  private static String quoteLine(Stmt s, int line) {
    String[] raws = s.raw().split("\n", -1);
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
    for (int i = 0; i < stmts.size(); i++) {
      Stmt s = stmts.get(i);
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
  }

  private void actions(Stmt s) {
    String loopPart = s.inLoop() ? s.code() : s.loopText();
    if (loopPart.isEmpty()) {
      return;
    }
    int base = s.inLoop() ? 0 : s.code().length() - loopPart.length();
    Matcher w = WRITE.matcher(loopPart);
    if (w.find()) {
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
    while (m.find()) {
      String before = s.code().substring(0, m.start());
      if (BOUNDING.matcher(before).find() || isPandasReceiver(stmts, i, before)) {
        continue;
      }
      String receiver = receiverOf(before);
      if (!receiver.isEmpty()) {
        Optional<String> assigned = assignmentRaw(stmts.subList(0, i), receiver);
        if (assigned.isPresent() && (BOUNDING.matcher(assigned.get()).find()
            || assigned.get().matches("(?is).*\\blimit\\s+\\d+.*"))) {
          continue;
        }
      }
      add(AntiPattern.COLLECT_UNBOUNDED, s, m.start(1), "." + m.group(1) + "() with no "
          + "limit(), sample() or aggregation before it", AntiPattern.COLLECT_UNBOUNDED.remediation());
    }
  }

  private boolean isPandasReceiver(List<Stmt> stmts, int i, String before) {
    String receiver = receiverOf(before);
    if (receiver.isEmpty()) {
      return false;
    }
    Optional<String> assigned = assignment(stmts.subList(0, i), receiver);
    return assigned.isPresent() && assigned.get().matches("(?s).*\\bpd\\s*\\..*");
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

  private static Optional<String> assignment(List<Stmt> before, String name) {
    for (int k = before.size() - 1; k >= 0; k--) {
      Matcher a = ASSIGN.matcher(before.get(k).code());
      if (a.find() && a.group(1).equals(name)) {
        return Optional.of(a.group(2));
      }
    }
    return Optional.empty();
  }

  private static Optional<String> assignmentRaw(List<Stmt> before, String name) {
    for (int k = before.size() - 1; k >= 0; k--) {
      Matcher a = ASSIGN.matcher(before.get(k).code());
      if (a.find() && a.group(1).equals(name)) {
        return Optional.of(before.get(k).raw());
      }
    }
    return Optional.empty();
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
    Matcher id = Pattern.compile("^\\s*(\\w+)").matcher(arg);
    if (id.find()) {
      for (int k = i - 1; k >= 0; k--) {
        Matcher a = ASSIGN.matcher(stmts.get(k).code());
        if (a.find() && a.group(1).equals(id.group(1))) {
          Matcher d = DRIVER_DATA.matcher(a.group(2));
          if (d.find()) {
            add(AntiPattern.BROADCAST_DRIVER_COLLECTION, s, m.start(), "broadcasts "
                + id.group(1) + ", built on the driver by " + d.group().strip() + "... at line "
                + stmts.get(k).line(), AntiPattern.BROADCAST_DRIVER_COLLECTION.remediation());
          }
          return;
        }
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
    } else if (chain.find() && !ASSIGN.matcher(s.code()).find()) {
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
    Pattern reassigned = Pattern.compile("^\\s*(?:val|var)?\\s*" + Pattern.quote(var) + "\\s*=(?!=)");
    int uses = 0;
    for (int k = i + 1; k < stmts.size(); k++) {
      Stmt t = stmts.get(k);
      if (lang == Lang.PYTHON && t.indent() < s.indent() && !s.function().equals(t.function())) {
        break;
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
          StringBuilder body = new StringBuilder();
          for (int b = k + 1; b < stmts.size() && stmts.get(b).indent() > d.indent(); b++) {
            body.append(stmts.get(b).raw()).append('\n');
          }
          add(AntiPattern.ROW_WISE_PYTHON_UDF, s, -1, "@udf " + def.group(1) + "(...) runs "
              + "once per row in a Python worker", udfRemediation(body.toString()));
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
      String body = fn.startsWith("lambda") ? s.raw() : functionBody(stmts, fn);
      add(AntiPattern.ROW_WISE_PYTHON_UDF, s, call.start(), "udf(" + shorten(fn) + ") runs once "
          + "per row in a Python worker", udfRemediation(body));
    }
    Matcher reg = UDF_REGISTER.matcher(s.code());
    if (reg.find() && !pandasUdfs.contains(reg.group(1).strip())) {
      String fn = reg.group(1).strip();
      String body = fn.startsWith("lambda") ? s.raw() : functionBody(stmts, fn);
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

  private static String functionBody(List<Stmt> stmts, String name) {
    for (int k = 0; k < stmts.size(); k++) {
      Matcher def = PY_DEF.matcher(stmts.get(k).code());
      if (def.find() && def.group(1).equals(name)) {
        StringBuilder body = new StringBuilder();
        int ind = stmts.get(k).indent();
        for (int b = k + 1; b < stmts.size() && stmts.get(b).indent() > ind; b++) {
          body.append(stmts.get(b).raw()).append('\n');
        }
        return body.toString();
      }
    }
    return "";
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
        String code = stmts.get(k).code();
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

  /** The language name of a file, {@code text} when it is not a source this class reads. */
  static String languageName(String name) {
    return language(name).map(l -> l.name().toLowerCase(Locale.ROOT)).orElse("text");
  }
}

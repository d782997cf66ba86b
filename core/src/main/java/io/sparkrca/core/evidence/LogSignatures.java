package io.sparkrca.core.evidence;

import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.knowledge.Wording;
import io.sparkrca.core.logs.SearchQuery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The failure signatures logs are scanned for. {@link #standard()} encodes the Spark
 * troubleshooting playbooks as upper-case ids analyzers refer to (out-of-memory errors by kind,
 * container kills and exit codes, lost executors and fetch failures, missing paths, classes and
 * modules, serialization, Python worker errors, access denials, write and commit failures, the
 * driver's uncaught exception) and adds one signature per family of the failure {@link
 * KnowledgeBase}, under the family's kebab-case id; all are found in one pass over a log, behind
 * one literal prefilter.
 * Immutable; {@link #plus(LogSignature)} adds one.
 *
 * <pre>{@code
 * LogSignatures sigs = LogSignatures.standard();
 * List<String> ids = sigs.matching("java.lang.OutOfMemoryError: Java heap space"); // [JAVA_HEAP_OOM, ...]
 * }</pre>
 */
public final class LogSignatures {
  public static final String JAVA_HEAP_OOM = "JAVA_HEAP_OOM";
  public static final String GC_OVERHEAD_OOM = "GC_OVERHEAD_OOM";
  public static final String DIRECT_MEMORY_OOM = "DIRECT_MEMORY_OOM";
  public static final String OTHER_OOM = "OTHER_OOM";
  public static final String EXIT_ON_OOM = "EXIT_ON_OOM";
  public static final String CONTAINER_MEMORY_KILL = "CONTAINER_MEMORY_KILL";
  public static final String EXIT_CODE = "EXIT_CODE";
  public static final String SIGNAL_TERM = "SIGNAL_TERM";
  public static final String EXECUTOR_LOST = "EXECUTOR_LOST";
  public static final String HEARTBEAT_TIMEOUT = "HEARTBEAT_TIMEOUT";
  public static final String FETCH_FAILED = "FETCH_FAILED";
  public static final String PYTHON_EXCEPTION = "PYTHON_EXCEPTION";
  public static final String PYTHON_WORKER_CRASH = "PYTHON_WORKER_CRASH";
  public static final String MODULE_NOT_FOUND = "MODULE_NOT_FOUND";
  public static final String CLASS_NOT_FOUND = "CLASS_NOT_FOUND";
  public static final String DEPENDENCY_CONFLICT = "DEPENDENCY_CONFLICT";
  public static final String NOT_SERIALIZABLE = "NOT_SERIALIZABLE";
  public static final String PATH_NOT_FOUND = "PATH_NOT_FOUND";
  public static final String ACCESS_DENIED = "ACCESS_DENIED";
  public static final String ANALYSIS_ERROR = "ANALYSIS_ERROR";
  public static final String WRITE_FAILURE = "WRITE_FAILURE";
  public static final String JOB_ABORTED = "JOB_ABORTED";
  public static final String DISK_FULL = "DISK_FULL";
  public static final String DRIVER_UNCAUGHT = "DRIVER_UNCAUGHT";
  public static final String ERROR_LINE = "ERROR_LINE";
  public static final String SPARK_STARTED = "SPARK_STARTED";

  /** Matches an inline flag group that turns case folding on, such as {@code (?i)} or {@code (?mi:}. */
  private static final Pattern INLINE_FOLD = Pattern.compile("\\(\\?[a-zA-Z]*i[a-zA-Z]*[:)-]");

  private static final LogSignatures BUILT_IN = new LogSignatures(List.of(
      sig(JAVA_HEAP_OOM, "JVM heap exhausted", "OutOfMemoryError: Java heap space"),
      sig(GC_OVERHEAD_OOM, "JVM spent nearly all its time in GC", "GC overhead limit exceeded"),
      sig(DIRECT_MEMORY_OOM, "Direct (off-heap) or Netty memory exhausted",
          "OutOfMemoryError: (?:Direct buffer memory|Cannot reserve \\d+ bytes of direct buffer memory)"
              + "|OutOfDirectMemoryError|failed to allocate \\d+ byte\\(s\\) of direct memory"),
      sig(OTHER_OOM, "Other OutOfMemoryError (array size, metaspace, native threads)",
          "OutOfMemoryError: (?:Requested array size exceeds VM limit|Metaspace|Compressed class space"
              + "|unable to create (?:new )?native thread)"),
      sig(EXIT_ON_OOM, "The JVM exited on an OutOfMemoryError (-XX:+ExitOnOutOfMemoryError)",
          "(?:Terminating|Aborting) due to java\\.lang\\.OutOfMemoryError"),
      sig(CONTAINER_MEMORY_KILL, "The cluster manager killed a container for its memory use",
          "Container killed by YARN for exceeding (?:physical |virtual )?memory limits"
              + "|exceeding (?:physical|virtual) memory limits|\\bOOMKilled\\b|OOMKilling"
              + "|Container killed on request\\. Exit code is 137|memory cgroup out of memory"),
      sig(EXIT_CODE, "A process exited with a code",
          "(?:[Ee]xited with code|[Ee]xit code(?: is)?:?|[Ee]xit status:?|exitCode[=:]) ?-?\\d+"),
      sig(SIGNAL_TERM, "A JVM received SIGTERM (killed by the cluster manager or the driver)",
          "RECEIVED SIGNAL TERM|SIGKILL|killed by signal"),
      sig(EXECUTOR_LOST, "An executor was lost",
          "Lost executor \\S+|ExecutorLostFailure|Remote RPC client disassociated"
              + "|Container marked as failed|Executor \\S+ lost|executor lost"),
      sig(HEARTBEAT_TIMEOUT, "Heartbeats or RPCs timed out",
          "Executor heartbeat timed out|[Hh]eartbeat.{0,40}timed out|RpcTimeoutException"
              + "|Futures timed out after"),
      sig(FETCH_FAILED, "Shuffle fetch failed (map output lost)",
          "FetchFailedException|MetadataFetchFailedException|Missing an output location for shuffle"
              + "|ExecutorDeadException|Failed to connect to \\S+:7337"),
      sig(PYTHON_EXCEPTION, "A Python worker raised an exception",
          "org\\.apache\\.spark\\.api\\.python\\.PythonException|Traceback \\(most recent call last\\)"),
      sig(PYTHON_WORKER_CRASH, "A Python worker died",
          "Python worker exited unexpectedly|Python worker crashed|Python worker failed"),
      sig(MODULE_NOT_FOUND, "A Python module is missing",
          "ModuleNotFoundError: No module named|ImportError: "),
      sig(CLASS_NOT_FOUND, "A class or data source is missing from the class path",
          "java\\.lang\\.ClassNotFoundException|java\\.lang\\.NoClassDefFoundError"
              + "|Failed to find (?:the )?data source|DATA_SOURCE_NOT_FOUND"
              + "|SparkClassNotFoundException"),
      sig(DEPENDENCY_CONFLICT, "Incompatible library versions on the class path",
          "java\\.lang\\.NoSuchMethodError|java\\.lang\\.NoSuchFieldError|java\\.lang\\.AbstractMethodError"
              + "|java\\.lang\\.IncompatibleClassChangeError"),
      sig(NOT_SERIALIZABLE, "A closure or object could not be serialized",
          "Task not serializable|NotSerializableException|PicklingError|Could not serialize object"
              + "|cannot pickle"),
      sig(PATH_NOT_FOUND, "An input path or table does not exist",
          "\\[PATH_NOT_FOUND\\]|Path does not exist|java\\.io\\.FileNotFoundException"
              + "|\\[TABLE_OR_VIEW_NOT_FOUND\\]|Table or view not found|NoSuchKey|No such file or directory"),
      sig(ACCESS_DENIED, "Access was denied",
          "403 Forbidden|\\bAccessDenied\\b|Access Denied|Permission denied|PERMISSION_DENIED"
              + "|AccessControlException|does not have storage\\.objects|401 Unauthorized"),
      sig(ANALYSIS_ERROR, "A query failed analysis", "org\\.apache\\.spark\\.sql\\.AnalysisException"),
      sig(WRITE_FAILURE, "Writing or committing output failed",
          "TASK_WRITE_FAILED|Task failed while writing rows|Job aborted\\.|FileAlreadyExistsException"
              + "|ParentNotDirectoryException|[Cc]ommit(?:Job|Task) failed|[Ff]ailed to commit"
              + "|commitJob|commitTask|TaskCommitDenied|JOB_COMMIT_FAILED|abortJob"),
      sig(DISK_FULL, "A disk is full", "No space left on device"),
      sig(JOB_ABORTED, "A job aborted because a task failed too many times",
          "Job aborted due to stage failure: Task \\d+ in stage"),
      sig(DRIVER_UNCAUGHT, "The driver's main thread threw", "Exception in thread \"main\"|User class threw exception"),
      sig(ERROR_LINE, "A line logged at ERROR level", "^\\S+ \\S+ ERROR |^\\S+T\\S+ ERROR |\\bERROR [A-Za-z.$]+: "),
      sig(SPARK_STARTED, "The driver started a SparkContext", "SparkContext: Running Spark version")));

  private final List<LogSignature> signatures;
  /** Per signature, the top-level alternatives of its expression, each compiled on its own. */
  private final List<Pattern[]> patterns;
  /** Per alternative, literals one of which every line it matches holds; null when it has none. */
  private final List<String[][]> guards;
  private final String prefilter;

  private LogSignatures(List<LogSignature> signatures) {
    this(signatures, prefilterOf(signatures));
  }

  private LogSignatures(List<LogSignature> signatures, String prefilter) {
    this.signatures = List.copyOf(signatures);
    List<Pattern[]> p = new ArrayList<>();
    List<String[][]> g = new ArrayList<>();
    for (LogSignature s : signatures) {
      List<String> parts = alternatives(s.regex());
      Pattern[] compiled = new Pattern[parts.size()];
      String[][] guard = new String[parts.size()][];
      for (int k = 0; k < compiled.length; k++) {
        compiled[k] = Pattern.compile(parts.get(k));
        guard[k] = guardOf(parts.get(k));
      }
      p.add(compiled);
      g.add(guard);
    }
    this.patterns = List.copyOf(p);
    this.guards = List.copyOf(g);
    this.prefilter = prefilter;
  }

  /**
   * The required literals of {@code regex} (see {@link SearchQuery#requiredLiterals()}), as case
   * is; null when it has none or folds case inline, where a plain {@code contains} would not do.
   */
  private static String[] guardOf(String regex) {
    if (INLINE_FOLD.matcher(regex).find()) {
      return null;
    }
    return SearchQuery.regex(regex).requiredLiterals().map(l -> l.toArray(new String[0])).orElse(null);
  }

  /**
   * An expression every line a signature matches satisfies: the union of the signatures' required
   * literals (one literal pass finds them all), with an expression that has none added as it is.
   */
  private static String prefilterOf(List<LogSignature> signatures) {
    java.util.LinkedHashSet<String> parts = new java.util.LinkedHashSet<>();
    for (LogSignature s : signatures) {
      Optional<List<String>> literals = SearchQuery.regex(s.regex()).requiredLiterals();
      if (literals.isPresent()) {
        literals.get().forEach(l -> parts.add(quote(l)));
      } else {
        parts.add("(?:" + s.regex() + ")");
      }
    }
    return String.join("|", parts);
  }

  private static LogSignature sig(String id, String description, String regex) {
    return new LogSignature(id, description, regex);
  }

  /**
   * The standard catalog: the signatures above and every family of the standard {@link
   * KnowledgeBase}.
   */
  public static LogSignatures standard() {
    return WithKnowledge.STANDARD;
  }

  private static final class WithKnowledge {
    static final LogSignatures STANDARD = of(KnowledgeBase.standard());
  }

  /**
   * The signatures above and one signature per family of {@code knowledge}, whose id is the family's
   * id and whose expression is any of its wordings: so that one scan finds every family.
   *
   * <pre>{@code
   * KnowledgeBase mine = KnowledgeBase.builder().add(Path.of("our-failures.json")).standard().build();
   * EvidenceCollector c = EvidenceCollector.builder().driverLog("driver.log")
   *     .signatures(LogSignatures.of(mine)).build();
   * }</pre>
   */
  public static LogSignatures of(KnowledgeBase knowledge) {
    List<LogSignature> families = new ArrayList<>();
    for (FailureFamily f : knowledge.families()) {
      StringBuilder any = new StringBuilder();
      for (Wording w : f.wordings()) {
        any.append(any.length() == 0 ? "" : "|").append("(?:").append(w.regex()).append(')');
      }
      families.add(new LogSignature(f.id(), f.title(), any.toString()));
    }
    return BUILT_IN.plus(families);
  }

  /** This catalog and {@code more}; a signature with an existing id replaces it. */
  public LogSignatures plus(LogSignature more) {
    return plus(List.of(more));
  }

  /**
   * This catalog and {@code more}, in order; a signature with an existing id replaces it. The
   * prefilter grows by each added expression's required literals (see {@link
   * io.sparkrca.core.logs.SearchQuery#requiredLiterals()}) where it has them, so a catalog of
   * hundreds of wordings is still found in one literal pass; an expression without literals is
   * added to the prefilter as it is.
   *
   * <pre>{@code
   * LogSignatures mine = LogSignatures.standard().plus(List.of(
   *     new LogSignature("warehouse-quota", "Quota exceeded on the warehouse", "QuotaExceeded|429 Too Many")));
   * }</pre>
   */
  public LogSignatures plus(List<LogSignature> more) {
    Map<String, LogSignature> byId = new LinkedHashMap<>();
    for (LogSignature s : signatures) {
      byId.put(s.id(), s);
    }
    for (LogSignature s : more) {
      byId.put(s.id(), s);
    }
    return new LogSignatures(new ArrayList<>(byId.values()));
  }

  /** {@code literal} as an expression that matches it. */
  private static String quote(String literal) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < literal.length(); i++) {
      char c = literal.charAt(i);
      if ("\\.[]{}()*+?^$|".indexOf(c) >= 0) {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /** The signatures, in catalog order. */
  public List<LogSignature> signatures() {
    return signatures;
  }

  /** The signature with this id. */
  public Optional<LogSignature> get(String id) {
    return signatures.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  /** The ids of the signatures that match {@code line}, in catalog order. */
  public List<String> matching(String line) {
    List<String> out = new ArrayList<>(2);
    long[] pairs = pairsOf(line);
    for (int i = 0; i < patterns.size(); i++) {
      Pattern[] parts = patterns.get(i);
      String[][] guard = guards.get(i);
      for (int k = 0; k < parts.length; k++) {
        // A line holds few of the catalog's literals: most alternatives need not run at all.
        if (guard[k] != null && !containsAny(line, pairs, guard[k])) {
          continue;
        }
        if (parts[k].matcher(line).find()) {
          out.add(signatures.get(i).id());
          break;
        }
      }
    }
    return out;
  }

  /**
   * The top-level alternatives of {@code regex} (a family's wordings, joined by '|'), so that each
   * runs only on lines holding its own literals and java.util.regex's literal-prefix search applies
   * to each; {@code [regex]} as it is when splitting could change its meaning (inline flags, which
   * apply to every alternative after them, back-references, quoting).
   */
  static List<String> alternatives(String regex) {
    if (regex.contains("\\Q") || regex.contains("\\k<") || regex.matches("(?s).*\\\\[1-9].*")
        || regex.matches("(?s).*\\(\\?[a-zA-Z-]+[:)].*")) {
      return List.of(regex);
    }
    List<String> out = new ArrayList<>();
    int depth = 0;
    int classDepth = 0;
    int start = 0;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '[') {
        classDepth++;
      } else if (c == ']' && classDepth > 0) {
        classDepth--;
      } else if (classDepth > 0) {
        continue;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == '|' && depth == 0) {
        out.add(regex.substring(start, i));
        start = i + 1;
      }
    }
    out.add(regex.substring(start));
    if (depth != 0 || classDepth != 0 || out.stream().anyMatch(String::isEmpty)) {
      return List.of(regex);
    }
    for (String part : out) {
      try {
        Pattern.compile(part);
      } catch (java.util.regex.PatternSyntaxException e) {
        return List.of(regex); // a '|' the split took for a top-level one was not
      }
    }
    return out;
  }

  /**
   * Whether {@code line} holds one of {@code literals}. A literal whose first or last two characters
   * are not among the line's pairs is not searched for: hundreds of {@code contains} on every line
   * the prefilter let through cost more than the rest of the scan.
   */
  private static boolean containsAny(String line, long[] pairs, String[] literals) {
    for (String l : literals) {
      int n = l.length();
      if (n >= 2 && (!has(pairs, l.charAt(0), l.charAt(1)) || !has(pairs, l.charAt(n - 2), l.charAt(n - 1)))) {
        continue;
      }
      if (line.contains(l)) {
        return true;
      }
    }
    return false;
  }

  /** The pairs of adjacent characters of {@code line}, hashed into 4,096 bits. */
  private static long[] pairsOf(String line) {
    long[] bits = new long[64];
    for (int i = 0; i + 1 < line.length(); i++) {
      int h = pairHash(line.charAt(i), line.charAt(i + 1));
      bits[h >>> 6] |= 1L << h;
    }
    return bits;
  }

  private static boolean has(long[] pairs, char a, char b) {
    int h = pairHash(a, b);
    return (pairs[h >>> 6] & (1L << h)) != 0;
  }

  private static int pairHash(char a, char b) {
    return (a * 31 + b) & 4095;
  }

  /** An expression every matching line satisfies: what a log scan asks the reader for. */
  public String prefilter() {
    return prefilter;
  }
}

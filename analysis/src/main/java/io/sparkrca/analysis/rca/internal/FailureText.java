package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.evidence.StackTrace;
import io.sparkrca.core.evidence.ThrownException;
import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Classifies a failure from its text (an exception with its causes, a log excerpt) by the
 * signatures of the troubleshooting catalogues (spark_log_patterns.md, analyze_spark_oom.py's):
 * out-of-memory by kind, missing paths, classes and modules, access denied, serialization, Python
 * UDFs, write and commit failures. Order matters: the most specific cause first.
 */
public final class FailureText {
  private FailureText() {}

  /**
   * What a failure text is.
   *
   * @param kind the root-cause kind
   * @param decisive whether the wording that names it establishes it on its own (may make a verdict
   *     CONFIRMED), or only suggests it
   * @param family the knowledge-base family it belongs to, when one matched
   */
  public record Classified(RootCauseKind kind, boolean decisive, Optional<FailureFamily> family) {}

  /**
   * The kind the text names, by the knowledge base's families first (the most specific family in
   * the base's order, its decisive wordings before its suggestive ones), then by the built-in
   * rules; {@code driverSide} chooses the driver's kind of a family (DRIVER_OOM for an OOM).
   */
  public static Optional<Classified> classify(String text, boolean driverSide, KnowledgeBase knowledge) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    Optional<KnowledgeBase.Match> m = knowledge.classify(text, driverSide ? KnowledgeBase.Side.DRIVER
        : KnowledgeBase.Side.EXECUTOR);
    if (m.isPresent()) {
      return Optional.of(new Classified(m.get().kind(), m.get().decisive(), Optional.of(m.get().family())));
    }
    return classify(text, driverSide).map(k -> new Classified(k, true, Optional.empty()));
  }

  /** The kind the text names by the built-in rules, if any; {@code driverSide} chooses DRIVER_OOM for an OOM. */
  public static Optional<RootCauseKind> classify(String text, boolean driverSide) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    StackTrace t = StackTrace.parse(text);
    String all = text;
    if (all.contains("OutOfMemoryError") || all.contains("OutOfDirectMemoryError")) {
      if (driverSide) {
        return Optional.of(RootCauseKind.DRIVER_OOM);
      }
      if (all.contains("GC overhead limit exceeded")) {
        return Optional.of(RootCauseKind.EXECUTOR_OOM_GC_OVERHEAD);
      }
      if (all.contains("Direct buffer memory") || all.contains("direct buffer memory")
          || all.contains("OutOfDirectMemoryError")) {
        return Optional.of(RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY);
      }
      return Optional.of(RootCauseKind.EXECUTOR_OOM_HEAP);
    }
    if (all.contains("PythonException") || all.contains("Traceback (most recent call last)")) {
      if (all.contains("ModuleNotFoundError") || all.contains("ImportError")) {
        return Optional.of(RootCauseKind.MISSING_DEPENDENCY);
      }
      if (all.contains("PicklingError") || all.contains("cannot pickle")) {
        return Optional.of(RootCauseKind.SERIALIZATION_FAILURE);
      }
      return Optional.of(RootCauseKind.PYTHON_UDF_FAILURE);
    }
    if (all.contains("Task not serializable") || t.contains("NotSerializableException")
        || all.contains("PicklingError") || all.contains("Could not serialize object")) {
      return Optional.of(RootCauseKind.SERIALIZATION_FAILURE);
    }
    if (t.contains("ClassNotFoundException") || t.contains("NoClassDefFoundError")
        || all.contains("Failed to find data source") || all.contains("DATA_SOURCE_NOT_FOUND")
        || all.contains("ModuleNotFoundError") || t.contains("NoSuchMethodError")
        || t.contains("AbstractMethodError") || t.contains("IncompatibleClassChangeError")
        || all.contains("SparkClassNotFoundException")) {
      return Optional.of(RootCauseKind.MISSING_DEPENDENCY);
    }
    if (writeFailure(t)) {
      return Optional.of(RootCauseKind.WRITE_COMMIT_FAILURE);
    }
    if (all.contains("403 Forbidden") || all.contains("AccessDenied") || all.contains("Access Denied")
        || all.contains("Permission denied") || all.contains("PERMISSION_DENIED")
        || t.contains("AccessControlException") || all.contains("401 Unauthorized")) {
      return Optional.of(RootCauseKind.ACCESS_DENIED);
    }
    if (all.contains("PATH_NOT_FOUND") || all.contains("Path does not exist")
        || t.contains("FileNotFoundException") || all.contains("TABLE_OR_VIEW_NOT_FOUND")
        || all.contains("Table or view not found") || all.contains("NoSuchKey")) {
      return Optional.of(RootCauseKind.INPUT_NOT_FOUND);
    }
    return Optional.empty();
  }

  /**
   * Whether the innermost cause is the write itself failing: an exception thrown in committer or
   * writer code, or a file-system conflict. A data error inside a write task (Spark wraps it in
   * TASK_WRITE_FAILED) is not: its root cause is the data.
   */
  private static boolean writeFailure(StackTrace t) {
    if (t.rootCause().isEmpty()) {
      return false;
    }
    ThrownException root = t.rootCause().get();
    String cls = root.className();
    if (cls.endsWith("FileAlreadyExistsException") || cls.endsWith("ParentNotDirectoryException")
        || root.message().contains("JOB_COMMIT") || root.message().toLowerCase(Locale.ROOT).contains("could not commit")) {
      return true;
    }
    for (int i = 0; i < Math.min(12, root.frames().size()); i++) {
      String f = root.frames().get(i).className() + "." + root.frames().get(i).method();
      if (f.contains("Committer") || f.contains(".commitTask") || f.contains(".commitJob")
          || f.contains("SparkHadoopWriter") || f.contains("FileFormatDataWriter.commit")
          || f.contains("OutputCommitCoordinator")) {
        return true;
      }
    }
    return false;
  }

  /** The most telling line of the text: the root cause's {@code Class: message}, else its first line. */
  public static String headline(String text) {
    StackTrace t = StackTrace.parse(text);
    if (t.rootCause().isPresent()) {
      ThrownException root = t.rootCause().get();
      ThrownException top = t.top().get();
      if (root == top || root.message().isEmpty() && !top.message().isEmpty() && root.className().equals(top.className())) {
        return top.display();
      }
      return root.display() + " (wrapped in " + simple(top.className()) + ")";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }

  /** The user frame of the text's trace, as {@code File.java:42 in com.x.Job.method}. */
  public static Optional<String> codeLocation(String text) {
    return StackTrace.parse(text).firstUserFrame().map(f -> {
      String where = f.file().isEmpty() ? "" : f.file() + (f.line().isPresent() ? ":" + f.line().getAsInt() : "");
      String what = f.className().isEmpty() ? f.method() : f.className() + "." + f.method();
      return where.isEmpty() ? what : where + " in " + what;
    });
  }

  /**
   * A stack trace cut to what a reader needs: each exception's line, its frames down to the first
   * of user code (and one after), and every {@code Caused by}, at most {@code maxLines} lines.
   */
  public static String excerpt(String text, int maxLines) {
    List<String> out = new ArrayList<>();
    boolean seenUser = false;
    int framesAfterUser = 0;
    for (String line : text.split("\r?\n")) {
      if (out.size() >= maxLines) {
        out.add("\t...");
        break;
      }
      String t = line.strip();
      boolean frame = t.startsWith("at ");
      if (!frame) {
        out.add(line);
        seenUser = false;
        framesAfterUser = 0;
        continue;
      }
      if (seenUser) {
        if (framesAfterUser++ < 1) {
          out.add(line);
        }
        continue;
      }
      boolean user = StackFrame.parse(line).map(StackFrame::isUser).orElse(false);
      if (user || out.size() < 6) {
        out.add(line);
      }
      seenUser = user;
    }
    return String.join("\n", out);
  }

  static String simple(String cls) {
    return cls.substring(cls.lastIndexOf('.') + 1);
  }
}

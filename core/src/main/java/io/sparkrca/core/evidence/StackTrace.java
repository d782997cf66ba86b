package io.sparkrca.core.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stack trace read back from text: a Java trace with its {@code Caused by:} chain (from a task's
 * error message, a driver log, an event log), or a Python traceback (from a {@code
 * PythonException}). Unfolds past Spark's own frames to the first frame of user code.
 *
 * <pre>{@code
 * StackTrace t = StackTrace.parse(taskFailure.firstDetail());
 * t.rootCause().ifPresent(e -> System.out.println("root: " + e.display()));
 * t.firstUserFrame().ifPresent(f -> System.out.println("at " + f.display()));
 * }</pre>
 *
 * @param chain the exceptions, outermost first, then each cause; Python exceptions last
 */
public record StackTrace(List<ThrownException> chain) {
  /** The most exceptions and frames read from one text. */
  static final int MAX_EXCEPTIONS = 20;
  static final int MAX_FRAMES = 400;

  private static final Pattern EXCEPTION_HEAD = Pattern.compile(
      "^(?:Caused by: |Exception in thread \"[^\"]*\" |Suppressed: )?"
          + "((?:[a-zA-Z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error|Throwable|Failure|Exit|Denied|Exceeded)?)"
          + "(?:: (.*))?$");
  private static final Pattern LOST_TASK = Pattern.compile(
      "(?:Lost task|Exception in task) .*?\\)(?: \\([^)]*\\))?: (.*)$");
  /** {@code at [module[@version]/]class.method(File.java:42)}; hidden classes end in {@code /0x...}. */
  private static final Pattern JAVA_FRAME = Pattern.compile(
      "^\\s*at (?:[\\w.-]+(?:@[\\w.-]+)?/)*([\\w.$]+?)(?:/0x[0-9a-fA-F]+)?\\.([\\w$<>-]+)\\(([^):]*)(?::(\\d+))?\\)");
  private static final Pattern PY_FRAME = Pattern.compile("^\\s*File \"([^\"]+)\", line (\\d+), in (\\S+)");
  private static final Pattern PY_EXCEPTION = Pattern.compile("^([A-Za-z_][\\w.]*(?:Error|Exception|Exit|Interrupt|Warning)): ?(.*)$");

  public StackTrace {
    chain = List.copyOf(chain);
  }

  /** Parses {@code text}; lines that belong to no trace are skipped. */
  public static StackTrace parse(String text) {
    List<ThrownException> out = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return new StackTrace(out);
    }
    String cls = null;
    String msg = null;
    List<StackFrame> frames = new ArrayList<>();
    boolean python = false;
    List<StackFrame> pyFrames = new ArrayList<>();
    int framesSeen = 0;
    for (String raw : text.split("\r?\n")) {
      if (out.size() >= MAX_EXCEPTIONS) {
        break;
      }
      String line = raw.replace("\t", "    ");
      String trimmed = line.strip();
      Matcher m;
      int traceback = trimmed.indexOf("Traceback (most recent call last)");
      if (traceback >= 0) {
        // "org.apache.spark.api.python.PythonException: Traceback ...": the Java wrapper first.
        Matcher wrapper = EXCEPTION_HEAD.matcher(trimmed.substring(0, traceback).replaceAll(":\\s*$", ""));
        if (cls != null) {
          out.add(new ThrownException(cls, msg, frames));
        }
        if (traceback > 0 && wrapper.find()) {
          out.add(new ThrownException(wrapper.group(1), "", List.of()));
        }
        cls = null;
        frames = new ArrayList<>();
        python = true;
        pyFrames = new ArrayList<>();
        continue;
      }
      if (python) {
        if ((m = PY_FRAME.matcher(line)).find()) {
          if (framesSeen++ < MAX_FRAMES) {
            // Python prints the innermost call last; frames are kept innermost first.
            pyFrames.add(0, new StackFrame("", m.group(3), m.group(1), OptionalInt.of(Integer.parseInt(m.group(2)))));
          }
          continue;
        }
        if (!line.startsWith(" ") && (m = PY_EXCEPTION.matcher(trimmed)).find()) {
          out.add(new ThrownException(m.group(1), m.group(2), pyFrames));
          python = false;
          continue;
        }
        continue; // source lines and carets under a Python frame
      }
      Optional<StackFrame> javaFrame = frame(line);
      if (javaFrame.isPresent()) {
        if (cls != null && framesSeen++ < MAX_FRAMES) {
          frames.add(javaFrame.get());
        }
        continue;
      }
      String head = trimmed;
      Matcher lost = LOST_TASK.matcher(trimmed);
      if (lost.find()) {
        head = lost.group(1);
      }
      // A log line's prefix ("26/11/29 14:33:11 ERROR Executor: ...") is not part of the trace.
      int logPrefix = head.indexOf(": ");
      if ((m = EXCEPTION_HEAD.matcher(head)).find() || logPrefix > 0
          && head.contains(" ERROR ") && (m = EXCEPTION_HEAD.matcher(head.substring(logPrefix + 2))).find()) {
        if (looksLikeException(m.group(1), trimmed)) {
          if (cls != null) {
            out.add(new ThrownException(cls, msg, frames));
          }
          cls = m.group(1);
          msg = m.group(2) == null ? "" : m.group(2);
          frames = new ArrayList<>();
        }
      }
    }
    if (cls != null && out.size() < MAX_EXCEPTIONS) {
      out.add(new ThrownException(cls, msg, frames));
    }
    return new StackTrace(out);
  }

  private static boolean looksLikeException(String cls, String line) {
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    return simple.endsWith("Exception") || simple.endsWith("Error") || simple.endsWith("Throwable")
        || line.startsWith("Caused by: ") || line.contains("Exception in thread");
  }

  /** One Java frame line ({@code \tat com.x.Job.run(Job.java:42)}), if the line is one. */
  static Optional<StackFrame> frame(String line) {
    // Most lines of a message are not frames: a look at the line's start saves the expression.
    int start = 0;
    while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
      start++;
    }
    if (!line.startsWith("at ", start) || line.indexOf('(', start) < 0) {
      return Optional.empty();
    }
    Matcher m = JAVA_FRAME.matcher(line.replace("\t", "    "));
    if (!m.find()) {
      return Optional.empty();
    }
    String file = m.group(3);
    OptionalInt ln = m.group(4) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(4)));
    return Optional.of(new StackFrame(m.group(1), m.group(2), file.equals("Unknown Source") ? "" : file, ln));
  }

  /** Whether nothing was recognised. */
  public boolean isEmpty() {
    return chain.isEmpty();
  }

  /** The outermost exception. */
  public Optional<ThrownException> top() {
    return chain.isEmpty() ? Optional.empty() : Optional.of(chain.get(0));
  }

  /** The innermost cause: usually the real problem. */
  public Optional<ThrownException> rootCause() {
    return chain.isEmpty() ? Optional.empty() : Optional.of(chain.get(chain.size() - 1));
  }

  /**
   * The first frame of user code: searched from the root cause outwards, so that a wrapped
   * exception points at the user's code that caused it.
   */
  public Optional<StackFrame> firstUserFrame() {
    for (int i = chain.size() - 1; i >= 0; i--) {
      Optional<StackFrame> f = chain.get(i).firstUserFrame();
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }

  /** Whether any exception in the chain has this class (simple or qualified name). */
  public boolean contains(String exceptionClass) {
    for (ThrownException e : chain) {
      if (e.className().equals(exceptionClass) || e.className().endsWith("." + exceptionClass)) {
        return true;
      }
    }
    return false;
  }
}

package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One frame of a Java stack trace ({@code at com.x.Job.run(Job.java:42)}) or a Python traceback
 * ({@code File "main.py", line 45, in parse}), and whether it is the user's code or the
 * platform's (Spark, Scala, the JDK, Hadoop, Netty, PySpark, generated code).
 *
 * <pre>{@code
 * StackFrame f = trace.firstUserFrame().orElseThrow();
 * System.out.println(f.className() + "." + f.method() + " (" + f.file() + ":" + f.line().orElse(0) + ")");
 * }</pre>
 *
 * @param className the declaring class (dotted, module prefix such as {@code java.base/} removed);
 *     empty for a Python frame
 * @param method the method or function
 * @param file the source file, e.g. {@code Job.java} or {@code /app/main.py}; empty when unknown
 * @param line the line, when known
 */
public record StackFrame(String className, String method, String file, OptionalInt line) {
  private static final List<String> PLATFORM_PREFIXES = List.of(
      "org.apache.spark.", "scala.", "java.", "javax.", "jdk.", "sun.", "com.sun.",
      "org.apache.hadoop.", "org.apache.parquet.", "org.apache.orc.", "org.apache.avro.",
      "org.apache.commons.", "org.apache.log4j.", "org.apache.logging.", "org.slf4j.",
      "io.netty.", "com.google.common.", "com.google.protobuf.", "com.fasterxml.", "org.json4s.",
      "org.codehaus.janino.", "org.codehaus.commons.", "py4j.", "org.apache.hive.",
      "org.apache.iceberg.", "io.delta.", "com.google.cloud.hadoop.", "org.eclipse.jetty.",
      "org.glassfish.", "com.esotericsoftware.", "org.xerial.snappy.", "com.github.luben.",
      "net.jpountz.", "org.lz4.", "software.amazon.", "com.amazonaws.", "reactor.", "kotlin.");

  public StackFrame {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(line, "line");
  }

  /** Reads one Java stack-trace line, such as {@code \tat com.x.Job.run(Job.java:42)}. */
  public static java.util.Optional<StackFrame> parse(String line) {
    return StackTrace.frame(line);
  }

  /**
   * The first frame of user code in a stack trace or a stage's call-site details, named as Spark
   * names call sites ({@code count at Job.java:42}); empty when every frame is the platform's. Spark
   * 4 names many stages after its own frames ({@code $anonfun$withThreadLocalCaptured$2 at
   * CompletableFuture.java:1768}); this is the user's call site they stand for.
   */
  public static java.util.Optional<String> firstUserCallSite(String stack) {
    for (String l : stack.split("\n")) {
      java.util.Optional<StackFrame> f = parse("\tat " + l.strip());
      if (f.isPresent() && f.get().isUser()) {
        return java.util.Optional.of(f.get().method() + " at " + f.get().file()
            + (f.get().line().isPresent() ? ":" + f.get().line().getAsInt() : ""));
      }
    }
    return java.util.Optional.empty();
  }

  /** Whether this frame is in the platform (Spark, the JDK, Scala, common libraries), not user code. */
  public boolean isPlatform() {
    if (className.isEmpty()) {
      // Python: PySpark, py4j and installed packages are the platform; the job's own files are not.
      String f = file.replace('\\', '/');
      return f.contains("/pyspark/") || f.startsWith("pyspark/") || f.contains("/py4j/")
          || f.contains("site-packages/") || f.contains("dist-packages/")
          || f.matches(".*/lib/python\\d[^/]*/[^/]+\\.py") || f.startsWith("<");
    }
    if (className.contains("GeneratedClass") || className.startsWith("$") || method.startsWith("$anonfun$withThreadLocalCaptured")) {
      return true;
    }
    for (String p : PLATFORM_PREFIXES) {
      if (className.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** Whether this frame is the user's code. */
  public boolean isUser() {
    return !isPlatform();
  }

  /** {@code file:line} or {@code class.method(file:line)}, as a stack trace prints it. */
  public String display() {
    String where = file.isEmpty() ? "Unknown Source" : file + (line.isPresent() ? ":" + line.getAsInt() : "");
    return className.isEmpty() ? where + " in " + method : className + "." + method + "(" + where + ")";
  }
}

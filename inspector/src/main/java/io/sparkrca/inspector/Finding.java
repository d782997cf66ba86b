package io.sparkrca.inspector;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One Spark anti-pattern found in a class or a source file, with where it is and what to do.
 *
 * <pre>{@code
 * Finding f = inspection.findings().get(0);
 * System.out.println(f.file() + ":" + f.line().orElse(0) + " " + f.pattern().title());
 * System.out.println("fix: " + f.remediation());
 * }</pre>
 *
 * @param pattern what kind of problem
 * @param file the source file or archive entry, e.g. {@code app.jar!/com/x/Job.class} or
 *     {@code gs://b/job.py}
 * @param className the class, for findings in bytecode
 * @param method the method or function, when known
 * @param line the source line, from the LineNumberTable or the source itself
 * @param evidence the code that triggered the finding, e.g. {@code Dataset.count() inside a loop}
 * @param remediation what to do about it
 */
public record Finding(
    AntiPattern pattern,
    String file,
    Optional<String> className,
    Optional<String> method,
    OptionalInt line,
    String evidence,
    String remediation) {

  /** Checks that no component is null. */
  public Finding {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(evidence, "evidence");
    Objects.requireNonNull(remediation, "remediation");
  }

  /** Where, as {@code file:line (method)}. */
  public String location() {
    StringBuilder b = new StringBuilder(className.orElse(file));
    line.ifPresent(l -> b.append(':').append(l));
    method.ifPresent(m -> b.append(" in ").append(m));
    return b.toString();
  }

  /** One line: the pattern, where, and the evidence. */
  @Override
  public String toString() {
    return "[" + pattern.id() + "] " + location() + ": " + evidence;
  }
}

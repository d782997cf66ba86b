package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A frame of a failure's stack trace found in the job's code: the file and line it names, and
 * the code there when it could be read.
 *
 * <pre>{@code
 * code.locations().forEach(l -> System.out.println(l.frame().display() + " -> " + l.file() + ":" + l.line().orElse(0)));
 * }</pre>
 *
 * @param frame the stack frame that was looked up
 * @param file where it was found, e.g. {@code app.jar!/com/x/Job.class (Job.java)} or {@code main.py}
 * @param line the source line
 * @param snippet the source lines around it, when the source itself was given (at most 7)
 * @param note what else is known, e.g. the method's Spark calls from its bytecode
 */
public record CodeLocation(StackFrame frame, String file, OptionalInt line, List<String> snippet, String note) {
  public CodeLocation {
    Objects.requireNonNull(frame, "frame");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(line, "line");
    snippet = List.copyOf(snippet);
    Objects.requireNonNull(note, "note");
  }
}

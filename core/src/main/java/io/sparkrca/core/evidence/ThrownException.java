package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One exception of a stack trace: its class, message and frames.
 *
 * <pre>{@code
 * ThrownException root = StackTrace.parse(text).rootCause().orElseThrow();
 * System.out.println(root.className() + ": " + root.message());
 * }</pre>
 *
 * @param className e.g. {@code java.lang.NumberFormatException} or, for Python, {@code KeyError}
 * @param message the message after the class name, possibly empty
 * @param frames the frames, innermost first, as printed
 */
public record ThrownException(String className, String message, List<StackFrame> frames) {
  public ThrownException {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(message, "message");
    frames = List.copyOf(frames);
  }

  /** The first frame in user code. */
  public Optional<StackFrame> firstUserFrame() {
    return frames.stream().filter(StackFrame::isUser).findFirst();
  }

  /** {@code Class: message}. */
  public String display() {
    return message.isEmpty() ? className : className + ": " + message;
  }
}

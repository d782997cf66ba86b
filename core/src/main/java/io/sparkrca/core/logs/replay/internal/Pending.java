package io.sparkrca.core.logs.replay.internal;

/**
 * What a line handler does with a record's continuation lines once they are all read: a handler
 * returns one for a record whose text goes on ({@code Lost task ...} and its stack trace), {@link
 * #DONE} for a record it handled whole, and null for a record it does not handle.
 *
 * <pre>{@code
 * return (section, continuation) -> table.driverErrors.put(row, head + "\n" + continuation);
 * }</pre>
 */
@FunctionalInterface
interface Pending {
  /** Handled; no continuation wanted. */
  Pending DONE = (s, continuation) -> {};

  void complete(Section s, String continuation);

  /** {@code head} and {@code continuation} as one text, trailing blank lines dropped. */
  static String join(String head, String continuation) {
    String text = continuation.isEmpty() ? head : head + "\n" + continuation;
    int end = text.length();
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }
}

package io.sparkrca.core.evidence;

import java.util.Objects;

/**
 * A piece of evidence that could not be collected, or only in part, with the exact reason. An
 * analysis states every gap that matters for its answer instead of reading absence as health.
 *
 * <pre>{@code
 * for (EvidenceGap g : evidence.gaps()) {
 *   System.err.println(g.what() + " (" + g.uri() + "): " + g.reason() + ": " + g.detail());
 * }
 * }</pre>
 *
 * @param what what is missing, in words: {@code "event log"}, {@code "driver log"}, {@code
 *     "executor 3 log"}, {@code "code"}
 * @param uri where it was looked for (credentials removed), or "" when nothing was given
 * @param reason why it is missing
 * @param detail the exact error or observation, e.g. {@code "HTTP 403 Forbidden"}
 * @param whatToDo how to get it, e.g. {@code "pass the driver log (spark-submit's stderr)"}
 */
public record EvidenceGap(String what, String uri, GapReason reason, String detail, String whatToDo) {
  public EvidenceGap {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(whatToDo, "whatToDo");
  }

  /** One line: what, where, why, and what to do. */
  public String describe() {
    return what + (uri.isEmpty() ? "" : " (" + uri + ")") + ": " + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
        + (detail.isEmpty() ? "" : ", " + detail) + (whatToDo.isEmpty() ? "" : "; " + whatToDo);
  }
}

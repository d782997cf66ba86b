package io.sparkrca.core.evidence;

import io.sparkrca.core.error.Remedy;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A piece of evidence that could not be collected, or only in part, with the exact reason. An
 * analysis states every gap that matters for its answer instead of reading absence as health.
 *
 * <pre>{@code
 * for (EvidenceGap g : evidence.gaps(EvidenceKind.DRIVER_LOG)) {
 *   System.err.println(g.what() + " (" + g.uri() + "): " + g.reason() + ": " + g.detail());
 * }
 * }</pre>
 *
 * @param kind the kind of evidence missing
 * @param what what is missing, in words: the kind's {@link EvidenceKind#displayName()} when the
 *     gap is about the kind as a whole ({@code "event log"}, {@code "code"}), or the name of one
 *     piece of it ({@code "executor 3 log"}, {@code "cluster records (kubernetes)"}, {@code "driver output"})
 * @param uri where it was looked for (credentials removed), or "" when nothing was given
 * @param reason why it is missing
 * @param detail the exact error or observation, e.g. {@code "HTTP 403 Forbidden"}
 * @param whatToDo how to get it, e.g. {@code "pass the driver log (spark-submit's stderr)"}
 * @param remedy what to do about the failure in {@code detail}, as data, when the failure carried it
 *     (its words are in the detail; see {@link #detail(Function)})
 */
public record EvidenceGap(EvidenceKind kind, String what, String uri, GapReason reason, String detail,
    String whatToDo, Optional<Remedy> remedy) {
  public EvidenceGap {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(whatToDo, "whatToDo");
    Objects.requireNonNull(remedy, "remedy");
  }

  /** A gap about {@code what}, one piece of {@code kind} or the whole kind, whose detail carries no remedy. */
  public EvidenceGap(EvidenceKind kind, String what, String uri, GapReason reason, String detail, String whatToDo) {
    this(kind, what, uri, reason, detail, whatToDo, Optional.empty());
  }

  /** A gap about {@code kind} as a whole, named by its {@link EvidenceKind#displayName()}. */
  public EvidenceGap(EvidenceKind kind, String uri, GapReason reason, String detail, String whatToDo) {
    this(kind, kind.displayName(), uri, reason, detail, whatToDo);
  }

  /** The detail, with the failure's remedy (if any) in {@code words}' words instead of the library's. */
  public String detail(Function<? super Remedy, String> words) {
    return remedy.map(r -> r.in(detail, words)).orElse(detail);
  }

  /** Whether the gap is about one piece of its kind ({@code "executor 3 log"}) rather than the whole kind. */
  public boolean specific() {
    return !what.equals(kind.displayName());
  }

  /**
   * The gap as the one sentence of an error that ends a request: where (unless the detail already
   * names it), the detail with its remedy in {@code words}' words, and what to do. The detail often
   * ends with a short hint of its own ("... not found: check the path"); where the gap's advice
   * starts with that hint, the advice replaces it rather than repeating it.
   */
  public String sentence(Function<? super Remedy, String> words) {
    String d = detail(words);
    String out = uri.isEmpty() || d.contains(uri) ? d : uri + ": " + d;
    if (whatToDo.isEmpty() || out.contains(whatToDo)) {
      return out;
    }
    int lastClause = out.lastIndexOf(": ");
    if (lastClause >= 0 && whatToDo.startsWith(out.substring(lastClause + 2))) {
      return out.substring(0, lastClause + 2) + whatToDo;
    }
    return out + " (" + whatToDo + ")";
  }

  /** One line: what, where, why, and what to do. */
  public String describe() {
    return what + (uri.isEmpty() ? "" : " (" + uri + ")") + ": " + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
        + (detail.isEmpty() ? "" : ", " + detail) + (whatToDo.isEmpty() ? "" : "; " + whatToDo);
  }
}

package io.sparkrca.core.knowledge;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A family of failures that look alike in logs and have one cause and one fix: every wording of
 * it across Spark versions and platforms, the root-cause kind it is, what it means, what to check
 * next and how to fix it. A family of the knowledge base is data: users and platform teams add
 * their own with the same schema.
 *
 * <pre>{@code
 * KnowledgeBase kb = KnowledgeBase.standard();
 * kb.classify("Total size of serialized results of 16 tasks (1048.5 MiB) is bigger than spark.driver.maxResultSize",
 *     KnowledgeBase.Side.DRIVER).ifPresent(m -> System.out.println(m.family().kind())); // RESULT_TOO_LARGE
 * }</pre>
 *
 * @param id a stable kebab-case identifier, e.g. {@code yarn-container-memory-kill}
 * @param kind the root-cause kind a failure of this family is
 * @param driverKind the kind when the failure happened in the driver, where that differs (an
 *     out-of-memory error is {@code DRIVER_OOM} there)
 * @param title a short title
 * @param meaning what it means, in one paragraph
 * @param check what to check next, most telling first
 * @param fix what to do
 * @param wordings how it is worded in logs
 * @param origin where the family was defined (the standard base, or a user's file)
 */
public record FailureFamily(String id, RootCauseKind kind, Optional<RootCauseKind> driverKind, String title,
    String meaning, List<String> check, Fix fix, List<Wording> wordings, String origin) {
  public FailureFamily {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(driverKind, "driverKind");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(meaning, "meaning");
    check = List.copyOf(check);
    Objects.requireNonNull(fix, "fix");
    wordings = List.copyOf(wordings);
    Objects.requireNonNull(origin, "origin");
  }

  /** The kind of a failure of this family seen on {@code side}. */
  public RootCauseKind kind(KnowledgeBase.Side side) {
    return side == KnowledgeBase.Side.DRIVER ? driverKind.orElse(kind) : kind;
  }

  /** The first wording {@code text} holds, decisive ones first. */
  public Optional<Wording> match(CharSequence text) {
    for (Wording w : wordings) {
      if (w.decisive() && w.matches(text)) {
        return Optional.of(w);
      }
    }
    for (Wording w : wordings) {
      if (!w.decisive() && w.matches(text)) {
        return Optional.of(w);
      }
    }
    return Optional.empty();
  }
}

package io.sparkrca.core.report;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The root cause of an application's failure or slowness: the earliest failure that explains the
 * rest, or the performance problem that cost the most time; with how sure it is, what it concerns,
 * the evidence for and against, and the alternatives rejected.
 *
 * <pre>{@code
 * RootCause rc = report.rootCause();
 * System.out.println(rc.kind() + " (" + rc.confidence() + "): " + rc.explanation());
 * rc.toConfirm().ifPresent(c -> System.out.println("to confirm: " + c));
 * }</pre>
 *
 * <p>Built with {@link #builder}; what is not named is empty:
 *
 * <pre>{@code
 * RootCause cause = RootCause.builder(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Confidence.CONFIRMED)
 *     .title("Bad record in partition 2")
 *     .explanation("Every attempt of partition 2 threw the same exception.")
 *     .culprit(Culprit.stages(List.of(0)).withPartition(2))
 *     .findingId(Optional.of("F1"))
 *     .build();
 * }</pre>
 *
 * @param kind the cause
 * @param title a short title, e.g. {@code "Executor out of heap memory in stage 0"}
 * @param confidence how sure
 * @param explanation one paragraph: what happened, why, and what followed from it
 * @param culprit what it concerns
 * @param codeLocation where in the user's code, when known (e.g. {@code Job.java:42 in com.x.Job.run})
 * @param evidenceFor the records that support it
 * @param evidenceAgainst the records that speak against it (or weaken it)
 * @param alternatives causes considered and rejected
 * @param toConfirm for a leading hypothesis: exactly which evidence would confirm it
 * @param findingId the finding it was chosen from, if any
 */
public record RootCause(
    RootCauseKind kind,
    String title,
    Confidence confidence,
    String explanation,
    Culprit culprit,
    Optional<String> codeLocation,
    List<EvidenceRef> evidenceFor,
    List<EvidenceRef> evidenceAgainst,
    List<Alternative> alternatives,
    Optional<String> toConfirm,
    Optional<String> findingId) {
  public RootCause {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(explanation, "explanation");
    Objects.requireNonNull(culprit, "culprit");
    Objects.requireNonNull(codeLocation, "codeLocation");
    evidenceFor = List.copyOf(evidenceFor);
    evidenceAgainst = List.copyOf(evidenceAgainst);
    alternatives = List.copyOf(alternatives);
    Objects.requireNonNull(toConfirm, "toConfirm");
    Objects.requireNonNull(findingId, "findingId");
  }

  /** A builder of a root cause of {@code kind}, as sure as {@code confidence}. */
  public static Builder builder(RootCauseKind kind, Confidence confidence) {
    return new Builder(kind, confidence);
  }

  /** The culprit stages. */
  public List<Integer> stageIds() {
    return culprit.stageIds();
  }

  /** The culprit partition, when one. */
  public Optional<Integer> partitionIndex() {
    return culprit.partitionIndex();
  }

  /** Builds a {@link RootCause}; title, explanation and culprit are required. Not thread-safe. */
  public static final class Builder {
    private final RootCauseKind kind;
    private final Confidence confidence;
    private String title;
    private String explanation;
    private Culprit culprit;
    private Optional<String> codeLocation = Optional.empty();
    private List<EvidenceRef> evidenceFor = List.of();
    private List<EvidenceRef> evidenceAgainst = List.of();
    private List<Alternative> alternatives = List.of();
    private Optional<String> toConfirm = Optional.empty();
    private Optional<String> findingId = Optional.empty();

    private Builder(RootCauseKind kind, Confidence confidence) {
      this.kind = kind;
      this.confidence = confidence;
    }

    /** A short title. */
    public Builder title(String title) {
      this.title = title;
      return this;
    }

    /** One paragraph: what happened, why, and what followed from it. */
    public Builder explanation(String explanation) {
      this.explanation = explanation;
      return this;
    }

    /** What it concerns. */
    public Builder culprit(Culprit culprit) {
      this.culprit = culprit;
      return this;
    }

    /** Where in the user's code, when known (default unknown). */
    public Builder codeLocation(Optional<String> where) {
      this.codeLocation = where;
      return this;
    }

    /** The records that support it (default none). */
    public Builder evidenceFor(List<EvidenceRef> refs) {
      this.evidenceFor = refs;
      return this;
    }

    /** The records that speak against it (default none). */
    public Builder evidenceAgainst(List<EvidenceRef> refs) {
      this.evidenceAgainst = refs;
      return this;
    }

    /** The causes considered and rejected (default none). */
    public Builder alternatives(List<Alternative> rejected) {
      this.alternatives = rejected;
      return this;
    }

    /** For a leading hypothesis: which evidence would confirm it (default nothing). */
    public Builder toConfirm(Optional<String> what) {
      this.toConfirm = what;
      return this;
    }

    /** The finding it was chosen from (default none). */
    public Builder findingId(Optional<String> id) {
      this.findingId = id;
      return this;
    }

    /** @throws NullPointerException naming the first required field not given */
    public RootCause build() {
      return new RootCause(kind, title, confidence, explanation, culprit, codeLocation, evidenceFor, evidenceAgainst,
          alternatives, toConfirm, findingId);
    }
  }
}

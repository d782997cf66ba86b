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

  /** The culprit stages. */
  public List<Integer> stageIds() {
    return culprit.stageIds();
  }

  /** The culprit partition, when one. */
  public Optional<Integer> partitionIndex() {
    return culprit.partitionIndex();
  }
}

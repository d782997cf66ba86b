package io.sparkrca.analysis.rca;

import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What an {@link Analyzer} proposes: a finding, and what the report would say if it were the root
 * cause: how sure, why, what speaks against it, what would confirm it, where in the code, when it
 * happened, what it explains, and what to do.
 *
 * <pre>{@code
 * Candidate c = Candidate.builder(finding)
 *     .confidence(Confidence.CONFIRMED)
 *     .explanation("Partition 2 failed on all 4 attempts with the same NumberFormatException.")
 *     .time(firstFailureMillis)
 *     .explainsFailure(true)
 *     .recommend(fix)
 *     .build();
 * }</pre>
 *
 * @param finding the finding (its id is assigned by the engine)
 * @param confidence how sure it is, as a root cause
 * @param explanation one paragraph for the report
 * @param evidenceAgainst records that speak against it
 * @param toConfirm for a leading hypothesis: which evidence would confirm it
 * @param codeLocation where in the user's code
 * @param time when it happened (epoch ms), -1 when unknown: the earliest failure wins
 * @param explainsFailure whether it explains the application's failure (a fatal cause)
 * @param explains kinds of other findings that are its fallout (an OOM explains a lost executor)
 * @param recommendations what to do if it is the root cause
 * @param wants evidence that would confirm or sharpen it, by kind ({@link EvidenceKind#EXECUTOR_LOGS}),
 *     with why: shown as missing evidence when it was not collected
 */
public record Candidate(
    Finding finding,
    Confidence confidence,
    String explanation,
    List<EvidenceRef> evidenceAgainst,
    Optional<String> toConfirm,
    Optional<String> codeLocation,
    long time,
    boolean explainsFailure,
    Set<RootCauseKind> explains,
    List<Recommendation> recommendations,
    List<Want> wants) {

  /** Evidence that would help, and why. */
  public record Want(EvidenceKind kind, String why) {
    public Want {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(why, "why");
    }
  }

  public Candidate {
    Objects.requireNonNull(finding, "finding");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(explanation, "explanation");
    evidenceAgainst = List.copyOf(evidenceAgainst);
    Objects.requireNonNull(toConfirm, "toConfirm");
    Objects.requireNonNull(codeLocation, "codeLocation");
    explains = Set.copyOf(explains);
    recommendations = List.copyOf(recommendations);
    wants = List.copyOf(wants);
  }

  /** The finding's kind. */
  public RootCauseKind kind() {
    return finding.kind();
  }

  public static Builder builder(Finding finding) {
    return new Builder(finding);
  }

  /** Builder for {@link Candidate}; only the finding is required. */
  public static final class Builder {
    private Finding finding;
    private Confidence confidence = Confidence.LEADING_HYPOTHESIS;
    private String explanation = "";
    private final List<EvidenceRef> against = new java.util.ArrayList<>();
    private Optional<String> toConfirm = Optional.empty();
    private Optional<String> codeLocation = Optional.empty();
    private long time = -1;
    private boolean explainsFailure;
    private final java.util.Set<RootCauseKind> explains = new java.util.LinkedHashSet<>();
    private final List<Recommendation> recommendations = new java.util.ArrayList<>();
    private final List<Want> wants = new java.util.ArrayList<>();

    private Builder(Finding finding) {
      this.finding = Objects.requireNonNull(finding, "finding");
    }

    public Builder confidence(Confidence c) {
      this.confidence = Objects.requireNonNull(c, "confidence");
      return this;
    }

    public Builder explanation(String text) {
      this.explanation = Objects.requireNonNull(text, "explanation");
      return this;
    }

    public Builder against(EvidenceRef ref) {
      against.add(Objects.requireNonNull(ref, "ref"));
      return this;
    }

    public Builder toConfirm(String what) {
      this.toConfirm = Optional.of(what);
      return this;
    }

    public Builder codeLocation(Optional<String> where) {
      this.codeLocation = Objects.requireNonNull(where, "where");
      return this;
    }

    public Builder time(long epochMillis) {
      this.time = epochMillis;
      return this;
    }

    public Builder explainsFailure(boolean fatal) {
      this.explainsFailure = fatal;
      return this;
    }

    public Builder explains(RootCauseKind... kinds) {
      explains.addAll(List.of(kinds));
      return this;
    }

    public Builder recommend(Recommendation r) {
      recommendations.add(Objects.requireNonNull(r, "recommendation"));
      return this;
    }

    public Builder want(EvidenceKind kind, String why) {
      wants.add(new Want(kind, why));
      return this;
    }

    public Candidate build() {
      return new Candidate(finding, confidence, explanation, against, toConfirm, codeLocation, time,
          explainsFailure, explains, recommendations, wants);
    }
  }
}

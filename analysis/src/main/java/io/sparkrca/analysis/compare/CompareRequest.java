package io.sparkrca.analysis.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which two runs of one job to compare: a slow (or failed) candidate and a healthy baseline, by
 * URI (event logs, History Server applications, any source), with the job's code of both runs when
 * given, and the slowdown below which a run is not called slower. Immutable.
 *
 * <pre>{@code
 * Comparison c = CompareRunner.standard().run(CompareRequest.builder("runs/slow", "runs/healthy").build());
 * System.out.println(c.verdict().kind() + ": " + c.verdict().title());
 * }</pre>
 */
public final class CompareRequest {
  /** The slowdown below which a run is not called slower, by default. */
  public static final double DEFAULT_MIN_SLOWDOWN = 1.2;

  /**
   * One artifact of the job's code in both runs (a JAR, a script).
   *
   * @param candidate the candidate run's copy
   * @param baseline the baseline run's copy
   */
  public record CodePair(String candidate, String baseline) {
    public CodePair {
      Objects.requireNonNull(candidate, "candidate");
      Objects.requireNonNull(baseline, "baseline");
    }
  }

  private final String candidate;
  private final String baseline;
  private final List<CodePair> code;
  private final double minSlowdown;

  private CompareRequest(Builder b) {
    this.candidate = b.candidate;
    this.baseline = b.baseline;
    this.code = List.copyOf(b.code);
    this.minSlowdown = b.minSlowdown;
  }

  /** A request comparing {@code candidate} with {@code baseline}. */
  public static Builder builder(String candidate, String baseline) {
    return new Builder(candidate, baseline);
  }

  /** The run being judged. */
  public String candidate() {
    return candidate;
  }

  /** The healthy run it is compared with. */
  public String baseline() {
    return baseline;
  }

  /** The job's code in both runs, pair by pair. */
  public List<CodePair> code() {
    return code;
  }

  /** The slowdown below which the candidate is not called slower. */
  public double minSlowdown() {
    return minSlowdown;
  }

  @Override
  public String toString() {
    return "CompareRequest{candidate=" + candidate + ", baseline=" + baseline + ", code=" + code
        + ", minSlowdown=" + minSlowdown + "}";
  }

  /** Builder for a {@link CompareRequest}. */
  public static final class Builder {
    private final String candidate;
    private final String baseline;
    private final List<CodePair> code = new ArrayList<>();
    private double minSlowdown = DEFAULT_MIN_SLOWDOWN;

    private Builder(String candidate, String baseline) {
      this.candidate = Objects.requireNonNull(candidate, "candidate");
      this.baseline = Objects.requireNonNull(baseline, "baseline");
    }

    /** The same artifact of the job's code in the candidate run and in the baseline run. */
    public Builder code(String candidateUri, String baselineUri) {
      code.add(new CodePair(candidateUri, baselineUri));
      return this;
    }

    /**
     * The slowdown below which the candidate is not called slower (default 1.2); at least 1, which
     * {@link Comparison.Builder#minSlowdown} checks when the comparison runs.
     */
    public Builder minSlowdown(double factor) {
      this.minSlowdown = factor;
      return this;
    }

    public CompareRequest build() {
      return new CompareRequest(this);
    }
  }
}

package io.sparkrca.analysis.compare;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.report.Alternative;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.report.Report;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.HtmlSection;
import io.sparkrca.core.report.html.RunProfile;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.analysis.compare.internal.ComparisonHtml;
import io.sparkrca.analysis.compare.internal.ComparisonMarkdown;
import io.sparkrca.analysis.compare.internal.Comparer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A slow run compared with a healthy baseline of the same job (as the slow-job playbook asks): the
 * two runs' jobs and stages aligned by what they are (call site, SQL execution, RDD lineage and
 * shuffle role), not by id; time normalised by the input each stage and each run read; the first
 * stage whose normalised time departs, side by side with its baseline; the configuration diff
 * ranked by how plausibly each change explains that stage; the code diff when both runs' code is
 * given; and a verdict ({@code CONFIG_REGRESSION}, {@code NO_REGRESSION_INPUT_GROWTH},
 * {@code DATA_DISTRIBUTION_CHANGE}, {@code CODE_CHANGE}, {@code INFRASTRUCTURE_CHANGE}, or
 * {@code HEALTHY} when it is not slower, {@code UNDETERMINED} when nothing explains it) with its
 * confidence, evidence and the alternatives rejected. Immutable; renders as Markdown, JSON and
 * HTML like every sparkrca result.
 *
 * <pre>{@code
 * Comparison c = Comparison.of(EventLogs.replay(slowLog), EventLogs.replay(healthyLog));
 * System.out.println(c.verdict().kind() + ": " + c.verdict().explanation());
 * if (c.normalizedSlowdown() > 1.5) {
 *   c.firstDivergentStage().ifPresent(s -> System.out.println("first divergent: " + s.candidate().label()));
 * }
 * // With the code of both runs:
 * Comparison withCode = Comparison.builder(candidate, baseline)
 *     .code("releases/1.5/app.jar", "releases/1.4/app.jar")
 *     .compare();
 * }</pre>
 *
 * @param candidate the run under suspicion
 * @param baseline the healthy run it is compared with
 * @param slowdown the candidate's job time over the baseline's
 * @param inputGrowth the candidate's input records (bytes when no records are known) over the baseline's
 * @param normalizedSlowdown the slowdown per unit of input: {@code slowdown / inputGrowth}
 * @param stages aligned stage pairs, in the candidate's order
 * @param unmatchedCandidateStages candidate stages with no counterpart in the baseline
 * @param unmatchedBaselineStages baseline stages with no counterpart in the candidate
 * @param jobs aligned job pairs
 * @param unmatchedCandidateJobs candidate jobs with no counterpart
 * @param unmatchedBaselineJobs baseline jobs with no counterpart
 * @param firstDivergentStage the first stage pair whose normalised time departs
 * @param configChanges the Spark properties that differ (secrets redacted), the most plausible
 *     explanations first
 * @param code the code diff, when both runs' code was given and could be compared
 * @param verdict what the comparison concludes
 * @param notes what the reader should know about the comparison (caps, gaps)
 * @param candidateProfile what the HTML report draws of the candidate (not in the JSON)
 * @param baselineProfile what the HTML report draws of the baseline (not in the JSON)
 */
public record Comparison(
    Run candidate,
    Run baseline,
    double slowdown,
    double inputGrowth,
    double normalizedSlowdown,
    List<StagePair> stages,
    List<StageStats> unmatchedCandidateStages,
    List<StageStats> unmatchedBaselineStages,
    List<JobPair> jobs,
    List<String> unmatchedCandidateJobs,
    List<String> unmatchedBaselineJobs,
    Optional<StagePair> firstDivergentStage,
    List<ConfigChange> configChanges,
    Optional<CodeDiff> code,
    Verdict verdict,
    List<String> notes,
    @JsonIgnore Optional<RunProfile> candidateProfile,
    @JsonIgnore Optional<RunProfile> baselineProfile) implements Report, HtmlSection {
  /** The version of the JSON shape. */
  public static final int SCHEMA_VERSION = 1;

  public Comparison {
    Objects.requireNonNull(candidate, "candidate");
    Objects.requireNonNull(baseline, "baseline");
    stages = List.copyOf(stages);
    unmatchedCandidateStages = List.copyOf(unmatchedCandidateStages);
    unmatchedBaselineStages = List.copyOf(unmatchedBaselineStages);
    jobs = List.copyOf(jobs);
    unmatchedCandidateJobs = List.copyOf(unmatchedCandidateJobs);
    unmatchedBaselineJobs = List.copyOf(unmatchedBaselineJobs);
    Objects.requireNonNull(firstDivergentStage, "firstDivergentStage");
    configChanges = List.copyOf(configChanges);
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(verdict, "verdict");
    notes = List.copyOf(notes);
    Objects.requireNonNull(candidateProfile, "candidateProfile");
    Objects.requireNonNull(baselineProfile, "baselineProfile");
  }

  /** Compares {@code candidate} with {@code baseline}, without code. */
  public static Comparison of(SparkApplication candidate, SparkApplication baseline) {
    return builder(candidate, baseline).compare();
  }

  /** A comparison to configure: the code of both runs, the sources to read it from, the thresholds. */
  public static Builder builder(SparkApplication candidate, SparkApplication baseline) {
    return new Builder(candidate, baseline);
  }

  /** The version of the JSON shape, written in the JSON. */
  @JsonProperty("schemaVersion")
  public int schemaVersion() {
    return SCHEMA_VERSION;
  }

  /** Whether the candidate is slower than the baseline by at least {@code factor} (job time). */
  public boolean isSlowerThan(double factor) {
    return slowdown > factor;
  }

  /** The command line's exit code: 0 when the candidate is not slower (HEALTHY), 1 otherwise. */
  public int exitCode() {
    return verdict.kind() == RootCauseKind.HEALTHY ? 0 : 1;
  }

  /** The changed properties the verdict rests on (those linked to stage evidence). */
  public List<ConfigChange> linkedConfigChanges() {
    return configChanges.stream().filter(c -> c.link().isPresent()).toList();
  }

  @Override
  public String toMarkdown() {
    return ComparisonMarkdown.render(this);
  }

  @Override
  public String toJson() {
    // Names, stage labels and notes come from the runs' own text: secrets known by their value leave redacted.
    return io.sparkrca.core.redaction.Redactor.standard().redactJson(SparkJson.write(this));
  }

  @Override
  public String toHtml() {
    HtmlPage page = HtmlPage.titled("Comparison with a baseline: " + candidate.applicationId() + " against "
        + baseline.applicationId());
    ComparisonHtml.append(page, this, true);
    return page.render();
  }

  /** The comparison as a section of another report (an RCA with a baseline). */
  @Override
  public void appendHtml(HtmlPage page) {
    ComparisonHtml.append(page, this, false);
  }

  /**
   * One run's totals.
   *
   * @param applicationId its id
   * @param name its name
   * @param source where it was read from
   * @param sparkVersion its Spark version
   * @param jobTimeMs the time its jobs ran (the union of their intervals)
   * @param durationMs the application's run time
   * @param inputRecords records read from sources (first stage attempts)
   * @param inputBytes bytes read from sources
   * @param shuffleReadBytes shuffle bytes read
   * @param taskTimeMs executor run time over every stage attempt
   * @param tasks tasks
   * @param stages stage attempts that ran (not skipped)
   * @param maxCores the most cores its executors had at once
   * @param executors executors (the driver in local mode)
   * @param executorsLost executors removed for a reason other than the application's end or idleness
   * @param failedTasks failed task attempts
   */
  public record Run(String applicationId, String name, String source, String sparkVersion, long jobTimeMs,
      long durationMs, long inputRecords, long inputBytes, long shuffleReadBytes, long taskTimeMs, long tasks,
      int stages, int maxCores, int executors, int executorsLost, long failedTasks) {
    public Run {
      Objects.requireNonNull(applicationId, "applicationId");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(sparkVersion, "sparkVersion");
    }
  }

  /**
   * One stage attempt's numbers, compared side by side.
   *
   * @param stageId stage id in its own run
   * @param attemptId the attempt compared (the last that completed)
   * @param name the call site
   * @param group the SQL execution's description, or the job's name, it ran for
   * @param role what it reads and writes: {@code input}, {@code shuffle-read}, {@code shuffle-write}, joined by {@code +}
   * @param lineage how many RDDs its lineage holds (RDD ids differ between runs; their count does not)
   * @param tasks tasks
   * @param wallMs submission to completion
   * @param taskTimeMs executor run time summed over its tasks
   * @param recordsRead input and shuffle records read
   * @param bytesRead input and shuffle bytes read
   * @param shuffleReadBytes shuffle bytes read
   * @param shuffleWriteBytes shuffle bytes written
   * @param memorySpilled memory bytes spilled
   * @param diskSpilled disk bytes spilled
   * @param gcMs JVM GC time of its tasks
   * @param medianTaskMs median task duration
   * @param maxTaskMs the slowest task's duration
   * @param medianShuffleReadBytes median shuffle bytes read per task
   * @param maxShuffleReadBytes the most shuffle bytes one task read
   */
  public record StageStats(int stageId, int attemptId, String name, String group, String role, int lineage, int tasks,
      long wallMs,
      long taskTimeMs, long recordsRead, long bytesRead, long shuffleReadBytes, long shuffleWriteBytes,
      long memorySpilled, long diskSpilled, long gcMs, long medianTaskMs, long maxTaskMs, long medianShuffleReadBytes,
      long maxShuffleReadBytes) {
    public StageStats {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(role, "role");
    }

    /** {@code "stage 3 (reduce at Job.scala:42)"}. */
    public String label() {
      return "stage " + stageId + " (" + name + ")";
    }

    /** The slowest task over the median one; 0 without a median. */
    public double skew() {
      return medianTaskMs <= 0 ? 0 : (double) maxTaskMs / medianTaskMs;
    }

    /** The most shuffle bytes one task read over the median; 0 without a median. */
    public double shuffleSkew() {
      return medianShuffleReadBytes <= 0 ? 0 : (double) maxShuffleReadBytes / medianShuffleReadBytes;
    }

    /** GC time over task time; 0 without task time. */
    public double gcShare() {
      return taskTimeMs <= 0 ? 0 : (double) gcMs / taskTimeMs;
    }
  }

  /**
   * A baseline stage and the candidate stage that is the same work.
   *
   * @param baseline the baseline's stage
   * @param candidate the candidate's stage
   * @param matchedBy how they were matched: {@code call site and lineage}, {@code lineage}, {@code shuffle role}
   * @param timeRatio the candidate's wall time over the baseline's
   * @param inputRatio the candidate's records (or bytes) read over the baseline's
   * @param normalizedRatio {@code timeRatio / inputRatio}: above 1 the stage got slower per unit of input
   * @param extraMs wall time the candidate spent beyond the baseline's, scaled to its input
   */
  public record StagePair(StageStats baseline, StageStats candidate, String matchedBy, double timeRatio,
      double inputRatio, double normalizedRatio, long extraMs) {
    public StagePair {
      Objects.requireNonNull(baseline, "baseline");
      Objects.requireNonNull(candidate, "candidate");
      Objects.requireNonNull(matchedBy, "matchedBy");
    }
  }

  /**
   * A baseline job and the candidate job that ran the same action.
   *
   * @param baseline {@code "job 1 (save at Job.scala:9)"}
   * @param candidate the candidate's job
   * @param baselineMs the baseline job's time
   * @param candidateMs the candidate job's time
   */
  public record JobPair(String baseline, String candidate, long baselineMs, long candidateMs) {
    public JobPair {
      Objects.requireNonNull(baseline, "baseline");
      Objects.requireNonNull(candidate, "candidate");
    }
  }

  /**
   * A Spark property that differs between the runs (values redacted when secret).
   *
   * @param property the key
   * @param baseline its value in the baseline, when set
   * @param candidate its value in the candidate, when set
   * @param category {@code performance}, {@code resources} or {@code other}
   * @param relevance how plausibly it explains the divergence, 0 to 1
   * @param link what it did to the stages, when the stage evidence shows it
   */
  public record ConfigChange(String property, Optional<String> baseline, Optional<String> candidate, String category,
      double relevance, Optional<String> link) {
    public ConfigChange {
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(baseline, "baseline");
      Objects.requireNonNull(candidate, "candidate");
      Objects.requireNonNull(category, "category");
      Objects.requireNonNull(link, "link");
    }

    /** {@code "spark.sql.shuffle.partitions: 8 → 1000"}. */
    public String describe() {
      return property + ": " + baseline.orElse("unset") + " \u2192 " + candidate.orElse("unset");
    }
  }

  /**
   * What the comparison concludes.
   *
   * @param kind {@code CONFIG_REGRESSION}, {@code NO_REGRESSION_INPUT_GROWTH}, {@code DATA_DISTRIBUTION_CHANGE},
   *     {@code CODE_CHANGE}, {@code INFRASTRUCTURE_CHANGE}, {@code HEALTHY} (not slower) or {@code UNDETERMINED}
   * @param title one line
   * @param confidence how sure
   * @param explanation one paragraph
   * @param evidence what it rests on
   * @param alternatives the other explanations, and why each was rejected
   * @param recommendations what to do (never the common wrong answers: memory for a skewed
   *     partition, executors when the task count caps parallelism, caching data used once)
   * @param toConfirm what would confirm a leading hypothesis
   */
  public record Verdict(RootCauseKind kind, String title, Confidence confidence, String explanation,
      List<EvidenceRef> evidence, List<Alternative> alternatives, List<Recommendation> recommendations,
      Optional<String> toConfirm) {
    public Verdict {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(confidence, "confidence");
      Objects.requireNonNull(explanation, "explanation");
      evidence = List.copyOf(evidence);
      alternatives = List.copyOf(alternatives);
      recommendations = List.copyOf(recommendations);
      Objects.requireNonNull(toConfirm, "toConfirm");
    }
  }

  /** Configures a comparison; {@link #compare()} runs it. Not thread-safe. */
  public static final class Builder {
    private final SparkApplication candidate;
    private final SparkApplication baseline;
    private final List<String> candidateCode = new ArrayList<>();
    private final List<String> baselineCode = new ArrayList<>();
    private String candidateSource = "";
    private String baselineSource = "";
    private SourceSettings settings = SourceSettings.defaults();
    private boolean profiles = true;
    private double minSlowdown = 1.2;

    private Builder(SparkApplication candidate, SparkApplication baseline) {
      this.candidate = Objects.requireNonNull(candidate, "candidate");
      this.baseline = Objects.requireNonNull(baseline, "baseline");
    }

    /** Where each run was read from, for the report (credentials are removed). */
    public Builder sources(String candidateUri, String baselineUri) {
      this.candidateSource = Objects.requireNonNull(candidateUri, "candidateUri");
      this.baselineSource = Objects.requireNonNull(baselineUri, "baselineUri");
      return this;
    }

    /**
     * The code each run ran (a JAR, a class file or a script; local, http(s) or gs://): compared
     * through the {@link io.sparkrca.core.evidence.CodeInspectionProvider} on the class path (the
     * sparkrca-inspector module). May be called once per pair of artifacts.
     */
    public Builder code(String candidateUri, String baselineUri) {
      candidateCode.add(Objects.requireNonNull(candidateUri, "candidateUri"));
      baselineCode.add(Objects.requireNonNull(baselineUri, "baselineUri"));
      return this;
    }

    /** How code is read (byte sources, HTTP settings); default {@link SourceSettings#defaults()}. */
    public Builder settings(SourceSettings s) {
      this.settings = Objects.requireNonNull(s, "settings");
      return this;
    }

    /** Whether to keep what the HTML report draws of both runs (default true). */
    public Builder profiles(boolean keep) {
      this.profiles = keep;
      return this;
    }

    /**
     * The slowdown (job time ratio) from which the candidate counts as slower (default 1.2):
     * below it the verdict is {@code HEALTHY}.
     */
    public Builder minSlowdown(double factor) {
      if (!(factor >= 1.0) || Double.isInfinite(factor)) {
        throw new io.sparkrca.core.error.InvalidRequestException("the slowdown threshold must be at least 1, not " + factor);
      }
      this.minSlowdown = factor;
      return this;
    }

    /** Runs the comparison. */
    public Comparison compare() {
      return new Comparer(candidate, baseline, candidateSource, baselineSource, candidateCode, baselineCode, settings,
          profiles, minSlowdown).compare();
    }
  }
}

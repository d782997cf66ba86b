package io.sparkrca.analysis.rca.internal;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What in an application's records is damaged or does not add up, so that no verdict of health
 * rests on it unstated: records that could not be read or contradict each other (as the source
 * counted them), stages that belong to no job, and, in an application that ended, jobs and SQL
 * executions that never did. The last are {@link #unfinished}: whether they succeeded is unknown,
 * so the application is incomplete.
 *
 * @param sourceDamage what the source itself counted (its {@link Completeness}): unreadable and
 *     contradicting records, one sentence per kind
 * @param modelDamage what does not add up in the model: stages that belong to no job
 * @param unfinished jobs and SQL executions that never ended although the application did, one
 *     sentence for jobs and one for executions (a few named, then a count)
 */
public record Integrity(List<String> sourceDamage, List<String> modelDamage, List<String> unfinished) {
  private static final int NAMED = 3;

  public Integrity {
    sourceDamage = List.copyOf(sourceDamage);
    modelDamage = List.copyOf(modelDamage);
    unfinished = List.copyOf(unfinished);
  }

  /** Whether nothing is damaged and nothing unfinished. */
  public boolean sound() {
    return sourceDamage.isEmpty() && modelDamage.isEmpty() && unfinished.isEmpty();
  }

  /** Damaged, contradicting or inconsistent records (unfinished work aside). */
  public List<String> damage() {
    List<String> out = new ArrayList<>(sourceDamage);
    out.addAll(modelDamage);
    return out;
  }

  /** What only the analysis found (the source did not count it): unfinished work, then the model's damage. */
  public List<String> foundInModel() {
    List<String> out = new ArrayList<>(unfinished);
    out.addAll(modelDamage);
    return out;
  }

  /** Everything, unfinished work first. */
  public List<String> all() {
    List<String> out = new ArrayList<>(unfinished);
    out.addAll(damage());
    return out;
  }

  /** The integrity of the application in {@code ctx}, computed once per analysis. */
  public static Integrity of(AnalysisContext ctx) {
    return ctx.derived(Integrity.class, Integrity::compute);
  }

  private static Integrity compute(AnalysisContext ctx) {
    if (ctx.app().isEmpty() || ctx.rebuiltFromLogs()) {
      return new Integrity(List.of(), List.of(), List.of()); // logs record only part of a run: their gaps are stated elsewhere
    }
    List<String> damage = new ArrayList<>();
    List<String> model = new ArrayList<>();
    Completeness c = ctx.app().get().completeness();
    if (c.unreadableRecords() > 0) {
      damage.add(c.unreadableRecords() + (c.unreadableRecords() == 1 ? " record" : " records") + " could not be read");
    }
    damage.addAll(c.inconsistencies());
    Set<Integer> inJobs = new HashSet<>();
    for (JobData j : ctx.jobs()) {
      inJobs.addAll(j.stageIds());
    }
    List<Integer> orphans = ctx.stages().stream().map(StageData::stageId).filter(id -> !inJobs.contains(id))
        .distinct().sorted().toList();
    if (!orphans.isEmpty()) {
      model.add(orphans.size() + (orphans.size() == 1 ? " stage belongs" : " stages belong") + " to no job in the log ("
          + named(orphans.stream().map(id -> "stage " + id).toList()) + "): the job's start is missing");
    }
    List<String> unfinished = new ArrayList<>();
    if (ctx.completed()) {
      long end = ctx.endMs();
      List<String> jobs = new ArrayList<>();
      for (JobData j : ctx.jobs()) {
        if (j.status() == JobExecutionStatus.RUNNING || j.status() == JobExecutionStatus.UNKNOWN) {
          boolean allSucceeded = j.numCompletedTasks() > 0 && j.numFailedTasks() == 0 && j.numActiveTasks() == 0;
          jobs.add("job " + j.jobId() + " (" + (allSucceeded ? (j.numCompletedTasks() == 1 ? "its one task"
              : "all of its " + j.numCompletedTasks() + " tasks") + " succeeded; " : "")
              + running(j.submissionTime().map(t -> t.toEpochMilli()).orElse(-1L), end) + ")");
        }
      }
      if (!jobs.isEmpty()) {
        unfinished.add(jobs.size() + (jobs.size() == 1 ? " job" : " jobs") + " never ended although the application did: "
            + named(jobs) + "; whether " + (jobs.size() == 1 ? "it" : "they") + " succeeded is not recorded");
      }
      List<String> sql = new ArrayList<>();
      for (ExecutionData x : ctx.executions()) {
        if ("RUNNING".equals(x.status())) {
          sql.add("SQL execution " + x.id() + " (" + running(x.submissionTime().toEpochMilli(), end) + ")");
        }
      }
      if (!sql.isEmpty()) {
        unfinished.add(sql.size() + (sql.size() == 1 ? " SQL execution" : " SQL executions") + " did not finish: "
            + named(sql) + "; how " + (sql.size() == 1 ? "it" : "they") + " ended is not recorded");
      }
    }
    return new Integrity(damage, model, unfinished);
  }

  /** "running N s when the application ended": measured to the application's end, never past it. */
  private static String running(long submitted, long end) {
    if (submitted <= 0 || end <= 0 || end < submitted) {
      return "still running when the application ended";
    }
    return "running " + Formats.humanMillis(end - submitted) + " when the application ended";
  }

  private static String named(List<String> items) {
    if (items.size() <= NAMED) {
      return String.join(", ", items);
    }
    return String.join(", ", items.subList(0, NAMED)) + " and " + (items.size() - NAMED) + " more";
  }
}

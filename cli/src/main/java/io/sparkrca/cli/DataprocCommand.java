package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.gcp.dataproc.SparkApplicationViews;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sparkrca dataproc ACTION --batch ID}: what Dataproc's console shows about a Serverless
 * workload's Spark application, from the {@code sparkApplications} API.
 *
 * <pre>{@code
 * sparkrca dataproc summary --batch b-1 --region europe-west1
 * sparkrca dataproc tasks --batch b-1 --stage 3 --status failed --sort duration --format json
 * }</pre>
 */
@Command(
    name = "dataproc",
    mixinStandardHelpOptions = true,
    header = "Shows a Dataproc Serverless batch's or session's Spark application as Dataproc's console does.",
    description = {
      "",
      "Read from the sparkApplications API. ACTION is one of applications, summary (default), "
          + "stages, stage, tasks, executors, jobs, sql, environment. A summary with failed jobs or "
          + "stages, or a workload without an application, exits 1; no access or an unknown workload "
          + "exits 2.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca dataproc summary --batch b-1 --region europe-west1",
      "  sparkrca dataproc stages --batch b-1 --status FAILED --quantiles",
      "  sparkrca dataproc tasks --batch b-1 --stage 3 --status FAILED --sort duration --format json"
    })
final class DataprocCommand extends FormattedCommand {
  DataprocCommand() {
    super(OutputFormat.markdown, OutputFormat.json);
  }

  @Parameters(paramLabel = "ACTION", arity = "0..1", defaultValue = "summary",
      description = "applications, summary, stages, stage, tasks, executors, jobs, sql or environment.")
  String action;

  @Mixin DataprocOptions dataproc;

  @Option(names = "--application", paramLabel = "ID", description = "The Spark application (default: the workload's first).")
  String applicationId;

  @Option(names = "--stage", paramLabel = "ID", description = "The stage, for stage and tasks.")
  Integer stageId;

  @Option(names = "--attempt", paramLabel = "N", defaultValue = "0", description = "The stage attempt (default 0).")
  int attempt;

  @Option(names = "--status", paramLabel = "STATUS",
      description = "Filter: stages ACTIVE|COMPLETE|FAILED|PENDING|SKIPPED, tasks RUNNING|SUCCESS|FAILED|KILLED, "
          + "jobs RUNNING|SUCCEEDED|FAILED, executors ACTIVE|DEAD.")
  String status;

  @Option(names = "--quantiles", description = "For stages: ask for task quantile metrics too.")
  boolean quantiles;

  @Option(names = "--sort", paramLabel = "KEY", defaultValue = "none",
      description = "none, duration or run_time (stages and tasks, longest first).")
  String sort;

  @Option(names = "--grep", paramLabel = "TEXT", description = "For environment: property keys containing TEXT (any case).")
  String grep;

  @Option(names = "--max-rows", paramLabel = "N", defaultValue = "50", description = "The most rows shown (default 50).")
  int limit;

  @Option(names = "--max-tasks", paramLabel = "N", defaultValue = "2000",
      description = "The most tasks the tasks view scans (default 2000).")
  int maxFetch;

  @Option(names = "--format", paramLabel = "FORMAT", description = "markdown (default) or json (the API's payload).",
      defaultValue = "markdown")
  OutputFormat format;

  @Mixin OutputFile output;

  @Override
  public Integer call() {
    SparkApplicationViews.Request.Builder r = SparkApplicationViews.Request.builder(action).limit(limit)
        .maxFetch(maxFetch).quantiles(quantiles).sort(sort);
    if (applicationId != null) {
      r.applicationId(applicationId);
    }
    if (stageId != null) {
      r.stage(stageId, attempt);
    }
    if (status != null) {
      r.status(status);
    }
    if (grep != null) {
      r.grep(grep);
    }
    SparkApplicationViews.Request request = r.build();
    String uri = dataproc.workloadUri().orElseThrow(() -> new InvalidRequestException(
        "a workload is required: sparkrca dataproc " + action + " --batch ID (or --session ID)"));
    SparkApplicationViews.View v = SparkApplicationViews.of(dataproc.settings(), uri).render(request);
    output.write(out(), format.render(v));
    if (request.action().equals("applications")) {
      return v.payload().isEmpty() ? 1 : 0;
    }
    if (request.action().equals("summary")) {
      boolean failed = !v.payload().path("failedStages").isEmpty()
          || v.payload().path("jobs").path("failedJobs").asLong(0) > 0;
      return failed ? 1 : 0;
    }
    return 0;
  }
}

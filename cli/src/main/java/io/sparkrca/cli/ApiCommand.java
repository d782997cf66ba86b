package io.sparkrca.cli;

import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogs;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sparkrca api}: answers a History Server REST path from event logs.
 *
 * <pre>{@code
 * sparkrca api /tmp/spark-events 'applications/app-1/stages?status=failed'
 * }</pre>
 */
@Command(
    name = "api",
    mixinStandardHelpOptions = true,
    header = "Answers a Spark History Server REST path (/api/v1/...) from event logs.",
    description = {
      "",
      "The answer is the History Server's own JSON, for the same parameters and in the same order "
          + "(applications, jobs, stages, stage attempts, taskSummary, taskList, executors, "
          + "environment, storage, sql), replayed from the logs in one pass without a History Server.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca api /tmp/spark-events applications",
      "  sparkrca api /tmp/spark-events 'applications/app-1/stages?status=failed'",
      "  sparkrca api app-1.zstd applications/app-1/environment --output env.json",
      "  sparkrca api --redact /tmp/spark-events applications/app-1/jobs   # to share: no secret by value or name"
    })
final class ApiCommand implements Callable<Integer> {
  @Parameters(paramLabel = "[EVENT_LOGS] REST_PATH", arity = "1..2",
      description = "A log directory (or one log, or a History Server URL), then a path relative to /api/v1, e.g. applications or applications/ID/jobs. With --shs, the path alone.")
  java.util.List<String> args;

  @Mixin OutputFile output;

  @picocli.CommandLine.Option(names = "--redact",
      description = "Redact beyond the History Server's own rule: every secret known by its value (cloud keys, tokens, "
          + "private keys, passwords in URLs) in names, job descriptions, SQL text and properties, and every property "
          + "whose name looks secret. Without it the answer is exactly the History Server's.")
  boolean redact;

  @ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String location = args.size() == 2 ? args.get(0) : null;
    String path = args.get(args.size() - 1);
    location = shs.serverUri(location, "EVENT_LOGS");
    path = shs.appRelative(path);
    if (location == null) {
      throw new io.sparkrca.core.error.InvalidRequestException("sparkrca api EVENT_LOGS REST_PATH (or --shs URL REST_PATH)");
    }
    io.sparkrca.core.source.SparkSources sources = Applications.sources(http, false, spec);
    io.sparkrca.core.app.SparkHistory history = Applications.fromOtherSource(sources, location)
        ? Applications.history(sources, location)
        : EventLogs.reader().sources(http.sources(spec)).build().history(location);
    if (history instanceof io.sparkrca.core.eventlog.EventLogHistory logs) {
      statedSkips(logs, location);
    }
    ApiResponse r = RestRouter.over(history).get(path);
    if (r.status() == 404) {
      throw new InputNotFoundException(path, r.body() + " (list applications with: sparkrca api " + location + " applications)");
    }
    if (!r.ok()) {
      throw new InvalidRequestException(path + ": HTTP " + r.status() + ": " + r.body());
    }
    output.write(spec.commandLine().getOut(), redact ? io.sparkrca.core.redaction.Redactor.standard().redactJson(r.body()) : r.body());
    return 0;
  }

  /**
   * Logs of {@code location} that could not be listed: when none could, the error {@code rca}
   * gives for that log (one) or a count (several), never an empty answer; when some could not, one
   * line on stderr saying how many (each with {@code --debug}). The answer itself stays as the
   * History Server gives it.
   */
  private void statedSkips(io.sparkrca.core.eventlog.EventLogHistory logs, String location) {
    java.util.List<String> skipped = logs.skipped();
    if (skipped.isEmpty()) {
      return;
    }
    int total = logs.logs().size();
    if (skipped.size() == total) {
      if (total == 1) {
        // The error a replay of that log gives, as rca reports it.
        EventLogs.reader().sources(http.sources(spec)).build().replay(logs.logs().get(0));
      }
      throw new io.sparkrca.core.error.CorruptInputException("none of the " + total + " logs in "
          + io.sparkrca.core.redaction.Redactor.redactUri(location) + " could be read (the first: " + skipped.get(0)
          + "); check that this is a Spark event log directory (spark.eventLog.dir)");
    }
    SkippedInputs.report(spec, location, total, skipped.stream().map(SkippedInputs.Skip::described).toList());
  }
}


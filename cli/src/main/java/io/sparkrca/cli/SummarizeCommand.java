package io.sparkrca.cli;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.summary.SummaryMarkdown;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sparkrca summarize}: the executive summary of the applications in an event log. Exit
 * code 0 when no summarized application failed, 1 when one did, 2 on errors.
 *
 * <pre>{@code
 * sparkrca summarize /tmp/spark-events/app-1 && echo "the application did not fail"
 * }</pre>
 */
@Command(
    name = "summarize",
    mixinStandardHelpOptions = true,
    description = {
      "Executive summary of an application from its event log: whether it",
      "failed and why, jobs, stages and tasks with failure counts, failed",
      "stages, tasks (folded by cause, first occurrence first) and SQL",
      "executions (with their error), lost executors, spill, GC, and how",
      "reading went. Reads every codec and layout; a directory summarizes each",
      "log.",
      "",
      "Status: FAILED (a job or a SQL execution failed, or the driver exited",
      "with a non-zero code), COMPLETED (nothing failed), FINISHED, NO JOB RAN",
      "(the driver probably failed before its first action: read the driver",
      "log), RUNNING or INCOMPLETE (the log has no application end).",
      "",
      "Exit code: 0 when no summarized application failed, 1 when one FAILED,",
      "2 on errors (an input that cannot be read)."
    })
final class SummarizeCommand implements Callable<Integer> {
  @Parameters(paramLabel = "EVENT_LOG", arity = "0..1",
      description = "An event log file, rolling log directory, or log directory; or a History Server application URL.")
  String location;

  @Option(names = "--format", description = "markdown (default) or json.", defaultValue = "markdown")
  OutputFormat format;

  @Option(names = "--strict", description = "Fail on the first line that is not a valid event.")
  boolean strict;

  @Option(names = "--max-apps", description = "Summarize at most this many logs of a directory (default ${DEFAULT-VALUE}).", defaultValue = "20")
  int maxApps;

  @picocli.CommandLine.Mixin HttpOptions http;

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    location = shs.applicationUri(location, "EVENT_LOG");
    if (location == null) {
      throw new io.sparkrca.core.error.InvalidRequestException("an event log is required: sparkrca summarize EVENT_LOG (or --shs URL --app ID)");
    }
    io.sparkrca.core.source.SparkSources sources = Applications.sources(http, strict);
    if (Applications.fromOtherSource(sources, location)) {
      ApplicationSummary one = ApplicationSummary.of(Applications.application(sources, location), location);
      out.print(format == OutputFormat.json ? SparkJson.write(one) + "\n" : SummaryMarkdown.render(one));
      out.flush();
      return one.outcome() == ApplicationSummary.Outcome.FAILED ? SparkRcaCommand.EXIT_FAIL : 0;
    }
    EventLogReader reader = EventLogs.reader().sources(http.sources()).strict(strict).build();
    List<EventLogRef> logs = reader.find(location);
    List<ApplicationSummary> summaries = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (EventLogRef log : logs.subList(0, Math.min(maxApps, logs.size()))) {
      try {
        summaries.add(ApplicationSummary.of(reader.replay(log), logs.size() == 1 ? location : log.uri()));
      } catch (SparkRcaException e) {
        if (logs.size() == 1) {
          throw e;
        }
        failures.add(log.uri() + ": " + SparkRcaCommand.describe(e));
      }
    }
    if (format == OutputFormat.json) {
      out.println(SparkJson.write(logs.size() == 1 ? summaries.get(0) : summaries));
    } else {
      for (int i = 0; i < summaries.size(); i++) {
        if (i > 0) {
          out.println("\n---\n");
        }
        out.print(SummaryMarkdown.render(summaries.get(i)));
      }
      if (logs.size() > maxApps) {
        out.println("\n(" + (logs.size() - maxApps) + " more logs not summarized; raise --max-apps)");
      }
    }
    for (String f : failures) {
      err.println("sparkrca: skipped " + f);
    }
    out.flush();
    if (summaries.isEmpty()) {
      throw new SparkRcaException("none of the " + logs.size() + " logs in " + location + " could be read");
    }
    return summaries.stream().anyMatch(s -> s.outcome() == ApplicationSummary.Outcome.FAILED)
        ? SparkRcaCommand.EXIT_FAIL
        : 0;
  }
}

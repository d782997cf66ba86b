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
import java.util.EnumSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
    header = "Writes the executive summary of an application from its event log.",
    description = {
      "",
      "Whether the application failed and why; jobs, stages and tasks with failure counts; failed "
          + "stages; task failures folded by cause (first occurrence first); SQL executions with their "
          + "error; lost executors, spill and GC; and how reading went. Reads every codec and layout; "
          + "a directory summarizes each log in it.",
      "",
      "Status: FAILED (a job or a SQL execution failed, or the driver exited with a non-zero code), "
          + "COMPLETED (nothing failed), FINISHED, NO JOB RAN (the driver probably failed before its "
          + "first action: read the driver log), RUNNING or INCOMPLETE (the log has no application end). "
          + "A FAILED application exits 1.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca summarize /tmp/spark-events/app-1",
      "  sparkrca summarize eventlog_v2_app-1/ --format json --output summary.json",
      "  sparkrca summarize /tmp/spark-events --max-apps 50"
    })
final class SummarizeCommand implements Callable<Integer>, Formatted {
  @Parameters(paramLabel = "EVENT_LOG", arity = "0..1",
      description = "An event log file, rolling log directory, or log directory; or a History Server application URL.")
  String location;

  @Option(names = "--format", paramLabel = "FORMAT", description = "markdown (default), json or html (one application, with charts).",
      defaultValue = "markdown")
  OutputFormat format;

  @Mixin OutputFile output;

  @Option(names = "--strict", description = "Fail on the first line that is not a valid event.")
  boolean strict;

  @Option(names = "--max-apps", paramLabel = "N", description = "Summarize at most this many logs of a directory (default ${DEFAULT-VALUE}).", defaultValue = "20")
  int maxApps;

  @ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public OutputFormat format() {
    return format;
  }

  @Override
  public Set<OutputFormat> formats() {
    return EnumSet.of(OutputFormat.markdown, OutputFormat.json, OutputFormat.html);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    location = shs.applicationUri(location, "EVENT_LOG");
    if (location == null) {
      throw new io.sparkrca.core.error.InvalidRequestException("an event log is required: sparkrca summarize EVENT_LOG (or --shs URL --app ID)");
    }
    io.sparkrca.core.source.SparkSources sources = Applications.sources(http, strict, spec);
    if (Applications.fromOtherSource(sources, location)) {
      ApplicationSummary one = ApplicationSummary.of(Applications.application(sources, location), location);
      output.write(out, format == OutputFormat.json ? SparkJson.write(one) + "\n"
          : format == OutputFormat.html ? one.toHtml() : SummaryMarkdown.render(one));
      return one.outcome() == ApplicationSummary.Outcome.FAILED ? SparkRcaCommand.EXIT_FAIL : 0;
    }
    EventLogReader reader = EventLogs.reader().sources(http.sources(spec)).strict(strict).build();
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
    StringBuilder text = new StringBuilder();
    if (format == OutputFormat.html) {
      if (summaries.size() != 1) {
        throw new io.sparkrca.core.error.InvalidRequestException("an HTML summary shows one application, and "
            + location + " holds " + logs.size() + " logs: give one of them");
      }
      text.append(summaries.get(0).toHtml());
    } else if (format == OutputFormat.json) {
      text.append(SparkJson.write(logs.size() == 1 ? summaries.get(0) : summaries)).append('\n');
    } else {
      for (int i = 0; i < summaries.size(); i++) {
        if (i > 0) {
          text.append("\n---\n\n");
        }
        text.append(SummaryMarkdown.render(summaries.get(i)));
      }
      if (logs.size() > maxApps) {
        text.append("\n(").append(logs.size() - maxApps).append(" more logs not summarized; raise --max-apps)\n");
      }
    }
    for (String f : failures) {
      err.println("sparkrca: skipped " + f);
    }
    if (summaries.isEmpty()) {
      throw new SparkRcaException("none of the " + logs.size() + " logs in " + location + " could be read");
    }
    output.write(out, text.toString());
    return summaries.stream().anyMatch(s -> s.outcome() == ApplicationSummary.Outcome.FAILED)
        ? SparkRcaCommand.EXIT_FAIL
        : 0;
  }

  private String markdown(List<ApplicationSummary> summaries, int found) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < summaries.size(); i++) {
      if (i > 0) {
        b.append("\n---\n\n");
      }
      b.append(SummaryMarkdown.render(summaries.get(i)));
    }
    if (found > maxApps) {
      b.append("\n(").append(found - maxApps).append(" more logs not summarized; raise --max-apps)\n");
    }
    return b.toString();
  }
}

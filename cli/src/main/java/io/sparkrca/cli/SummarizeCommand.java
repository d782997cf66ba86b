package io.sparkrca.cli;

import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.summary.Summaries;
import io.sparkrca.core.summary.SummaryRequest;
import io.sparkrca.core.summary.SummaryRunner;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
final class SummarizeCommand extends FormattedCommand {
  SummarizeCommand() {
    super(OutputFormat.markdown, OutputFormat.json, OutputFormat.html);
  }

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

  @Override
  public Integer call() {
    location = shs.applicationUri(location, "EVENT_LOG");
    if (location == null) {
      throw new io.sparkrca.core.error.InvalidRequestException("an event log is required: sparkrca summarize EVENT_LOG (or --shs URL --app ID)");
    }
    if (maxApps < 1 || maxApps > SummaryRequest.MAX_APPS) {
      throw new io.sparkrca.core.error.InvalidRequestException("--max-apps must be from 1 to " + SummaryRequest.MAX_APPS + ", not " + maxApps);
    }
    SourceSettings settings = SourceSettings.builder().http(http.settings()).byteSources(http.sources(spec)).strict(strict).build();
    Summaries s = SummaryRunner.builder().settings(settings).build().run(new SummaryRequest(location, maxApps));
    if (format == OutputFormat.html && s.summaries().size() != 1) {
      throw new io.sparkrca.core.error.InvalidRequestException("an HTML summary shows one application, and "
          + location + " holds " + s.logsFound() + " logs: give one of them");
    }
    SkippedInputs.report(spec, s.location(), s.summaries().size() + s.skipped().size(),
        s.skipped().stream().map(k -> SkippedInputs.Skip.of(k.source(), k.failure())).toList());
    String text = switch (format) {
      case html -> s.toHtml();
      case json -> io.sparkrca.core.redaction.Redactor.standard().redactJson(
          SparkJson.write(s.logsFound() == 1 ? s.summaries().get(0) : s.summaries())) + "\n";
      default -> s.toMarkdown(CliHints::words);
    };
    output.write(out(), text);
    return s.anyFailed() ? SparkRcaCommand.EXIT_FAIL : 0;
  }
}

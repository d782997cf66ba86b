package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.rules.rca.RcaEngine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca rca}: the root cause of an application's failure or slowness, from its event log
 * and whatever else is given (driver and executor logs, the job's code, a healthy baseline run).
 * Exit code 0 when the application is healthy on sufficient evidence, 1 when a root cause was
 * reported (or the evidence could not determine one), 2 on errors.
 *
 * <pre>{@code
 * sparkrca rca /tmp/spark-events/app-1 --driver-log driver.log --executor-log executors/ --format json
 * }</pre>
 */
@Command(
    name = "rca",
    mixinStandardHelpOptions = true,
    description = {
      "Names the root cause of a failed or slow Spark application from its event",
      "log, and from its driver and executor logs, code and a baseline run when",
      "given: the earliest failure that explains the rest (with the failure chain",
      "that follows from it), or the problem that cost the most time, with its",
      "confidence, the evidence for and against, the fix with exact property",
      "values, and the evidence that was missing.",
      "",
      "Exit code: 0 healthy on sufficient evidence, 1 a root cause was reported",
      "(or the evidence does not determine one), 2 error (an input that cannot",
      "be read at all, bad usage)."
    })
final class RcaCommand implements Callable<Integer> {
  @Parameters(paramLabel = "EVENT_LOG", arity = "0..1",
      description = "The application's event log: a file, a rolling eventlog_v2_ directory, or a URL (any codec).")
  String application;

  @Option(names = "--driver-log", paramLabel = "URI", description = "The driver's log (spark-submit's stderr). Repeatable.")
  List<String> driverLogs = new ArrayList<>();

  @Option(names = "--executor-log", paramLabel = "URI_OR_DIR",
      description = "An executor's log, or a directory of them (each file's executor is read from its content). Repeatable.")
  List<String> executorLogs = new ArrayList<>();

  @Option(names = "--log", paramLabel = "URI_OR_DIR",
      description = "Logs of any role, or a directory of them: driver and executor logs are told apart by content. Repeatable.")
  List<String> logs = new ArrayList<>();

  @Option(names = "--code", paramLabel = "URI", description = "The job's JAR, class file or script, to point the failure at its code. Repeatable.")
  List<String> code = new ArrayList<>();

  @Option(names = "--baseline", paramLabel = "EVENT_LOG", description = "The event log of a healthy earlier run of the same job, to compare with.")
  String baseline;

  @Option(names = "--format", description = "markdown (default), json or text.", defaultValue = "markdown")
  OutputFormat format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
  Path output;

  @Option(names = "--strict", description = "Fail on the first line of the event log that is not a valid event.")
  boolean strict;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long collecting the evidence may take in all (default ${DEFAULT-VALUE} s); what is not in by then is reported as missing.")
  long timeoutSeconds;

  @picocli.CommandLine.Mixin HttpOptions http;

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      RcaReport report = analyze();
      String text = format == OutputFormat.json ? report.toJson() : report.toMarkdown();
      ReportOutput.write(out, java.util.Optional.ofNullable(output), text);
      err.println("sparkrca: " + report.rootCause().kind() + " (" + report.rootCause().confidence().name()
          .toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + "): " + Redactor.standard().redactText(report.rootCause().title()));
      return report.exitCode();
    } catch (SparkRcaException e) {
      if (format == OutputFormat.json) {
        ReportOutput.jsonError(out, e);
      }
      throw e;
    }
  }

  private RcaReport analyze() {
    application = shs.applicationUri(application, "EVENT_LOG");
    if (application == null && driverLogs.isEmpty() && executorLogs.isEmpty() && logs.isEmpty()) {
      throw new InvalidRequestException("an event log is required (or at least a log): sparkrca rca EVENT_LOG "
          + "[--driver-log URI] [--executor-log URI_OR_DIR] [--code URI] [--baseline EVENT_LOG]");
    }
    if (timeoutSeconds < 1) {
      throw new InvalidRequestException("--timeout must be at least 1 second, not " + timeoutSeconds);
    }
    SourceSettings settings = SourceSettings.builder().http(http.settings()).byteSources(http.sources()).strict(strict).build();
    EvidenceCollector.Builder b = EvidenceCollector.builder()
        .sources(SparkSources.builder().settings(settings).loadServiceProviders().build())
        .timeout(Duration.ofSeconds(timeoutSeconds));
    if (application != null) {
      b.application(application);
    }
    if (baseline != null) {
      b.baseline(baseline);
    }
    driverLogs.forEach(b::driverLog);
    executorLogs.forEach(b::executorLogs);
    logs.forEach(b::logs);
    code.forEach(b::code);
    Evidence evidence = b.build().collect();
    if (application != null && evidence.application().isEmpty() && evidence.logs().isEmpty()) {
      // Nothing at all to analyze: that is an input error, not an undetermined root cause.
      EvidenceGap g = evidence.gaps("event log").stream().findFirst().orElseThrow(() ->
          new SparkRcaException("the event log " + Redactor.redactUri(application) + " could not be read"));
      throw new SparkRcaException(g.uri() + ": " + g.detail() + (g.whatToDo().isEmpty() ? "" : " (" + g.whatToDo() + ")"));
    }
    if (baseline != null && evidence.baseline().isEmpty()) {
      EvidenceGap g = evidence.gaps("baseline").stream().findFirst().orElseThrow();
      throw new SparkRcaException("the baseline " + g.uri() + " could not be read: " + g.detail());
    }
    return RcaEngine.standard().analyze(evidence);
  }
}

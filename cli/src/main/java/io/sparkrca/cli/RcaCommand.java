package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.analysis.rca.RcaRequest;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
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
    header = "Names the root cause of a failed or slow Spark application, with the evidence and the fix.",
    description = {
      "",
      "Reads the application's event log and, when given, its driver and executor logs, its code "
          + "and a healthy baseline run. The root cause is the earliest failure that explains the rest "
          + "(with the failure chain that follows from it) or, for a run that did not fail, the problem "
          + "that cost the most time. The report gives its confidence (CONFIRMED only when a record "
          + "establishes it), the evidence for and against, the alternatives rejected, the fix with "
          + "exact property values, and the evidence that was missing and how to get it.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca rca /tmp/spark-events/app-1 --driver-log driver.log",
      "  sparkrca rca eventlog_v2_app-1/ --executor-log executor-logs/ --code app.jar --format json",
      "  sparkrca rca app-2.zstd --baseline app-1.zstd --output report.md"
    })
final class RcaCommand implements Callable<Integer>, Formatted {
  @Parameters(paramLabel = "EVENT_LOG", arity = "0..1",
      description = "The application's event log: a file, a rolling eventlog_v2_ directory, or a URL (any codec).")
  String application;

  @ArgGroup(validate = false, heading = "%nEvidence:%n", order = 1)
  Inputs inputs = new Inputs();

  /** Everything besides the event log that the analysis reads. */
  static final class Inputs {
    @Option(names = "--driver-log", paramLabel = "URI", order = 1,
        description = "The driver's log (spark-submit's stderr). Repeatable.")
    List<String> driverLogs = new ArrayList<>();

    @Option(names = "--executor-log", paramLabel = "URI_OR_DIR", order = 2,
        description = "An executor's log, or a directory of them (each file's executor is read from its content). Repeatable.")
    List<String> executorLogs = new ArrayList<>();

    @Option(names = "--log", paramLabel = "URI_OR_DIR", order = 3,
        description = "Logs of any role, or a directory of them: driver and executor logs are told apart by content. Repeatable.")
    List<String> logs = new ArrayList<>();

    @Option(names = "--code", paramLabel = "URI", order = 4,
        description = "The job's JAR, class file or script, to point the failure at its code. Repeatable.")
    List<String> code = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "EVENT_LOG", order = 5,
        description = "A healthy earlier run of the same job to compare with: an event log or any application URI (see sparkrca compare).")
    String baseline;
  }

  @ArgGroup(validate = false, heading = "%nOutput:%n", order = 2)
  Output outputOptions = new Output();

  /** Where the report goes and in which format. */
  static final class Output {
    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "markdown", order = 1,
        description = "markdown (default), json or html (one page with charts).")
    OutputFormat format = OutputFormat.markdown;

    @Option(names = "--output", paramLabel = "FILE", order = 2,
        description = "Write the report to FILE (atomically: a failed run never leaves half a report) instead of standard output.")
    Path file;
  }

  @ArgGroup(validate = false, heading = "%nReading:%n", order = 3)
  Reading reading = new Reading();

  /** How the inputs are read. */
  static final class Reading {
    @Option(names = "--strict", order = 1, description = "Fail on the first line of the event log that is not a valid event.")
    boolean strict;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600", order = 2,
        description = "How long collecting the evidence may take in all (default ${DEFAULT-VALUE} s); what is not in by then is reported as missing.")
    long timeoutSeconds = 600;

    @Option(names = "--signatures", paramLabel = "FILE", order = 3,
        description = "Failure families of your own (JSON, the knowledge-base schema of docs/knowledge-base.md), "
            + "tried before the standard ones. A broken file is an error (exit 2). Repeatable.")
    List<Path> signatures = new ArrayList<>();
  }

  @ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n", order = 4)
  HttpOptions http = new HttpOptions();

  @picocli.CommandLine.Mixin KubernetesOptions k8s;

  @picocli.CommandLine.Mixin DataprocOptions dataproc;

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public OutputFormat format() {
    return outputOptions.format;
  }

  @Override
  public Set<OutputFormat> formats() {
    return EnumSet.of(OutputFormat.markdown, OutputFormat.json, OutputFormat.html);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RcaReport report = analyze();
    ReportOutput.write(out, java.util.Optional.ofNullable(outputOptions.file), format().render(report));
    if (!CliContract.quiet(spec)) {
      err.println("sparkrca: " + report.rootCause().kind() + " (" + report.rootCause().confidence().name()
          .toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + "): " + Redactor.standard().redactText(report.rootCause().title()));
    }
    return report.exitCode();
  }

  private RcaReport analyze() {
    application = shs.applicationUri(application, "EVENT_LOG");
    Optional<String> workload = dataproc.workloadUri();
    if (application == null && workload.isEmpty() && inputs.driverLogs.isEmpty() && inputs.executorLogs.isEmpty()
        && inputs.logs.isEmpty()) {
      throw new InvalidRequestException("an event log is required (or at least a log, or a Dataproc --batch/--session/--job): "
          + "sparkrca rca EVENT_LOG [--driver-log URI] [--executor-log URI_OR_DIR] [--code URI] [--baseline EVENT_LOG]");
    }
    if (reading.timeoutSeconds < 1) {
      throw new InvalidRequestException("--timeout must be at least 1 second, not " + reading.timeoutSeconds);
    }
    RcaRequest.Builder request = RcaRequest.builder().timeout(Duration.ofSeconds(reading.timeoutSeconds));
    if (application != null) {
      request.application(application);
    }
    workload.ifPresent(request::workload);
    if (inputs.baseline != null) {
      request.baseline(inputs.baseline);
    }
    inputs.driverLogs.forEach(request::driverLog);
    inputs.executorLogs.forEach(request::executorLogs);
    inputs.logs.forEach(request::logs);
    inputs.code.forEach(request::code);
    SourceSettings settings = SourceSettings.builder().http(http.settings())
        .byteSources(ReadProgress.track(dataproc.byteSources(http), spec)).strict(reading.strict).build();
    RcaRunner.Builder runner = RcaRunner.builder().sources(SparkSources.builder().settings(settings).loadServiceProviders().build());
    if (!reading.signatures.isEmpty()) {
      KnowledgeBase.Builder kb = KnowledgeBase.builder();
      reading.signatures.forEach(kb::add);
      runner.engine(RcaEngine.builder().knowledgeBase(kb.standard().build()).build());
    }
    dataproc.addTo(runner);
    k8s.addTo(runner);
    return runner.build().run(request.build());
  }
}

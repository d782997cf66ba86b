package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.analysis.compare.CompareRequest;
import io.sparkrca.analysis.compare.CompareRunner;
import io.sparkrca.analysis.compare.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sparkrca compare}: a slow run against a healthy baseline of the same job. Exit code 0
 * when the run is not slower than the baseline, 1 when it is (whatever the verdict: a regression,
 * input growth, or undetermined), 2 on errors.
 *
 * <pre>{@code
 * sparkrca compare slow/eventlog healthy/eventlog --format html --output compare.html
 * sparkrca compare slow/eventlog healthy/eventlog --code new/app.jar --baseline-code old/app.jar
 * }</pre>
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    header = "Compares a slow run with a healthy baseline of the same job and names why it is slower.",
    description = {
      "",
      "Aligns their jobs and stages by call site, SQL execution and lineage (not by id), normalises "
          + "time by the input each read, shows the first stage that departs side by side, ranks the "
          + "changed Spark properties by how well they explain it, compares the code when both runs' "
          + "code is given, and names the verdict (CONFIG_REGRESSION, NO_REGRESSION_INPUT_GROWTH, "
          + "DATA_DISTRIBUTION_CHANGE, CODE_CHANGE, INFRASTRUCTURE_CHANGE; HEALTHY when it is not "
          + "slower) with its confidence and the alternatives rejected. A slower run exits 1.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca compare slow/eventlog healthy/eventlog",
      "  sparkrca compare slow/eventlog healthy/eventlog --format html --output compare.html",
      "  sparkrca compare slow/eventlog healthy/eventlog --code new/app.jar --baseline-code old/app.jar"
    })
final class CompareCommand extends FormattedCommand {
  CompareCommand() {
    super(OutputFormat.markdown, OutputFormat.json, OutputFormat.text, OutputFormat.html);
  }

  @Parameters(index = "0", paramLabel = "CANDIDATE", description = "The slow run: an event log (any codec or layout) or any application URI a source reads.")
  String candidate;

  @Parameters(index = "1", paramLabel = "BASELINE", description = "The healthy run of the same job to compare with.")
  String baseline;

  @Option(names = "--code", paramLabel = "URI", description = "The slow run's JAR, class file or script (pair each with --baseline-code). Repeatable.")
  List<String> code = new ArrayList<>();

  @Option(names = "--baseline-code", paramLabel = "URI", description = "The baseline's JAR, class file or script, in the order of --code. Repeatable.")
  List<String> baselineCode = new ArrayList<>();

  @Option(names = "--min-slowdown", paramLabel = "FACTOR", defaultValue = "1.2",
      description = "The job-time ratio from which the run counts as slower (default ${DEFAULT-VALUE}).")
  double minSlowdown;

  @Option(names = "--format", paramLabel = "FORMAT", description = "markdown (default), json, text or html.", defaultValue = "markdown")
  OutputFormat format;

  @picocli.CommandLine.Mixin OutputFile output;

  @Option(names = "--strict", description = "Fail on the first line of an event log that is not a valid event.")
  boolean strict;

  @picocli.CommandLine.ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @Override
  public Integer call() {
    if (code.size() != baselineCode.size()) {
      throw new InvalidRequestException("give as many --baseline-code as --code (" + code.size() + " against "
          + baselineCode.size() + "): each pair is the same artifact of the two runs");
    }
    SourceSettings settings = SourceSettings.builder().http(http.settings()).byteSources(http.sources(spec)).strict(strict)
        .build();
    CompareRequest.Builder request = CompareRequest.builder(candidate, baseline).minSlowdown(minSlowdown);
    for (int i = 0; i < code.size(); i++) {
      request.code(code.get(i), baselineCode.get(i));
    }
    Comparison c = CompareRunner.builder().settings(settings).build().run(request.build());
    output.write(out(), format.render(c));
    if (!CliContract.quiet(spec)) {
      err().println("sparkrca: " + c.verdict().kind() + " (" + c.verdict().confidence().name().toLowerCase(Locale.ROOT)
          .replace('_', ' ') + "): " + Redactor.standard().redactText(c.verdict().title()));
    }
    return c.exitCode();
  }
}

package io.sparkrca.cli;

import io.sparkrca.core.eventlog.replay.NotAnEventLogException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.rules.BrokenRuleException;
import io.sparkrca.rules.DiagnosticStatus;
import io.sparkrca.rules.OutputContract;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.RulesRequest;
import io.sparkrca.rules.RulesRunner;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRule;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.rules.StageTelemetry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sparkrca rules}: evaluates CEL stage rules (the Dataproc agent's format) on an
 * application. Exit code 0 PASS, 1 FAIL (a rule matched), 2 ERROR (unreadable log, bad or broken
 * rules, no rules).
 *
 * <pre>{@code
 * sparkrca rules --recommended /tmp/spark-events/app-1
 * sparkrca rules --rules team-rules.json --format json --skip-broken-rules gs://bucket/app-1
 * }</pre>
 */
@Command(
    name = "rules",
    mixinStandardHelpOptions = true,
    header = "Evaluates stage diagnostic rules (CEL, the Dataproc agent's format) on an application.",
    description = {
      "",
      "Rules are CEL expressions over the Dataproc v1 stage schema. Supply rules (--rules, --rule) "
          + "and/or opt in to the recommended catalog (--recommended); there are no implicit rules.",
      "",
      "Variables a rule sees:",
      "  s       the stage attempt being checked: a rule that reads s runs once",
      "          per attempt and flags each one it is true for",
      "          (s.stage_metrics.jvm_gc_time_millis, s.num_tasks, ...)",
      "  stages  every stage attempt, a list:",
      "          stages.filter(x, x.num_failed_tasks > 0)",
      "  total_executor_summary",
      "          the executors' totals (total_executor_summary.total_cores)",
      "  conf    in advice conditions and in the $${...} values of advice texts",
      "          only: the effective Spark properties, a map of strings with",
      "          Spark's defaults filled in (conf['spark.sql.shuffle.partitions'])",
      "",
      "Helper functions: ratio(a, b) (0 when b is 0), mb(n), gb(n), seconds_between(t1, t2), sum(list), "
          + "round(x, digits), human_bytes(n), human_millis(ms), truncate(text, n), and CEL's standard "
          + "functions and macros (has, size, contains, matches, filter, map, exists, all). "
          + "--show-telemetry prints every field under the names rules use.",
      "",
      "A rule whose expression, detail or advice does not compile (a field that does not exist is "
          + "named with the closest real ones), or an invalid rule entry, makes the run an ERROR "
          + "unless --skip-broken-rules. A rule that compiles but fails when evaluated on this "
          + "application's stages is skipped with a warning that says so, and the others still run. "
          + "The result is PASS (exit 0), FAIL (a rule matched: exit 1) or ERROR (exit 2).",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca rules --recommended /tmp/spark-events/app-1",
      "  sparkrca rules --rules team-rules.json --format json gs://bucket/app-1",
      "  sparkrca rules --rule '{\"ruleId\": \"FAILED\", \"expression\": \"s.num_failed_tasks > 0\"}' app-1",
      "  sparkrca rules --list"
    })
final class RulesCommand extends FormattedCommand {
  RulesCommand() {
    super(OutputFormat.markdown, OutputFormat.json);
  }

  @Parameters(
      paramLabel = "EVENT_LOG",
      arity = "0..1",
      description = "An event log file or rolling log directory (any codec).")
  String location;

  @Option(names = "--rules", paramLabel = "FILE", description = "A JSON rule file: a list of {ruleId, description, expression, detail?, remediation?, severity?, advice?}. Repeatable.")
  List<Path> ruleFiles = new ArrayList<>();

  @Option(names = "--rule", paramLabel = "JSON", description = "Inline rules: one rule object or a list, as JSON text (never read as a path). Repeatable.")
  List<String> inlineRules = new ArrayList<>();

  @Option(names = "--recommended", description = "Add the recommended catalog (see --list).")
  boolean recommended;

  @Option(names = "--list", description = "List the rules (the recommended catalog when no rules are given) and exit.")
  boolean list;

  @Option(names = "--format", paramLabel = "FORMAT", description = "markdown (default) or json.", defaultValue = "markdown")
  OutputFormat format;

  @picocli.CommandLine.Mixin OutputFile output;

  @Option(names = "--contract", description = "JSON shape: sparkrca (default) or agent (exactly the Dataproc agent's output).", defaultValue = "sparkrca")
  String contract;

  @Option(
      names = "--telemetry",
      paramLabel = "FILE",
      description = "Read a Dataproc sparkApplications JSON export instead of an event log: a list of stages, or {sparkApplicationStages, totalExecutorSummary} (the Dataproc agent's telemetry file).")
  Path telemetryFile;

  @Option(names = "--show-telemetry", description = "Print the values rules see (the stages as Dataproc messages, snake_case) instead of evaluating.")
  boolean showTelemetry;

  @Option(
      names = "--skip-broken-rules",
      description = "Run the other rules when some do not compile or are invalid, and report each broken one as a warning, instead of failing with ERROR. A skipped rule can never FAIL.")
  boolean skipBrokenRules;

  @picocli.CommandLine.ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Override
  public Integer call() {
    PrintWriter out = out();
    PrintWriter err = err();
    location = shs.applicationUri(location, "EVENT_LOG");
    OutputContract shape = parseContract(contract);
    RulesRequest.Builder request = RulesRequest.builder().skipBrokenRules(skipBrokenRules);
    ruleFiles.forEach(request::ruleFile);
    inlineRules.forEach(json -> request.rules(json, "--rule"));
    if (list) {
      RuleCatalog given = request.build().catalog();
      // With no rules of its own, --list shows the recommended catalog.
      boolean none = given.rules().isEmpty() && given.warnings().isEmpty();
      printList(out, recommended || none ? RuleCatalog.recommended().plus(given) : given);
      return 0;
    }
    request.recommended(recommended);
    if (location != null) {
      request.application(location);
    }
    RulesRequest rules = request.build();
    if (location == null && telemetryFile == null) {
      throw new InvalidRequestException(
          "an event log is required (or --telemetry FILE, or --list): sparkrca rules [--recommended] [--rules FILE] EVENT_LOG");
    }
    RulesRunner runner = RulesRunner.builder().settings(SourceSettings.builder().http(http.settings())
        .byteSources(http.sources(spec)).build()).parallelism(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())))
        .build();
    if (showTelemetry) {
      output.write(out,
          (telemetryFile != null ? readTelemetry(telemetryFile) : StageTelemetry.from(runner.application(location)))
              .toJson());
      return 0;
    }
    StageRuleEngine engine;
    try {
      engine = runner.engine(rules);
    } catch (BrokenRuleException e) {
      String which = e.brokenRules().size() == 1 ? "it" : "them";
      StageDiagnostics broken =
          StageDiagnostics.error(
              java.util.Optional.empty(),
              e.problems() + ". No rule was evaluated: fix " + which + ", or pass --skip-broken-rules to run"
                  + " the other rules and report " + which + " as warnings",
              List.of());
      return report(broken, shape, out, err);
    }
    StageDiagnostics result;
    if (telemetryFile != null) {
      try {
        result = engine.evaluate(readTelemetry(telemetryFile));
      } catch (SparkRcaException e) {
        result = engine.error(java.util.Optional.empty(), e.getMessage());
      }
    } else {
      try {
        result = engine.evaluate(runner.application(location));
      } catch (NotAnEventLogException e) {
        // Say which command reads this file, as every command does.
        result = engine.error(java.util.Optional.empty(), SparkRcaCommand.describe(e));
      } catch (SparkRcaException e) {
        result = engine.error(java.util.Optional.empty(), "Could not read the event log " + location + ": " + CliHints.error(e));
      }
    }
    return report(result, shape, out, err);
  }

  /** Prints the result (stdout) and its warnings and error (stderr); returns the exit code. */
  private int report(StageDiagnostics result, OutputContract shape, PrintWriter out, PrintWriter err) {
    if (format == OutputFormat.json) {
      output.write(out, result.toJson(shape));
    } else if (result.status() != DiagnosticStatus.ERROR) {
      output.write(out, result.toMarkdown());
    }
    for (String w : result.warnings()) {
      err.println("Warning: " + w);
    }
    if (result.status() == DiagnosticStatus.ERROR) {
      err.println("sparkrca: " + result.errorMessage().orElse("the application could not be read"));
    }
    err.flush();
    return result.status().exitCode();
  }

  private static StageTelemetry readTelemetry(Path file) {
    String text;
    try {
      text = java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw io.sparkrca.core.error.IoErrors.translate("telemetry file " + file, e);
    }
    return StageTelemetry.fromDataprocJson(text);
  }

  private static OutputContract parseContract(String c) {
    return switch (c.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "sparkrca" -> OutputContract.SPARKRCA;
      case "agent" -> OutputContract.AGENT;
      default -> throw new InvalidRequestException("--contract must be sparkrca or agent, not '" + c + "'");
    };
  }

  private void printList(PrintWriter out, RuleCatalog catalog) {
    if (format == OutputFormat.json) {
      output.write(out, catalog.toJson());
      return;
    }
    StringBuilder table = new StringBuilder("| Rule | Severity | Detects |\n|---|---|---|\n");
    for (StageRule r : catalog.rules()) {
      table.append("| ").append(r.ruleId()).append(" | ").append(r.severity()).append(" | ")
          .append(r.description().replace("|", "\\|")).append(" |\n");
    }
    output.write(out, table.toString());
    for (String w : catalog.warnings()) {
      err().println("Warning: " + w);
    }
  }
}

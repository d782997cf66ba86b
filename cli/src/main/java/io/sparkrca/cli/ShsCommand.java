package io.sparkrca.cli;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.report.Report;
import io.sparkrca.historyserver.HistoryProfiles;
import io.sparkrca.historyserver.HistoryServerDiscovery;
import io.sparkrca.historyserver.HistoryServerSettings;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca shs ...}: bounded JSON snapshots of an application on a Spark History Server or a
 * running driver's UI, with spark_history_api.py's profiles and JSON keys. Without {@code --shs},
 * the server is discovered ({@code SPARK_HISTORY_URL}, localhost:18080, localhost:4040, the local
 * Spark configuration; its event-log directory is read directly when no server answers).
 *
 * <pre>{@code
 * sparkrca shs applications --status completed --limit 20
 * sparkrca shs failure --shs https://shs:18080 --app application_1700000000000_0042 --attempt 1
 * }</pre>
 */
@Command(
    name = "shs",
    mixinStandardHelpOptions = true,
    header = "Takes bounded REST snapshots of a Spark History Server or a running driver's UI.",
    description = {
      "",
      "Profiles with fixed JSON keys: applications, failure, slow, sql-list, sql. "
          + "Without --shs the server is discovered: SPARK_HISTORY_URL, http://localhost:18080, "
          + "http://localhost:4040, then spark-defaults.conf (SPARK_CONF_DIR or SPARK_HOME/conf), whose "
          + "event-log directory is read directly when no server answers. Credentials: "
          + "SPARK_HISTORY_AUTHORIZATION, SPARK_HISTORY_COOKIE, SPARK_HISTORY_HEADERS_JSON (or --header).",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca shs applications --shs http://shs:18080 --status completed",
      "  sparkrca shs failure --shs http://shs:18080 --app app-1 --output failure.json",
      "  sparkrca shs slow --app app-1 --format markdown"
    },
    subcommands = {
      ShsCommand.Applications.class, ShsCommand.Failure.class, ShsCommand.Slow.class,
      ShsCommand.SqlList.class, ShsCommand.Sql.class, ShsCommand.Compare.class
    })
final class ShsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  /** Options every profile shares. */
  static final class Common {
    @Option(names = "--shs", paramLabel = "URL", description = "The History Server or driver UI (default: discovered).")
    String shs;

    @Option(names = "--format", paramLabel = "FORMAT", description = "json (default) or markdown.", defaultValue = "json")
    OutputFormat format;

    @Mixin OutputFile output;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "20", description = "Per request (default ${DEFAULT-VALUE} s).")
    long timeoutSeconds;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "16", description = "Requests in flight at once (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--max-response-bytes", paramLabel = "N", defaultValue = "26214400", description = "The cap of one answer (default ${DEFAULT-VALUE}).")
    long maxResponseBytes;

    @Option(names = "--allow-plain-http-credentials", description = "Send credentials over plain http to a host other than this machine (anyone on the network path can read them).")
    boolean plainHttp;

    @Mixin HttpOptions http;

    HistoryServerSettings settings() {
      if (timeoutSeconds < 1) {
        throw new InvalidRequestException("--timeout must be at least 1 second, not " + timeoutSeconds);
      }
      return HistoryServerSettings.builder()
          .http(http.settings())
          .fromEnvironment()
          .readTimeout(java.time.Duration.ofSeconds(timeoutSeconds))
          .concurrency(concurrency)
          .maxResponseBytes(maxResponseBytes)
          .allowCredentialsOverPlainHttp(plainHttp)
          .build();
    }

    /** The history to read: the given or discovered server, or the discovered event-log directory. */
    SparkHistory history(PrintWriter err) {
      return HistoryServerDiscovery.history(Optional.ofNullable(shs), settings(), http.sources(),
          notice -> err.println("sparkrca: " + notice));
    }

    int write(CommandSpec spec, Report r) {
      output.write(spec.commandLine().getOut(), format.render(r));
      return 0;
    }

  }

  /** What every profile shares: the options, and the formats it writes. */
  abstract static class Profile extends FormattedCommand {
    @Mixin Common common;

    Profile() {
      super(OutputFormat.markdown, OutputFormat.json);
    }

    /** A profile whose command writes {@code first} and {@code rest}. */
    Profile(OutputFormat first, OutputFormat... rest) {
      super(first, rest);
    }
  }

  /** Options of the profiles about one application. */
  static final class AppOptions {
    @Option(names = {"--app", "--app-id"}, required = true, paramLabel = "ID", description = "The application id.")
    String app;

    @Option(names = "--attempt", paramLabel = "N", description = "The attempt (YARN cluster mode); default: the latest.")
    String attempt;

    @Option(names = "--stage-limit", paramLabel = "N", defaultValue = "8", description = "Stages with per-stage evidence, 1-50 (default ${DEFAULT-VALUE}).")
    int stageLimit;

    @Option(names = "--task-limit", paramLabel = "N", defaultValue = "20", description = "Tasks per stage, 1-200 (default ${DEFAULT-VALUE}).")
    int taskLimit;

    HistoryProfiles.Limits limits() {
      return new HistoryProfiles.Limits(stageLimit, taskLimit);
    }

    SparkApplication open(SparkHistory history) {
      return HistoryProfiles.application(history, app, Optional.ofNullable(attempt));
    }
  }

  @Command(name = "applications", mixinStandardHelpOptions = true, header = "The applications the server lists.",
      footerHeading = "%nExamples:%n", footer = {"  sparkrca shs applications --shs http://shs:18080 --limit 20"})
  static final class Applications extends Profile {
    @Option(names = "--status", paramLabel = "completed|running", description = "Only completed or running applications.")
    String status;
    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N, 1-1000 (default ${DEFAULT-VALUE}).")
    int limit;
    @Override
    public Integer call() {
      return common.write(spec, HistoryProfiles.applications(common.history(err()), Optional.ofNullable(status), limit));
    }
  }

  @Command(name = "failure", mixinStandardHelpOptions = true, header = "Why it failed: failed jobs, the earliest failed stages with their task summary and failed tasks, executors, environment, SQL executions.",
      footerHeading = "%nExamples:%n", footer = {"  sparkrca shs failure --shs http://shs:18080 --app app-1"})
  static final class Failure extends Profile {
    @Mixin AppOptions app;
    @Override
    public Integer call() {
      return common.write(spec, HistoryProfiles.failure(app.open(common.history(err())), app.limits()));
    }
  }

  @Command(name = "slow", mixinStandardHelpOptions = true, header = "Why it was slow: jobs, the longest stages with their slowest tasks, executors, environment, SQL executions.",
      footerHeading = "%nExamples:%n", footer = {"  sparkrca shs slow --shs http://shs:18080 --app app-1 --stage-limit 5"})
  static final class Slow extends Profile {
    @Mixin AppOptions app;
    @Override
    public Integer call() {
      return common.write(spec, HistoryProfiles.slow(app.open(common.history(err())), app.limits()));
    }
  }

  @Command(name = "sql-list", mixinStandardHelpOptions = true, header = "The SQL executions, without their plans.",
      footerHeading = "%nExamples:%n", footer = {"  sparkrca shs sql-list --shs http://shs:18080 --app app-1"})
  static final class SqlList extends Profile {
    @Mixin AppOptions app;
    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most N, 1-1000 (default ${DEFAULT-VALUE}).")
    int limit;
    @Override
    public Integer call() {
      return common.write(spec, HistoryProfiles.sqlList(app.open(common.history(err())), limit));
    }
  }

  @Command(name = "sql", mixinStandardHelpOptions = true, header = "One SQL execution with its plan and operator metrics, the jobs and the longest stages.",
      footerHeading = "%nExamples:%n", footer = {"  sparkrca shs sql --shs http://shs:18080 --app app-1 --execution-id 3"})
  static final class Sql extends Profile {
    @Mixin AppOptions app;
    @Option(names = "--execution-id", required = true, paramLabel = "N", description = "The SQL execution id.")
    long executionId;
    @Override
    public Integer call() {
      return common.write(spec, HistoryProfiles.sql(app.open(common.history(err())), executionId, app.limits()));
    }
  }

  @Command(name = "compare", mixinStandardHelpOptions = true,
      header = "Compares an application with a healthy baseline application of the same server, as 'sparkrca compare' does.",
      description = {"", "A run slower than its baseline exits 1, one that is not exits 0.", ""},
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca shs compare --shs http://shs:18080 --app app-2 --baseline app-1 --format markdown"})
  static final class Compare extends Profile {
    @Mixin AppOptions app;

    @Option(names = "--baseline", required = true, paramLabel = "ID", description = "The healthy earlier run of the same job.")
    String baseline;

    @Option(names = "--baseline-attempt", paramLabel = "N", description = "The baseline's attempt (YARN cluster mode); default: the latest.")
    String baselineAttempt;

    Compare() {
      super(OutputFormat.markdown, OutputFormat.json, OutputFormat.text, OutputFormat.html);
    }

    @Override
    public Integer call() {
      SparkHistory history = common.history(err());
      SparkApplication candidate = app.open(history);
      SparkApplication base = HistoryProfiles.application(history, baseline, Optional.ofNullable(baselineAttempt));
      io.sparkrca.analysis.compare.Comparison c = io.sparkrca.analysis.compare.Comparison.builder(candidate, base)
          .sources(app.app, baseline).compare();
      common.output.write(out(), common.format.render(c));
      return c.exitCode();
    }
  }
}

package io.sparkrca.cli;

import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.CountResult;
import io.sparkrca.core.logs.CountSetResult;
import io.sparkrca.core.logs.LogInfo;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogQuery;
import io.sparkrca.core.logs.LogSet;
import io.sparkrca.core.logs.LogSetResult;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.LogText;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.core.logs.SearchSetResult;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.summary.SummaryMarkdown;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca logs <action> ... <uri>}: the command line of {@link LogStream}. Every action
 * takes {@code --format text|json} and {@code --output}; text follows spark_gcs_log_reader.py's
 * format, notes go to stderr. {@code count} and {@code search} take several logs, directories and
 * globs, read concurrently, each match prefixed by its log (like {@code grep -r}).
 *
 * <pre>{@code
 * sparkrca logs info gs://bucket/app-1
 * sparkrca logs tail -n 200 /var/log/spark/driver.log
 * sparkrca logs search --regex 'OutOfMemoryError|Container killed' -i -C 3 executor-logs/
 * sparkrca logs range 1200 1300 driver.log.gz
 * sparkrca logs events --format json https://logs.example.com/spark-events/app-1.zstd
 * }</pre>
 */
@Command(
    name = "logs",
    mixinStandardHelpOptions = true,
    header = "Reads, tails, searches and slices logs of any size, local or remote, in any codec.",
    description = {
      "",
      "Local paths, http(s) URLs (read with ranged requests), and any scheme a provider module adds "
          + "(gs:// with sparkrca-gcp). gzip, zstd, lz4, snappy and lzf are decoded, detected by "
          + "extension or magic bytes; a cut-off compressed stream is read up to the cut and says so "
          + "(--strict makes it an error). A Dataproc driveroutput prefix is read as one log made of "
          + "its numbered parts.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca logs info driver.log.gz",
      "  sparkrca logs tail -n 200 driver.log",
      "  sparkrca logs search --regex 'OutOfMemoryError|exit code 137' -C 3 executor-logs/",
      "  sparkrca logs count --literal ERROR 'work/app-1/*/stderr'",
      "  sparkrca logs range 1200 1300 driver.log.gz"
    })
final class LogsCommand implements Runnable {
  /**
   * The actions, in the order help lists them. They are registered by {@link Subcommands}, which
   * builds only the one a run names (a model of all seven took a tenth of a second of a count).
   */
  static final List<Map.Entry<String, Supplier<Object>>> ACTIONS = List.of(
      Map.entry("info", Info::new),
      Map.entry("head", Head::new),
      Map.entry("tail", Tail::new),
      Map.entry("range", Range::new),
      Map.entry("count", Count::new),
      Map.entry("search", Search::new),
      Map.entry("events", Events::new));

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "an action is required: info, head, tail, range, count, search or events");
  }

  /** Options every action shares: output format and file, line cap, strictness, HTTP credentials and trust. */
  static final class Common {
    @Spec(Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
        description = "text (default) or json.")
    OutputFormat format;

    @Mixin OutputFile output;

    @Option(names = "--max-line-bytes", paramLabel = "N", defaultValue = "1048576",
        description = "Lines longer than this are cut with a marker (default: ${DEFAULT-VALUE}).")
    int maxLineBytes;

    @Option(names = "--strict",
        description = "Fail on damage instead of reading past it: a cut-off compressed stream, a line longer than --max-line-bytes, a last line without a line end.")
    boolean strict;

    @Option(names = "--no-redact",
        description = "Print lines as they are written, secrets included (for reading your own logs); by default every "
            + "secret known by its value or its name (tokens, keys, passwords, private-key blocks) is redacted.")
    boolean noRedact;

    @ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
    HttpOptions http = new HttpOptions();

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600",
        description = "The longest one http(s) read may take, its answer included (default: ${DEFAULT-VALUE}); "
            + "a body that never ends fails as a timeout instead of holding the command.")
    long timeoutSeconds = 600;

    LogStream.Builder builder() {
      return LogStream.builder().sources(sources()).maxLineBytes(maxLineBytes).strict(strict).redact(!noRedact);
    }

    ByteSources sources() {
      if (timeoutSeconds < 1) {
        throw new io.sparkrca.core.error.InvalidRequestException("--timeout must be at least 1 second, not " + timeoutSeconds);
      }
      return http.exchangeTimeout(java.time.Duration.ofSeconds(timeoutSeconds)).sources(spec);
    }

    LogStream open(String uri) {
      return builder().build(uri);
    }

    /** The logs of a count or search, read concurrently. */
    LogSet logSet() {
      return LogSet.builder().sources(sources()).streams(LogStream.builder().redact(!noRedact)).build();
    }

    /** A count or search of {@code uris} with this command's read settings. */
    LogQuery.Builder query(List<String> uris) {
      return LogQuery.builder().names(uris).strict(strict).maxLineBytes(maxLineBytes);
    }

    /**
     * Says what could not be read, once: one log's error as it is, several as one line with the
     * reasons grouped (each with --debug; JSON lists them all); returns 2 when a log was skipped.
     */
    int reportErrors(LogSetResult<?> r, int total) {
      if (r.errors().size() == 1) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("sparkrca: " + CliHints.error(r.errors().get(0).exception()));
        err.flush();
      } else {
        SkippedInputs.report(spec, "", total,
            r.errors().stream().map(e -> new SkippedInputs.Skip(e.source(), CliHints.error(e.exception()),
                java.util.Optional.of(e.exception()))).toList());
      }
      return r.errors().isEmpty() ? 0 : SparkRcaCommand.EXIT_ERROR;
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    /** Text goes to stdout (or --output); notes to stderr as "Note: ...". JSON carries its notes inside. */
    void print(String text, Supplier<String> json, List<String> notes) {
      if (format == OutputFormat.json) {
        output.write(out(), json.get());
      } else {
        output.write(out(), text);
        if (!CliContract.quiet(spec)) {
          PrintWriter err = spec.commandLine().getErr();
          for (String n : notes) {
            err.println("Note: " + LogText.safe(n));
          }
          err.flush();
        }
      }
    }
  }

  /** An action: text or json. */
  abstract static class Action extends FormattedCommand {
    @Mixin Common common;

    Action() {
      super(OutputFormat.text, OutputFormat.json);
    }
  }

  /** {@code N} as {@code -n N} or as the first argument, the way head and tail take it. */
  static final class LineCount {
    @Option(names = {"-n", "--lines"}, paramLabel = "N", description = "Number of lines (also accepted as the first argument).")
    Integer lines;

    @Parameters(paramLabel = "[N] URI", arity = "1..2", description = "The number of lines (unless -n is given), then the path or URI of the log.")
    List<String> args = new ArrayList<>();

    int n(CommandLine cli) {
      if (lines != null) {
        if (args.size() != 1) {
          throw new CommandLine.ParameterException(cli, "with -n, give one log: " + String.join(" ", args));
        }
        return lines;
      }
      if (args.size() != 2) {
        throw new CommandLine.ParameterException(cli, "give the number of lines (N or -n N) and the log");
      }
      try {
        return Integer.parseInt(args.get(0));
      } catch (NumberFormatException e) {
        throw new CommandLine.ParameterException(cli, "'" + args.get(0) + "' is not a number of lines: give N or -n N before the log");
      }
    }

    String uri() {
      return args.get(args.size() - 1);
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      header = "Tells a log's size, compression and whether it is large, and what to do next.",
      description = "Compression is detected by extension and magic bytes; a log over 20 MB is large.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs info driver.log.gz", "  sparkrca logs info --format json https://host/logs/driver.log"})
  static final class Info extends Action {
    @Parameters(index = "0", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogInfo info = common.open(uri).info();
      common.print(LogText.info(info), () -> LogJson.info(info), info.notes());
      return 0;
    }
  }

  @Command(name = "head", mixinStandardHelpOptions = true,
      header = "Prints the first N lines of a log (at most 5000).",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs head -n 50 driver.log", "  sparkrca logs head 50 driver.log.zstd"})
  static final class Head extends Action {
    @Mixin LineCount count;

    @Override
    public Integer call() {
      LogLines lines = common.open(count.uri()).head(count.n(common.spec.commandLine()));
      common.print(LogText.lines(lines), () -> LogJson.lines("head", lines), lines.notes());
      return 0;
    }
  }

  @Command(name = "tail", mixinStandardHelpOptions = true,
      header = "Prints the last N lines of a log (at most 5000).",
      description = "An uncompressed log is read from a window at its end (one ranged read, widened if needed); "
          + "a compressed one is streamed once.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs tail -n 200 driver.log", "  sparkrca logs tail 200 https://host/logs/driver.log"})
  static final class Tail extends Action {
    @Mixin LineCount count;

    @Option(names = "--window-bytes", paramLabel = "N", defaultValue = "262144",
        description = "First window read at the end of an uncompressed log (default: ${DEFAULT-VALUE}).")
    int windowBytes;

    @Override
    public Integer call() {
      LogLines lines = common.builder().tailWindowBytes(windowBytes).build(count.uri()).tail(count.n(common.spec.commandLine()));
      common.print(LogText.lines(lines), () -> LogJson.lines("tail", lines), lines.notes());
      return 0;
    }
  }

  @Command(name = "range", mixinStandardHelpOptions = true,
      header = "Prints lines START to END of a log, numbered (1-based, inclusive, at most 5000).",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs range 1200 1300 driver.log.gz"})
  static final class Range extends Action {
    @Parameters(index = "0", paramLabel = "START", description = "First line (1-based).")
    long start;

    @Parameters(index = "1", paramLabel = "END", description = "Last line (inclusive).")
    long end;

    @Parameters(index = "2", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogLines lines = common.open(uri).range(start, end);
      common.print(LogText.numberedLines(lines), () -> LogJson.lines("range", lines), lines.notes());
      return 0;
    }
  }

  /** --regex RE | --literal S. */
  static final class Pattern {
    @Option(names = "--regex", paramLabel = "RE",
        description = "A regular expression (RE2 syntax: linear time, no backreferences).")
    String regex;

    @Option(names = "--literal", paramLabel = "S", description = "A literal text.")
    String literal;

    SearchQuery query(boolean ignoreCase) {
      SearchQuery q = regex != null ? SearchQuery.regex(regex) : SearchQuery.literal(literal);
      return q.withIgnoreCase(ignoreCase);
    }
  }

  @Command(name = "count", mixinStandardHelpOptions = true,
      header = "Counts the lines of logs and, with --regex or --literal, the matching lines.",
      description = "Several logs, directories (six levels deep) and globs may be given; they are read concurrently.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs count driver.log", "  sparkrca logs count --regex 'ERROR|WARN' executor-logs/ driver.log"})
  static final class Count extends Action {
    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Pattern pattern;

    @Option(names = {"-i", "--ignore-case"}, description = "Ignore case.")
    boolean ignoreCase;

    @Parameters(paramLabel = "URI", arity = "1..*", description = "Logs, directories or globs.")
    List<String> uris;

    @Override
    public Integer call() {
      LogQuery.Builder q = common.query(uris);
      if (pattern != null) {
        q.search(pattern.query(ignoreCase));
      }
      CountSetResult r = common.logSet().count(q.build());
      // One file named: its error is the command's, its output the single-log format.
      Optional<CountResult> one = r.single();
      if (one.isPresent()) {
        CountResult c = one.get();
        common.print(LogText.count(c), () -> LogJson.count(c), c.notes());
        return 0;
      }
      common.print(r.toText(), () -> r.toJson(CliHints::words), r.notes());
      return common.reportErrors(r, r.logs().size() + r.errors().size());
    }
  }

  @Command(name = "events", mixinStandardHelpOptions = true,
      header = "Writes the executive summary of a Spark event log (as 'sparkrca summarize' does).",
      description = "Reads through this command's http(s) options: jobs, stages, tasks, failures, lost executors, "
          + "spill, GC. Text is Markdown.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs events --format json https://logs.example.com/spark-events/app-1.zstd"})
  static final class Events extends Action {
    @Parameters(index = "0", paramLabel = "URI", description = "An event log file or rolling event-log directory.")
    String uri;

    @Override
    public Integer call() {
      EventLogReader reader = EventLogs.reader().sources(common.sources()).strict(common.strict).build();
      ApplicationSummary summary = ApplicationSummary.of(reader.replay(uri), uri);
      common.print(SummaryMarkdown.render(summary), () -> summary.toJson() + "\n", List.of());
      return 0;
    }
  }

  @Command(name = "search", mixinStandardHelpOptions = true,
      header = "Prints the lines of logs that match a regular expression or a literal, with context.",
      description = "Stops at --max-matches per log (keeping the last match's context) and closes the stream. "
          + "Several logs, directories (six levels deep) and globs may be given; they are read concurrently "
          + "and each line is prefixed by its log, like grep -r (':' for a match, '-' for context).",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca logs search --regex 'OutOfMemoryError|Container killed' -i -C 3 driver.log",
          "  sparkrca logs search --literal 'Lost executor' executor-logs/ 'work/*/stderr'"})
  static final class Search extends Action {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Pattern pattern;

    @Option(names = {"-i", "--ignore-case"}, description = "Ignore case.")
    boolean ignoreCase;

    @Option(names = {"-C", "--context"}, paramLabel = "N", defaultValue = "5",
        description = "Lines of context before and after each match (default: ${DEFAULT-VALUE}).")
    int context;

    @Option(names = "-B", paramLabel = "N", description = "Lines of context before each match (overrides --context).")
    Integer before;

    @Option(names = "-A", paramLabel = "N", description = "Lines of context after each match (overrides --context).")
    Integer after;

    @Option(names = "--max-matches", paramLabel = "N", defaultValue = "20",
        description = "Stop after this many matches in each log (default: ${DEFAULT-VALUE}, at most 10000).")
    int maxMatches;

    @Parameters(paramLabel = "URI", arity = "1..*", description = "Logs, directories or globs.")
    List<String> uris;

    @Override
    public Integer call() {
      SearchQuery q =
          pattern.query(ignoreCase)
              .withContext(before != null ? before : context, after != null ? after : context)
              .withMaxMatches(maxMatches);
      SearchSetResult r = common.logSet().search(common.query(uris).search(q).build());
      // One file named: its error is the command's, its output the single-log format.
      Optional<SearchResult> one = r.single();
      if (one.isPresent()) {
        SearchResult s = one.get();
        // The zero-match hint names this command's options (--ignore-case, --regex).
        common.print(LogText.search(s, CliHints::words), () -> LogJson.search(s, CliHints::words), s.notes());
        return 0;
      }
      common.print(r.toText(CliHints::words), () -> r.toJson(CliHints::words), r.notes());
      return common.reportErrors(r, r.logs().size() + r.errors().size());
    }
  }
}

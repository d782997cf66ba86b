package io.sparkrca.cli;

import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.summary.SummaryMarkdown;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.CountResult;
import io.sparkrca.core.logs.LogInfo;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.LogText;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca logs <action> ... <uri>}: the command line of {@link LogStream}. Every action
 * takes {@code --format text|json}; text follows the seed log reader's format, notes go to stderr.
 *
 * <pre>{@code
 * sparkrca logs info gs://bucket/app-1
 * sparkrca logs tail 200 /var/log/spark/driver.log
 * sparkrca logs search --regex 'OutOfMemoryError|Container killed' -i --context 3 https://host/driver.log
 * sparkrca logs range 1200 1300 driver.log.gz
 * sparkrca logs events --format json https://logs.example.com/spark-events/app-1.zstd
 * }</pre>
 */
@Command(
    name = "logs",
    mixinStandardHelpOptions = true,
    description = {
      "Read, tail, search and slice logs of any size: local paths, http(s) URLs (ranged reads), and",
      "any scheme a provider module adds (gs:// with sparkrca-gcp). gzip, zstd, lz4, snappy and lzf",
      "are decoded, detected by extension or magic bytes. A Dataproc driveroutput prefix is read as",
      "one log made of its numbered parts."
    },
    subcommands = {
      LogsCommand.Info.class,
      LogsCommand.Head.class,
      LogsCommand.Tail.class,
      LogsCommand.Range.class,
      LogsCommand.Count.class,
      LogsCommand.Search.class,
      LogsCommand.Events.class
    })
final class LogsCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "an action is required: info, head, tail, range, count, search or events");
  }

  /** Output format. */
  enum Format {
    text,
    json
  }

  /** Options every action shares: output format, HTTP credentials and trust, line cap. */
  static final class Common {
    @Spec(Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--format",
        defaultValue = "text",
        description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format;

    @Mixin HttpOptions http;

    @Option(
        names = "--max-line-bytes",
        paramLabel = "N",
        defaultValue = "1048576",
        description = "Lines longer than this are cut with a marker (default: ${DEFAULT-VALUE}).")
    int maxLineBytes;

    LogStream.Builder builder() {
      return LogStream.builder().sources(sources()).maxLineBytes(maxLineBytes);
    }

    ByteSources sources() {
      return http.sources();
    }

    LogStream open(String uri) {
      return builder().build(uri);
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    /** Text goes to stdout; notes to stderr as "Note: ...". JSON carries its notes inside. */
    void print(String text, String json, List<String> notes) {
      if (format == Format.json) {
        out().print(json);
      } else {
        out().print(text);
        PrintWriter err = spec.commandLine().getErr();
        for (String n : notes) {
          err.println("Note: " + LogText.safe(n));
        }
      }
      out().flush();
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Size, compression (by extension and magic bytes), whether it is large (>20 MB), and what to do next.")
  static final class Info implements Callable<Integer> {
    @Mixin Common common;

    @Parameters(index = "0", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogInfo info = common.open(uri).info();
      common.print(LogText.info(info), LogJson.info(info), info.notes());
      return 0;
    }
  }

  @Command(name = "head", mixinStandardHelpOptions = true, description = "The first N lines (at most 5000).")
  static final class Head implements Callable<Integer> {
    @Mixin Common common;

    @Parameters(index = "0", paramLabel = "N", description = "Number of lines.")
    int n;

    @Parameters(index = "1", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogLines lines = common.open(uri).head(n);
      common.print(LogText.lines(lines), LogJson.lines("head", lines), lines.notes());
      return 0;
    }
  }

  @Command(name = "tail", mixinStandardHelpOptions = true,
      description = {"The last N lines (at most 5000). An uncompressed log is read from a window at its end",
          "(one ranged read, widened if needed); a compressed one is streamed once."})
  static final class Tail implements Callable<Integer> {
    @Mixin Common common;

    @Option(names = "--window-bytes", paramLabel = "N", defaultValue = "262144",
        description = "First window read at the end of an uncompressed log (default: ${DEFAULT-VALUE}).")
    int windowBytes;

    @Parameters(index = "0", paramLabel = "N", description = "Number of lines.")
    int n;

    @Parameters(index = "1", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogLines lines = common.builder().tailWindowBytes(windowBytes).build(uri).tail(n);
      common.print(LogText.lines(lines), LogJson.lines("tail", lines), lines.notes());
      return 0;
    }
  }

  @Command(name = "range", mixinStandardHelpOptions = true,
      description = "Lines START to END, 1-based and inclusive (at most 5000), numbered.")
  static final class Range implements Callable<Integer> {
    @Mixin Common common;

    @Parameters(index = "0", paramLabel = "START", description = "First line (1-based).")
    long start;

    @Parameters(index = "1", paramLabel = "END", description = "Last line (inclusive).")
    long end;

    @Parameters(index = "2", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogLines lines = common.open(uri).range(start, end);
      common.print(LogText.numberedLines(lines), LogJson.lines("range", lines), lines.notes());
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
      description = "The number of lines and, with --regex or --literal, of matching lines.")
  static final class Count implements Callable<Integer> {
    @Mixin Common common;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Pattern pattern;

    @Option(names = {"-i", "--ignore-case"}, description = "Ignore case.")
    boolean ignoreCase;

    @Parameters(index = "0", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      LogStream log = common.open(uri);
      CountResult c = pattern == null ? log.count() : log.count(pattern.query(ignoreCase));
      common.print(LogText.count(c), LogJson.count(c), c.notes());
      return 0;
    }
  }

  @Command(name = "events", mixinStandardHelpOptions = true,
      description = {"The executive summary of a Spark event log, local or remote (the same as 'sparkrca summarize',",
          "reading through the http(s) options of this command): jobs, stages, tasks, failures, lost",
          "executors, spill, GC. Text is Markdown."})
  static final class Events implements Callable<Integer> {
    @Mixin Common common;

    @Option(names = "--strict", description = "Fail on the first line that is not a valid event.")
    boolean strict;

    @Parameters(index = "0", paramLabel = "URI", description = "An event log file or rolling event-log directory.")
    String uri;

    @Override
    public Integer call() {
      EventLogReader reader = EventLogs.reader().sources(common.sources()).strict(strict).build();
      ApplicationSummary summary = ApplicationSummary.of(reader.replay(uri), uri);
      common.print(SummaryMarkdown.render(summary), SparkJson.write(summary) + "\n", List.of());
      return 0;
    }
  }

  @Command(name = "search", mixinStandardHelpOptions = true,
      description = {"Lines matching a regular expression or a literal, with context and line numbers.",
          "Stops at --max-matches (keeping the last match's context) and closes the stream."})
  static final class Search implements Callable<Integer> {
    @Mixin Common common;

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
        description = "Stop after this many matches (default: ${DEFAULT-VALUE}, at most 10000).")
    int maxMatches;

    @Parameters(index = "0", paramLabel = "URI", description = "Path or URI of the log.")
    String uri;

    @Override
    public Integer call() {
      SearchQuery q =
          pattern.query(ignoreCase)
              .withContext(before != null ? before : context, after != null ? after : context)
              .withMaxMatches(maxMatches);
      SearchResult r = common.open(uri).search(q);
      // The zero-match hint names this command's options (--ignore-case, --regex).
      common.print(CliHints.search(LogText.search(r)), CliHints.search(LogJson.search(r)), r.notes());
      return 0;
    }
  }
}

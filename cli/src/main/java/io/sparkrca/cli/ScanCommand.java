package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.fleet.FleetAnalysis;
import io.sparkrca.fleet.FleetParquetWriter;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.fleet.FleetScan;
import io.sparkrca.fleet.FleetSummary;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca scan}: every application under a directory or object-store prefix, analysed
 * side by side, one row each (JSON Lines, CSV, Parquet or Markdown) and a fleet summary. Exit code 0 when
 * every application is healthy, 1 when one has a root cause (or could not be analysed), 2 when the
 * scan itself cannot run.
 *
 * <pre>{@code
 * sparkrca scan /tmp/spark-events --index fleet-index.jsonl --output fleet.jsonl --summary fleet.md
 * }</pre>
 */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    header = "Names the root cause of every application under a directory or object-store prefix, one row each.",
    description = {
      "",
      "Any codec, rolling logs, logs in subdirectories; running applications are marked. A row holds "
          + "the id, name, user, start, duration, outcome, root cause (as 'rca' names it), confidence, "
          + "culprit stages, wasted time and core-hours, the top recommendation and the log's path. A "
          + "log that cannot be analysed is a row with its error. With --index, logs analysed before and "
          + "unchanged (same path, size and modification time) are not analysed again, and a stopped "
          + "scan resumes where it stopped. Progress goes to standard error when it is a terminal. A "
          + "root cause in any application (or a log that could not be analysed) exits 1; no logs exits 2.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca scan /tmp/spark-events > rows.jsonl",
      "  sparkrca scan gs://bucket/spark-events --format csv --summary summary.md --threads 2",
      "  sparkrca scan /tmp/spark-events --index scan-index.json --skip-in-progress",
      "  sparkrca scan /tmp/spark-events --output fleet.parquet    # Parquet, from the extension"
    })
final class ScanCommand implements Callable<Integer> {
  /** Row formats. */
  enum Format {
    jsonl,
    csv,
    parquet,
    markdown
  }

  @Parameters(paramLabel = "DIR_OR_PREFIX",
      description = "Where the event logs are: a directory (spark.eventLog.dir), an object-store prefix, or one log.")
  String root;

  @Option(names = "--format",
      description = "jsonl (one JSON object per line), csv, parquet (the sparkrca-spark job's table schema; "
          + "needs --output), or markdown (the summary, then a table). Default: from --output's extension "
          + "(.csv, .parquet, .md), else jsonl.")
  Format format;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the rows to FILE instead of standard output.")
  Path output;

  @Option(names = "--summary", paramLabel = "FILE",
      description = "Also write the fleet summary to FILE: JSON when FILE ends in .json, else Markdown.")
  Path summaryFile;

  @Option(names = "--index", paramLabel = "FILE",
      description = "The scan index (JSON Lines of rows): unchanged logs are not analysed again, a stopped scan resumes.")
  Path index;

  @Option(names = "--reanalyze", description = "Analyse every log again, whatever the index says (after upgrading sparkrca).")
  boolean reanalyze;

  @Option(names = "--threads", paramLabel = "N", description = "Logs analysed at once, at most, each on one thread (default: the processors).")
  Integer threads;

  @Option(names = "--skip-in-progress", description = "Leave out applications still running (default: analysed and marked).")
  boolean skipInProgress;

  @Option(names = "--max-depth", paramLabel = "N", defaultValue = "8",
      description = "Directory levels searched below the root (default ${DEFAULT-VALUE}).")
  int maxDepth;

  @Option(names = "--timeout-per-log", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long reading one log may take before it is an error row (default ${DEFAULT-VALUE} s).")
  long timeoutSeconds;

  @Option(names = "--progress", negatable = true,
      description = "Show progress on standard error (default: only when it is a terminal).")
  Boolean progress;

  @Mixin HttpOptions http;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (format == null) {
      format = formatOf(output);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return scan(out, err);
    } catch (SparkRcaException e) {
      if (format == Format.jsonl && output == null) {
        ReportOutput.jsonError(out, e);
      }
      throw e;
    }
  }

  private int scan(PrintWriter out, PrintWriter err) {
    if (timeoutSeconds < 1) {
      throw new InvalidRequestException("--timeout-per-log must be at least 1 second, not " + timeoutSeconds);
    }
    if (threads != null && threads < 1) {
      throw new InvalidRequestException("--threads must be at least 1, not " + threads);
    }
    if (format == Format.parquet && output == null) {
      throw new InvalidRequestException("--format parquet writes a binary file, not text for standard output: "
          + "add --output FILE (for example --output fleet.parquet)");
    }
    if (maxDepth < 0) {
      throw new InvalidRequestException("--max-depth must be 0 or more, not " + maxDepth);
    }
    FleetAnalysis analysis = FleetAnalysis.builder().sources(http.sources())
        .timeout(Duration.ofSeconds(timeoutSeconds)).build();
    boolean show = progress != null ? progress : ProgressLine.stderrIsTerminal();
    FleetScan.Result result;
    try (RowOutput rows = RowOutput.open(format, Optional.ofNullable(output), out);
        ProgressLine line = ProgressLine.create(err, show, "logs")) {
      FleetScan.Builder b = FleetScan.builder().analysis(analysis).maxDepth(maxDepth).skipInProgress(skipInProgress)
          .reanalyze(reanalyze).listener(new FleetScan.Listener() {
            @Override
            public void started(int logs, long bytes, int reused) {
              line.start(logs, bytes);
            }

            @Override
            public void analysed(FleetRow row, long bytes) {
              line.advance(1, bytes);
            }
          });
      if (threads != null) {
        b.threads(threads);
      }
      if (index != null) {
        b.index(index);
      }
      result = b.build().run(root, rows::write);
      rows.finish(result.summary());
    }
    FleetSummary s = result.summary();
    if (summaryFile != null) {
      boolean json = summaryFile.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
      ReportOutput.write(out, Optional.of(summaryFile), json ? s.toJson() : s.toMarkdown());
    }
    err.println("sparkrca: " + oneLine(result));
    boolean allHealthy = s.totals().errors() == 0
        && s.totals().byVerdict().getOrDefault("HEALTHY", 0L) == s.totals().applications();
    return allHealthy ? 0 : SparkRcaCommand.EXIT_FAIL;
  }

  /** The format an output file's name asks for: {@code .csv}, {@code .parquet}, {@code .md}; else JSON Lines. */
  static Format formatOf(Path output) {
    String name = output == null ? "" : output.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".csv")) {
      return Format.csv;
    }
    if (name.endsWith(".parquet")) {
      return Format.parquet;
    }
    return name.endsWith(".md") || name.endsWith(".markdown") ? Format.markdown : Format.jsonl;
  }

  /** The scan in one line: counts, the commonest root causes, waste and regressions. */
  static String oneLine(FleetScan.Result r) {
    FleetSummary.Totals t = r.summary().totals();
    StringBuilder sb = new StringBuilder();
    sb.append(t.applications()).append(" application").append(t.applications() == 1 ? "" : "s")
        .append(" (").append(r.analysed()).append(" analysed, ").append(r.reused()).append(" unchanged, ")
        .append(t.errors()).append(" could not be analysed");
    if (t.inProgress() > 0) {
      sb.append(", ").append(t.inProgress()).append(" running");
    }
    sb.append(")");
    int shown = 0;
    for (Map.Entry<String, Long> e : t.kindsByCount()) {
      sb.append(shown == 0 ? ": " : ", ").append(e.getValue()).append(' ').append(e.getKey());
      if (++shown == 5) {
        break;
      }
    }
    if (t.kindsByCount().size() > shown) {
      sb.append(", ...");
    }
    sb.append("; ").append(FleetSummary.hours(t.wastedMicroHours()).toPlainString()).append(" of ")
        .append(FleetSummary.hours(t.coreMicroHours()).toPlainString()).append(" core-hours wasted; ")
        .append(r.summary().regressionCount()).append(" regression").append(r.summary().regressionCount() == 1 ? "" : "s");
    return Redactor.standard().redactText(sb.toString());
  }

  /**
   * Where rows go as they come: standard output, or a temporary file beside {@code --output} moved
   * into place when the scan is complete (a failed scan leaves no half file). Markdown puts the
   * summary first, so its rows wait in a temporary file until the end. Parquet goes to a file only.
   */
  private static final class RowOutput implements AutoCloseable {
    private final Format format;
    private final Optional<Path> target;
    private final PrintWriter stdout;
    private final Path tmp;
    private final Writer writer;
    private final FleetParquetWriter parquet;
    private final Path table;
    private final BufferedWriter tableWriter;
    private boolean finished;

    private RowOutput(Format format, Optional<Path> target, PrintWriter stdout) throws IOException {
      this.format = format;
      this.target = target;
      this.stdout = stdout;
      if (target.isPresent()) {
        Path abs = target.get().toAbsolutePath();
        Files.createDirectories(abs.getParent());
        this.tmp = Files.createTempFile(abs.getParent(), ".sparkrca-", ".tmp");
        if (format == Format.parquet) {
          this.writer = null;
          this.parquet = FleetParquetWriter.builder().open(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16));
        } else {
          this.writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
          this.parquet = null;
        }
      } else {
        this.tmp = null;
        this.writer = stdout;
        this.parquet = null;
      }
      if (format == Format.markdown) {
        this.table = Files.createTempFile("sparkrca-scan-", ".md");
        this.tableWriter = Files.newBufferedWriter(table, StandardCharsets.UTF_8);
        tableWriter.write(FleetRow.markdownHeader());
      } else {
        this.table = null;
        this.tableWriter = null;
        if (format == Format.csv) {
          writer.write(FleetRow.csvHeader());
          writer.write('\n');
        }
      }
    }

    static RowOutput open(Format format, Optional<Path> target, PrintWriter stdout) {
      try {
        return new RowOutput(format, target, stdout);
      } catch (IOException e) {
        throw new SparkRcaException("could not write the rows to " + target.map(Path::toString).orElse("standard output")
            + ": " + e.getMessage() + "; check that the directory exists and is writable", e);
      }
    }

    void write(FleetRow row) {
      try {
        switch (format) {
          case jsonl -> writer.write(row.toJson() + "\n");
          case csv -> writer.write(row.toCsv() + "\n");
          case markdown -> tableWriter.write(row.toMarkdownRow());
          case parquet -> parquet.write(row);
        }
        if (target.isEmpty()) {
          writer.flush();
        }
      } catch (IOException e) {
        throw failure(e);
      } catch (SparkRcaException e) { // the Parquet writer's, which does not know the file's name
        throw failure(e);
      }
    }

    void finish(FleetSummary summary) {
      try {
        if (format == Format.markdown) {
          tableWriter.close();
          writer.write(summary.toMarkdown());
          writer.write("## Applications\n\n");
          try (BufferedReader in = Files.newBufferedReader(table, StandardCharsets.UTF_8)) {
            in.transferTo(writer);
          }
        }
        if (parquet != null) {
          parquet.close();
        } else {
          writer.flush();
        }
        if (tmp != null) {
          if (writer != null) {
            writer.close();
          }
          Files.move(tmp, target.get().toAbsolutePath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finished = true;
      } catch (IOException e) {
        throw failure(e);
      }
    }

    private SparkRcaException failure(Exception e) {
      return new SparkRcaException("could not write the rows to " + target.map(Path::toString).orElse("standard output")
          + ": " + e.getMessage() + "; check that the disk is not full", e);
    }

    @Override
    public void close() {
      try {
        if (tableWriter != null) {
          tableWriter.close();
          Files.deleteIfExists(table);
        }
        if (tmp != null) {
          if (!finished) {
            if (parquet != null) {
              parquet.abort(); // the file is deleted: no last row group, no footer
            } else {
              writer.close();
            }
          }
          Files.deleteIfExists(tmp);
        }
        if (!finished) {
          stdout.flush();
        }
      } catch (IOException e) {
        throw failure(e);
      }
    }
  }
}

package io.sparkrca.cli;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.replay.NotAnEventLogException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code sparkrca} command. Exit codes, the same for every command ({@link CliContract}): 0
 * nothing wrong found, 1 a problem found (a root cause, a rule that matched, a failed application),
 * 2 an error (bad usage, unreadable input). Errors print one line to stderr ({@code --debug} adds
 * the stack trace) and, with {@code --format json}, one JSON document to stdout.
 *
 * <pre>{@code
 * int exit = SparkRcaCommand.execute(new String[] {"summarize", "/tmp/app-1"}, out, err);
 * }</pre>
 */
@Command(
    name = "sparkrca",
    mixinStandardHelpOptions = true,
    versionProvider = SparkRcaCommand.Version.class,
    header = "Finds the root cause of failed, slow or expensive Apache Spark applications.",
    description = {
      "",
      "Reads the evidence a Spark application leaves behind (event logs in every codec and layout, "
          + "driver and executor logs, the job's code, a healthy baseline run, and the sources that "
          + "provider modules add) and names what went wrong, with the evidence for it and the fix."
    },
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n",
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca rca app-1.zstd --driver-log driver.log",
      "  sparkrca summarize /tmp/spark-events/app-1",
      "  sparkrca rules --recommended --format json gs://bucket/spark-events/app-1",
      "  sparkrca logs search --regex 'OutOfMemoryError' executor-logs/",
      "  sparkrca help rca",
      "",
      "Every command takes --help, --format where it writes a report, and --quiet."
    },
    subcommands = {CommandLine.HelpCommand.class})
public final class SparkRcaCommand implements Runnable {
  /** Exit code for a problem found: a root cause, a rule that matched, a failed application. */
  public static final int EXIT_FAIL = 1;
  /** Exit code for errors: bad usage, unreadable or unsupported input. */
  public static final int EXIT_ERROR = 2;

  @Option(names = "--debug", description = "Print stack traces on errors.", scope = CommandLine.ScopeType.INHERIT)
  boolean debug;

  @Option(names = {"-q", "--quiet"}, scope = CommandLine.ScopeType.INHERIT,
      description = "No progress and no informational lines on standard error; errors and warnings still show.")
  boolean quiet;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    int code = execute(args, out, err);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs the command line with the given streams and returns the exit code. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    ReportOutput.resetErrorWritten();
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // The same lines as picocli's --version, without building the command model first.
      for (String line : new Version().getVersion()) {
        out.println(line);
      }
      out.flush();
      return 0;
    }
    SparkRcaCommand root = new SparkRcaCommand();
    CommandLine cli = new CommandLine(root);
    Subcommands.register(cli, args); // only the command that args name: see Subcommands
    CliContract.apply(cli);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionStrategy(parsed -> {
      CliContract.checkFormat(parsed);
      try {
        return new CommandLine.RunLast().execute(parsed);
      } finally {
        ReadProgress.finish();
      }
    });
    cli.setParameterExceptionHandler(
        (ex, a) -> {
          String message = ex.getMessage() + (ex.getMessage().contains("'--format'") ? CliContract.formatsOf(ex.getCommandLine()) : "");
          if (CliContract.jsonErrors(null, a)) {
            ReportOutput.jsonError(out, message, EXIT_ERROR);
          }
          err.println("sparkrca: " + message);
          err.println("Run '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
          return EXIT_ERROR;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          boolean debug = parseResult.hasMatchedOption("--debug")
              || parseResult.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--debug"))
              || root.debug;
          String message = describe(ex);
          if (CliContract.jsonErrors(commandLine, args) && !ReportOutput.errorWritten()) {
            ReportOutput.jsonError(out, message, EXIT_ERROR);
          }
          err.println("sparkrca: " + message);
          if (debug) {
            ex.printStackTrace(err);
          } else if (!(ex instanceof SparkRcaException)) {
            err.println("(run again with --debug for the stack trace)");
          }
          err.flush();
          return EXIT_ERROR;
        });
    try {
      return cli.execute(args);
    } catch (OutOfMemoryError | StackOverflowError e) {
      // Errors pass picocli's handler by; without this the JVM prints a stack trace and exits 1,
      // which would read as "a problem found". What failed to fit is gone, so there is room to say so.
      String message = describe(e);
      if (CliContract.jsonErrors(null, args) && !ReportOutput.errorWritten()) {
        ReportOutput.jsonError(out, message, EXIT_ERROR);
      }
      err.println("sparkrca: " + message);
      if (List.of(args).contains("--debug")) {
        e.printStackTrace(err);
      }
      err.flush();
      return EXIT_ERROR;
    }
  }

  /**
   * The whole command tree as {@code --help} shows it, for tools that document it (the shell
   * completion scripts and the man pages of the distribution are generated from it at build time).
   *
   * <pre>{@code
   * String bash = picocli.AutoComplete.bash("sparkrca", SparkRcaCommand.commandLine());
   * }</pre>
   */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli);
    CliContract.apply(cli);
    return cli;
  }

  private CommandLine.Model.CommandSpec spec() {
    return spec;
  }

  @Override
  public void run() {
    // No subcommand: print usage and fail, the way git does.
    spec().commandLine().usage(spec().commandLine().getErr());
    throw new CommandLine.ParameterException(spec().commandLine(), "a command is required");
  }

  static String describe(Throwable ex) {
    if (ex instanceof NotAnEventLogException n) {
      return notAnEventLog(n);
    }
    if (ex instanceof SparkRcaException) {
      return CliHints.error(ex); // the library's advice, with this command line's options
    }
    if (ex instanceof UncheckedIOException u && u.getCause() != null) {
      ex = u.getCause();
    }
    if (ex instanceof java.nio.file.NoSuchFileException) {
      return ex.getMessage() + " not found: check the path";
    }
    if (ex instanceof IOException) {
      return "I/O error: " + ex.getMessage();
    }
    if (ex instanceof OutOfMemoryError) {
      return "out of memory (" + ex.getMessage() + ", a heap of " + (Runtime.getRuntime().maxMemory() >> 20)
          + " MiB): run again with a larger heap (JAVA_OPTS=-Xmx4g), or lower the limits of the command (see --help)";
    }
    if (ex instanceof StackOverflowError) {
      return "the input nests too deeply for this JVM's stack: run again with JAVA_OPTS=-Xss16m, or give a smaller input";
    }
    String m = ex.getMessage();
    return ex.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  /** What the file is and, in this command line's words, what reads it. */
  private static String notAnEventLog(NotAnEventLogException e) {
    String what = e.source() + " is " + e.format().description();
    return switch (e.format().category()) {
      case CODE -> what + ", not a Spark event log: look inside it with 'sparkrca inspect " + e.source() + "'";
      case DATA -> what + ", not a Spark event log: sparkrca reads the application's event log (under"
          + " spark.eventLog.dir), not the data it read or wrote";
      case COMPRESSED -> what + ", which Spark never writes: decompress it, then run sparkrca on the result";
    };
  }

  /** Reads the version from the build. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      Properties p = new Properties();
      try (InputStream in = SparkRcaCommand.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        throw new SparkRcaException(
            "cannot read the version of this build (version.properties in the sparkrca jar): " + e
                + "; the jar is damaged, download it again", e);
      }
      return new String[] {
        "sparkrca " + p.getProperty("version", "unknown"),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
      };
    }
  }
}

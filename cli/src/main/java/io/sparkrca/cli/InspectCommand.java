package io.sparkrca.cli;

import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.inspector.Inspection;
import io.sparkrca.inspector.NotCodeException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sparkrca inspect <uri> [--entry E] [--format text|json]}: looks inside a Spark job's
 * deployed JARs, classes and scripts with {@link ClassInspector}.
 *
 * <pre>{@code
 * sparkrca inspect gs://bucket/app.jar
 * sparkrca inspect gs://bucket/app.jar --entry com.example.Job --format json
 * sparkrca inspect 'gs://bucket/app.jar!/com/example/Job.class' --no-follow
 * sparkrca inspect gs://bucket/app.jar --findings
 * sparkrca inspect gs://bucket/jobs/etl.py --max-lines 80 --start-line 120
 * }</pre>
 */
@Command(
    name = "inspect",
    header = "Looks inside a Spark job's deployed code: JARs, classes and scripts, with the anti-patterns found.",
    description = {
      "",
      "A JAR/ZIP overview (read by ranged requests, nothing extracted), a class disassembled "
          + "javap-style with ranked string constants and a call graph, or a numbered script; with the "
          + "Spark anti-patterns found in bytecode and source.",
      "",
      "URI: a local path, https://, gs:// (with the gcp module); 'app.jar!/com/x/Job.class' names an "
          + "entry, 'app.jar!/BOOT-INF/lib/x.jar!/...' one in a nested jar.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca inspect gs://bucket/app.jar",
      "  sparkrca inspect app.jar --entry com.example.Job --format json",
      "  sparkrca inspect 'app.jar!/com/example/Job.class' --no-follow",
      "  sparkrca inspect app.jar --findings",
      "  sparkrca inspect jobs/etl.py --max-lines 80 --start-line 120"
    })
final class InspectCommand extends FormattedCommand {
  InspectCommand() {
    super(OutputFormat.text, OutputFormat.json);
  }


  @Parameters(index = "0", paramLabel = "URI", description = "The archive, class file or script.")
  String uri;

  @Option(names = "--entry", paramLabel = "E",
      description = "An archive entry: a path (com/x/Job.class), a class name (com.x.Job), a bare "
          + "class name (Job) or a resource (application.conf). Wins over a '!/' fragment.")
  String entry;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text (default) or json (the same facts as fields).")
  OutputFormat format;

  @CommandLine.Mixin OutputFile output;

  @Option(names = "--max-lines", paramLabel = "N",
      description = "The line budget: default 300 for scripts and text, 2000 for disassembly.")
  Integer maxLines;

  @Option(names = "--start-line", paramLabel = "N", defaultValue = "1",
      description = "The first line of a script or text entry to show. Default: ${DEFAULT-VALUE}.")
  int startLine;

  @Option(names = "--no-follow",
      description = "Do not follow inner classes, Scala closures and lambda bodies.")
  boolean noFollow;

  @Option(names = "--max-follow", paramLabel = "N", defaultValue = "10",
      description = "How many classes to follow from the requested one. Default: ${DEFAULT-VALUE}.")
  int maxFollow;

  @Option(names = "--findings",
      description = "Only the Spark anti-patterns; on an archive without --entry, scan every "
          + "application class and script in it.")
  boolean findings;

  @Option(names = "--overview-sampling", paramLabel = "FRACTION",
      description = "For a huge archive's overview, read at most this fraction of the archive from "
          + "its central directory (e.g. 0.015); counts are then estimates and say so. Default: exact.")
  Double overviewSampling;

  @CommandLine.ArgGroup(validate = false, heading = "%nRemote inputs (http, https):%n")
  HttpOptions http = new HttpOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Override
  public Integer call() {
    if (maxLines != null && maxLines < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--max-lines must be at least 1");
    }
    if (startLine < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--start-line must be at least 1");
    }
    if (maxFollow < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--max-follow must be 0 or more");
    }
    ClassInspector.Builder b = ClassInspector.builder()
        .sources(http.sources(spec))
        .startLine(startLine)
        .followInnerClasses(!noFollow)
        .maxFollowedClasses(maxFollow)
        .findingsOnly(findings);
    if (maxLines != null) {
      b.maxLines(maxLines);
    }
    if (overviewSampling != null) {
      if (overviewSampling <= 0 || overviewSampling >= 1) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--overview-sampling must be between 0 and 1");
      }
      b.overviewSampling(overviewSampling);
    }
    Inspection result;
    try {
      result = b.build().inspect(uri, entry == null ? "" : entry);
    } catch (NotCodeException e) {
      throw new UnsupportedInputException(readItWith(e), e);
    }
    // The text's drill-in advice names this command's options (--entry, --findings, ...).
    output.write(out(), format == OutputFormat.json ? result.toJson() : result.toText(CliHints::words));
    return 0;
  }

  /** The refusal in the command line's words: the commands that do read this input. */
  static String readItWith(NotCodeException e) {
    String input = e.input();
    if (e.archiveEntry()) {
      return input + " looks like " + (e.kind() == NotCodeException.Kind.EVENT_LOG ? "a Spark event log" : "a log")
          + ", not code: extract it from the archive, then read it with 'sparkrca "
          + (e.kind() == NotCodeException.Kind.EVENT_LOG ? "summarize" : "logs tail 200") + " FILE'";
    }
    String arg = quote(input);
    if (e.kind() == NotCodeException.Kind.EVENT_LOG) {
      return input + " looks like a Spark event log, not code: summarize it with 'sparkrca summarize "
          + arg + "' or check it with 'sparkrca rules --recommended " + arg + "'";
    }
    return input + " looks like a log, not code: read its end with 'sparkrca logs tail 200 " + arg
        + "' or search it with 'sparkrca logs search --regex ERROR " + arg + "'";
  }

  /** The argument as a shell would need it, when it holds anything beyond safe characters. */
  private static String quote(String arg) {
    return arg.matches("[A-Za-z0-9_./:@%+=,-]+") ? arg : "\"" + arg.replace("\"", "\\\"") + "\"";
  }
}

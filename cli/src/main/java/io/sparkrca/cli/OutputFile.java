package io.sparkrca.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --output FILE} option of every command that writes a report, mixed in with
 * {@code @Mixin OutputFile output;}: the report goes to standard output, or to the file, written
 * atomically (see {@link ReportOutput}).
 *
 * <pre>{@code
 * output.write(spec.commandLine().getOut(), report.toMarkdown());
 * }</pre>
 */
final class OutputFile {
  @Option(names = "--output", paramLabel = "FILE",
      description = "Write the report to FILE (atomically: a failed run never leaves half a report) instead of standard output.")
  Path file;

  /** Writes {@code text} where the user asked. */
  void write(PrintWriter out, String text) {
    ReportOutput.write(out, Optional.ofNullable(file), text);
  }
}

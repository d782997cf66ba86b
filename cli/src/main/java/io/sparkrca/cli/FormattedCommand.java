package io.sparkrca.cli;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * A {@link Formatted} command, written once: it names the formats it writes to this constructor
 * and declares its own {@code --format} option (its default and help text differ per command), in
 * a field of its own or of a mixin; {@link #format()} reads that option's value from the parsed
 * command, wherever it is declared.
 *
 * <pre>{@code
 * final class MyCommand extends FormattedCommand {
 *   @Option(names = "--format", defaultValue = "markdown") OutputFormat format;
 *   MyCommand() { super(OutputFormat.markdown, OutputFormat.json); }
 *   public Integer call() { out().println(format); return 0; }
 * }
 * }</pre>
 */
abstract class FormattedCommand implements Callable<Integer>, Formatted {
  private final Set<OutputFormat> formats;

  @Spec CommandSpec spec;

  /** A command that writes {@code first} and {@code rest} (in the enum's order, as help names them). */
  FormattedCommand(OutputFormat first, OutputFormat... rest) {
    this.formats = Collections.unmodifiableSet(EnumSet.of(first, rest));
  }

  @Override
  public final OutputFormat format() {
    OptionSpec option = spec.findOption("--format");
    return option == null ? null : option.getValue();
  }

  @Override
  public final Set<OutputFormat> formats() {
    return formats;
  }

  /** Standard output. */
  final PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** Standard error. */
  final PrintWriter err() {
    return spec.commandLine().getErr();
  }
}

package io.sparkrca.cli;

import java.util.Set;

/**
 * A command with a {@code --format} option. The command line checks the chosen format against
 * {@link #formats()} before the command runs (so an unsupported one is a usage error naming the
 * ones this command writes), and with {@code json} an error is one JSON document on standard
 * output as well as a line on standard error.
 *
 * <pre>{@code
 * final class MyCommand implements Callable<Integer>, Formatted {
 *   @Option(names = "--format", defaultValue = "markdown") OutputFormat format;
 *   public OutputFormat format() { return format; }
 *   public Set<OutputFormat> formats() { return EnumSet.of(OutputFormat.markdown, OutputFormat.json); }
 * }
 * }</pre>
 */
interface Formatted {
  /** The format asked for. */
  OutputFormat format();

  /** The formats this command writes, in the order its help names them (the default first). */
  Set<OutputFormat> formats();
}

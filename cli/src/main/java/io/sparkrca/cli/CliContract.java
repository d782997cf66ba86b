package io.sparkrca.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * What every {@code sparkrca} command shares, applied to the whole command tree in one place so
 * that a new command gets it by being registered: the help layout (auto width, options in
 * declaration order, the exit codes), colour only on a terminal and never with {@code NO_COLOR},
 * the {@code --format} check, JSON errors, and {@code --quiet}.
 *
 * <pre>{@code
 * CommandLine cli = new CommandLine(new SparkRcaCommand());
 * Subcommands.register(cli);
 * CliContract.apply(cli);
 * }</pre>
 */
final class CliContract {
  /** The exit codes, the same for every command. */
  static final Map<String, String> EXIT_CODES = exitCodes();

  private CliContract() {}

  private static Map<String, String> exitCodes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("0", "Nothing wrong found: a healthy application, rules that passed, a read that succeeded.");
    m.put("1", "A problem found: a root cause (or a failure whose cause the evidence does not determine), "
        + "a rule that matched, a failed application.");
    m.put("2", "Error: bad usage, an input that cannot be read, a failed fetch, a broken rule.");
    return m;
  }

  static void apply(CommandLine cli) {
    cli.registerConverter(OutputFormat.class, OutputFormat::parse);
    cli.setUsageHelpAutoWidth(true);
    for (CommandLine c : tree(cli)) {
      CommandSpec spec = c.getCommandSpec();
      spec.usageMessage()
          .sortOptions(false)
          .synopsisHeading(spec.usageMessage().header().length > 0 ? "%nUsage: " : "Usage: ")
          .abbreviateSynopsis(spec.subcommands().isEmpty() && spec.options().size() > 8)
          .exitCodeListHeading("%nExit codes:%n")
          .exitCodeList(EXIT_CODES);
    }
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(colour() ? CommandLine.Help.Ansi.AUTO : CommandLine.Help.Ansi.OFF));
  }

  /** Colour only when writing to a terminal, and never when {@code NO_COLOR} is set (no-color.org). */
  static boolean colour() {
    String noColor = System.getenv("NO_COLOR");
    return (noColor == null || noColor.isEmpty()) && System.console() != null;
  }

  static List<CommandLine> tree(CommandLine root) {
    List<CommandLine> out = new ArrayList<>();
    out.add(root);
    for (CommandLine sub : root.getSubcommands().values()) {
      if (!out.contains(sub)) {
        out.addAll(tree(sub));
      }
    }
    return out;
  }

  /** Before the command runs: the format asked for must be one it writes. */
  static void checkFormat(ParseResult parsed) {
    ParseResult last = parsed;
    while (last.hasSubcommand()) {
      last = last.subcommand();
    }
    Object command = last.commandSpec().userObject();
    if (command instanceof Formatted f && !f.formats().contains(f.format())) {
      throw new CommandLine.ParameterException(last.commandSpec().commandLine(), "--format " + f.format()
          + " is not one '" + last.commandSpec().qualifiedName() + "' writes: use " + OutputFormat.names(f.formats()));
    }
  }

  /** The formats a command writes, said after a bad {@code --format} value. */
  static String formatsOf(CommandLine command) {
    return command.getCommand() instanceof Formatted f ? ": use " + OutputFormat.names(f.formats()) : "";
  }

  /** Whether an error of {@code command} must also be a JSON document on standard output. */
  static boolean jsonErrors(CommandLine command, String[] args) {
    if (command != null && command.getCommand() instanceof Formatted f && f.format() != null) {
      return f.format() == OutputFormat.json;
    }
    // The arguments did not parse: go by what they ask for.
    for (int i = 0; i < args.length; i++) {
      if (args[i].equalsIgnoreCase("--format=json") || args[i].equals("--format") && i + 1 < args.length
          && args[i + 1].equalsIgnoreCase("json")) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code --quiet} was given, before or after the command's name. */
  static boolean quiet(CommandSpec spec) {
    for (CommandSpec s = spec; s != null; s = s.parent()) {
      OptionSpec q = s.findOption("--quiet");
      if (q != null && Boolean.TRUE.equals(q.getValue())) {
        return true;
      }
    }
    return false;
  }
}

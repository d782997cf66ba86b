package io.sparkrca.cli;

import picocli.CommandLine;

/**
 * The list of {@code sparkrca} subcommands, kept in one place so that adding a command is one
 * line here.
 */
final class Subcommands {
  private Subcommands() {}

  static void register(CommandLine cli) {
    // One line per command, in the order --help lists them.
    cli.addSubcommand(new RcaCommand());
    cli.addSubcommand(new SummarizeCommand());
    cli.addSubcommand(new ApiCommand());
    cli.addSubcommand(new InspectCommand());
    cli.addSubcommand(new LogsCommand());
    cli.addSubcommand(new RulesCommand());
    cli.addSubcommand(new ScanCommand());
  }
}

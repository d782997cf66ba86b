package io.sparkrca.cli;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The list of {@code sparkrca} subcommands, kept in one place so that adding a command is one
 * line here.
 *
 * <p>Building a command's picocli model reads all its annotations by reflection, which took most
 * of the start-up of {@code sparkrca --version} when every command was built on every run. So a
 * run builds only the command it names; {@code --help}, {@code help}, no command or an unknown
 * one build them all (the help lists them, and an unknown name is reported as before), and
 * {@code --version} alone builds none.
 */
final class Subcommands {
  private Subcommands() {}

  // One line per command, in the order --help lists them; the name is the one in its @Command.
  private static final List<Map.Entry<String, Supplier<Object>>> COMMANDS = List.of(
      Map.entry("rca", RcaCommand::new),
      Map.entry("compare", CompareCommand::new),
      Map.entry("summarize", SummarizeCommand::new),
      Map.entry("api", ApiCommand::new),
      Map.entry("inspect", InspectCommand::new),
      Map.entry("logs", LogsCommand::new),
      Map.entry("rules", RulesCommand::new),
      Map.entry("k8s", K8sCommand::new),
      Map.entry("dataproc", DataprocCommand::new),
      Map.entry("shs", ShsCommand::new),
      Map.entry("serve", ServeCommand::new),
      Map.entry("scan", ScanCommand::new),
      Map.entry("mcp", McpCommand::new));

  /** Registers every command. */
  static void register(CommandLine cli) {
    COMMANDS.forEach(c -> cli.addSubcommand(c.getKey(), c.getValue().get()));
  }

  /** Registers only what the command line {@code args} needs (see the class comment). */
  static void register(CommandLine cli, String[] args) {
    String named = null;
    boolean version = false;
    boolean help = false;
    for (String a : args) {
      if (!a.startsWith("-")) {
        named = a;
        break;
      }
      version |= a.equals("-V") || a.equals("--version");
      help |= a.startsWith("-h") || a.startsWith("--help");
    }
    String wanted = named;
    if (wanted != null && COMMANDS.stream().anyMatch(c -> c.getKey().equals(wanted))) {
      COMMANDS.stream().filter(c -> c.getKey().equals(wanted))
          .forEach(c -> cli.addSubcommand(c.getKey(), c.getValue().get()));
    } else if (wanted != null || help || !version) {
      register(cli);
    }
  }
}

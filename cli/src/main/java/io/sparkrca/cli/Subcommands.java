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
 * {@code --version} alone builds none. The same holds one level down for a command listed in
 * {@code NESTED} ({@code logs}): {@code logs count ...} builds the count action only, while {@code
 * logs}, {@code logs --help} or an unknown action build all of them.
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

  /** Commands whose own subcommands are registered here too, the same lazy way (name, then its actions). */
  private static final Map<String, List<Map.Entry<String, Supplier<Object>>>> NESTED =
      Map.of("logs", LogsCommand.ACTIONS);

  /** Registers every command. */
  static void register(CommandLine cli) {
    COMMANDS.forEach(c -> cli.addSubcommand(c.getKey(), build(c, null)));
  }

  /** The command of {@code c}, with its own subcommands: only {@code action} when it is one of them, else all. */
  private static Object build(Map.Entry<String, Supplier<Object>> c, String action) {
    List<Map.Entry<String, Supplier<Object>>> actions = NESTED.get(c.getKey());
    if (actions == null) {
      return c.getValue().get();
    }
    CommandLine command = new CommandLine(c.getValue().get());
    boolean known = actions.stream().anyMatch(a -> a.getKey().equals(action));
    actions.stream().filter(a -> !known || a.getKey().equals(action))
        .forEach(a -> command.addSubcommand(a.getKey(), a.getValue().get()));
    return command;
  }

  /** Registers only what the command line {@code args} needs (see the class comment). */
  static void register(CommandLine cli, String[] args) {
    String named = null;
    String action = null; // the first word after the command's name: its subcommand, if it has any
    boolean version = false;
    boolean help = false;
    for (String a : args) {
      if (!a.startsWith("-")) {
        if (named == null) {
          named = a;
          continue;
        }
        action = a;
        break;
      }
      if (named != null) {
        continue; // an option of the command, before its action
      }
      version |= a.equals("-V") || a.equals("--version");
      help |= a.startsWith("-h") || a.startsWith("--help");
    }
    String wanted = named;
    String wantedAction = action;
    if (wanted != null && COMMANDS.stream().anyMatch(c -> c.getKey().equals(wanted))) {
      COMMANDS.stream().filter(c -> c.getKey().equals(wanted))
          .forEach(c -> cli.addSubcommand(c.getKey(), build(c, wantedAction)));
    } else if (wanted != null || help || !version) {
      register(cli);
    }
  }
}

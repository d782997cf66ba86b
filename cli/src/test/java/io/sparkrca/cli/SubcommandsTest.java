package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SubcommandsTest {
  private static List<String> registeredFor(String... args) {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli, args);
    return cli.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
  }

  private static List<String> all() {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli);
    return cli.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
  }

  @Test
  void aRunNamingACommandBuildsThatCommandOnlyUnderItsOwnAnnotatedName() {
    for (String name : all()) {
      CommandLine cli = new CommandLine(new SparkRcaCommand());
      Subcommands.register(cli, new String[] {"--quiet", name, "--help"});
      assertThat(cli.getSubcommands().keySet()).as("commands built for '%s'", name).containsExactlyInAnyOrder(name, "help");
      CommandLine.Command annotated = cli.getSubcommands().get(name).getCommand().getClass()
          .getAnnotation(CommandLine.Command.class);
      assertThat(annotated.name()).as("the @Command name of the command registered as '%s'", name).isEqualTo(name);
    }
  }

  @Test
  void versionAloneBuildsNoCommand() {
    assertThat(registeredFor("--version")).isEmpty();
    assertThat(registeredFor("--debug", "-V")).isEmpty();
  }

  @Test
  void helpNoCommandOrAnUnknownOneBuildsThemAll() {
    assertThat(all()).contains("rca", "summarize", "logs", "rules");
    assertThat(registeredFor()).isEqualTo(all());
    assertThat(registeredFor("--help")).isEqualTo(all());
    assertThat(registeredFor("help", "rca")).isEqualTo(all());
    assertThat(registeredFor("summarise", "x")).isEqualTo(all());
    assertThat(registeredFor("--version", "--help")).isEqualTo(all());
  }

  private static List<String> logsActionsFor(String... args) {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli, args);
    return List.copyOf(cli.getSubcommands().get("logs").getSubcommands().keySet());
  }

  @Test
  void aRunNamingALogsActionBuildsThatActionOnlyUnderItsAnnotatedName() {
    List<String> all = LogsCommand.ACTIONS.stream().map(java.util.Map.Entry::getKey).toList();
    for (String action : all) {
      CommandLine cli = new CommandLine(new SparkRcaCommand());
      Subcommands.register(cli, new String[] {"--quiet", "logs", action, "--regex", "x", "f.log"});
      CommandLine logs = cli.getSubcommands().get("logs");
      assertThat(logs.getSubcommands().keySet()).as("actions built for 'logs %s'", action).containsExactly(action);
      CommandLine.Command annotated = logs.getSubcommands().get(action).getCommand().getClass()
          .getAnnotation(CommandLine.Command.class);
      assertThat(annotated.name()).as("the @Command name of the action registered as '%s'", action).isEqualTo(action);
    }
  }

  @Test
  void logsHelpNoActionOrAnUnknownOneBuildsEveryActionInHelpOrder() {
    List<String> all = List.of("info", "head", "tail", "range", "count", "search", "events");
    assertThat(logsActionsFor("logs")).isEqualTo(all);
    assertThat(logsActionsFor("logs", "--help")).isEqualTo(all);
    assertThat(logsActionsFor("logs", "cuont", "f.log")).isEqualTo(all);
    assertThat(logsActionsFor("--help")).isEqualTo(all);
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli);
    assertThat(cli.getSubcommands().get("logs").getSubcommands().keySet()).containsExactlyElementsOf(all);
  }
}

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
}

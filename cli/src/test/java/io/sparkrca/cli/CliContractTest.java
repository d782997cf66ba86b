package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The contract every {@code sparkrca} command keeps, checked over the whole command tree so that a
 * command added later is held to it too: complete help with exit codes and examples, one JSON
 * document on standard output also on error, {@code --output} written atomically, {@code --quiet}.
 */
class CliContractTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Every command and subcommand, by its path below {@code sparkrca}. */
  static Stream<Arguments> commands() {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli);
    CliContract.apply(cli);
    List<Arguments> out = new ArrayList<>();
    for (CommandLine c : CliContract.tree(cli)) {
      if (c != cli) {
        String path = c.getCommandSpec().qualifiedName(" ").substring("sparkrca ".length());
        out.add(Arguments.of(path, c.getSubcommands().isEmpty()));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void everyCommandsHelpIsCompleteAndListsTheExitCodes(String path, boolean leaf) {
    List<String> args = new ArrayList<>(List.of(path.split(" ")));
    args.add("--help");
    CliRun help = CliRun.of(args.toArray(String[]::new));
    assertThat(help.exitCode()).as("exit code of %s --help", path).isZero();
    String text = help.out();
    String header = text.substring(0, Math.max(0, text.indexOf("\n\n"))).replaceAll("\\s+", " ").trim();
    assertThat(header).as("the first paragraph of '%s --help' is its header, a whole sentence", path)
        .isNotEmpty().endsWith(".");
    assertThat(text).as("help of %s", path)
        .contains("Usage: sparkrca " + path)
        .contains("Exit codes:")
        .contains("  0   Nothing wrong found")
        .contains("  1   A problem found")
        .contains("  2   Error:");
    if (leaf && !path.equals("help")) {
      assertThat(text).as("help of %s has an Examples section", path).contains("Examples:").contains("  sparkrca " + path);
    }
    // `sparkrca help <command>` shows the same.
    List<String> viaHelp = new ArrayList<>(List.of("help"));
    viaHelp.addAll(List.of(path.split(" ")));
    if (!path.contains(" ")) {
      assertThat(CliRun.of(viaHelp.toArray(String[]::new)).out()).isEqualTo(text);
    }
  }

  @Test
  void theTopLevelHelpDescribesEveryCommandInAWholeSentence() {
    CommandLine cli = new CommandLine(new SparkRcaCommand());
    Subcommands.register(cli);
    for (CommandLine c : cli.getSubcommands().values()) {
      String[] header = c.getCommandSpec().usageMessage().header();
      String[] description = c.getCommandSpec().usageMessage().description();
      String summary = header.length > 0 ? String.join(" ", header) : String.join(" ", description);
      assertThat(summary).as("summary of %s", c.getCommandName()).isNotBlank().endsWith(".");
    }
    CliRun top = CliRun.of("--help");
    // Each command's summary line, as listed, is not cut mid-sentence.
    assertThat(top.out()).contains("Exit codes:").contains("Examples:");
  }

  /** A command that reads an input, with an input that does not exist, asking for JSON. */
  static Stream<Arguments> failingJsonRuns() {
    String missing = "/nonexistent/sparkrca-contract/app-1";
    return Stream.of(
        Arguments.of((Object) new String[] {"rca", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"summarize", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"rules", "--recommended", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"inspect", missing + ".jar", "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "info", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "head", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "tail", missing, "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "range", missing, "1", "2", "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "search", missing, "--regex", "x", "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "count", missing, "--regex", "x", "--format", "json"}),
        Arguments.of((Object) new String[] {"logs", "events", missing, "--format", "json"}),
        // json is shs's default format: nothing listens on port 1, so the read fails at once.
        Arguments.of((Object) new String[] {"shs", "failure", "--shs", "http://127.0.0.1:1", "--app", "app-1"}),
        // A usage error is an error too.
        Arguments.of((Object) new String[] {"summarize", "--no-such-option", "--format", "json"}),
        Arguments.of((Object) new String[] {"rca", "--format=json", "--baseline"}));
  }

  @ParameterizedTest
  @MethodSource("failingJsonRuns")
  void withFormatJsonAnErrorIsOneJsonDocumentOnStdoutAndOneLineOnStderr(String[] args) throws IOException {
    CliRun r = CliRun.of(args);
    assertThat(r.exitCode()).as("exit code of %s", String.join(" ", args)).isEqualTo(2);
    JsonNode doc = JSON.readTree(r.out());
    assertThat(doc.path("status").asText()).isEqualTo("ERROR");
    assertThat(doc.path("exitCode").asInt()).isEqualTo(2);
    assertThat(doc.path("error").path("message").asText()).isNotBlank();
    // Exactly one document: nothing follows it.
    assertThat(JSON.readerFor(JsonNode.class).readValues(r.out()).readAll()).hasSize(1);
    assertThat(r.err()).startsWith("sparkrca: ").doesNotContain("\tat ");
  }

  @Test
  void aFormatACommandDoesNotWriteIsRefusedBeforeAnyWorkWithTheFormatsItDoes() {
    CliRun r = CliRun.of("rca", "/nonexistent/app-1", "--format", "text");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--format text is not one 'sparkrca rca' writes: use markdown, json or html");
    CliRun bad = CliRun.of("logs", "info", "/nonexistent/log", "--format", "yaml");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("'yaml' is not an output format: use json or text");
  }

  @Test
  void aFailedRunNeverLeavesHalfAReportAndKeepsThePreviousOne(@TempDir Path dir) throws IOException {
    Path report = dir.resolve("report.json");
    Files.writeString(report, "the previous report\n");
    CliRun failed = CliRun.of("summarize", "/nonexistent/app-1", "--format", "json", "--output", report.toString());
    assertThat(failed.exitCode()).isEqualTo(2);
    assertThat(report).hasContent("the previous report");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("no temporary file left behind").containsExactly(report);
    }
  }

  @Test
  void theOutputFileIsCreatedWithTheUmasksPermissionsAndAReplacedOneKeepsItsOwn(@TempDir Path dir) throws IOException {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX permissions here");
    Path likeAnyFile = Files.createFile(dir.resolve("made-by-the-user"));
    String log = TestkitFixtures.get("3.5.9", "bad-record").eventLog().toString();
    Path report = dir.resolve("report.json");
    CliRun r = CliRun.of("summarize", log, "--format", "json", "--output", report.toString());
    assertThat(r.exitCode()).as("summarize's exit code (the application failed)").isIn(0, 1);
    assertThat(Files.getPosixFilePermissions(report)).as("a new report: what the umask leaves, as for any new file")
        .isEqualTo(Files.getPosixFilePermissions(likeAnyFile))
        .contains(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);

    var readableByAll = java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--");
    Files.setPosixFilePermissions(report, readableByAll);
    CliRun again = CliRun.of("summarize", log, "--format", "json", "--output", report.toString());
    assertThat(again.exitCode()).isIn(0, 1);
    assertThat(Files.getPosixFilePermissions(report)).as("a replaced report keeps its permissions").isEqualTo(readableByAll);
  }

  @Test
  void everyReportWritingCommandWritesItsReportToTheOutputFileAndNothingToStdout(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    String log = f.eventLog().toString();
    String[][] runs = {
      {"rca", log, "--format", "json"},
      {"summarize", log, "--format", "json"},
      {"rules", "--recommended", log, "--format", "json"},
      {"logs", "count", f.driverLog().toString(), "--regex", "ERROR", "--format", "json"},
      {"logs", "info", f.driverLog().toString(), "--format", "json"},
    };
    for (String[] run : runs) {
      Path out = dir.resolve(run[0] + "-" + run[1] + ".json");
      List<String> args = new ArrayList<>(List.of(run));
      args.addAll(List.of("--output", out.toString()));
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertThat(r.exitCode()).as("exit code of %s", args).isIn(0, 1);
      assertThat(r.out()).as("stdout of %s", args).isEmpty();
      assertThat(JSON.readTree(out.toFile()).isObject()).as("report of %s", args).isTrue();
    }
  }

  @Test
  void quietLeavesOnlyTheReportAndTheErrors() {
    String log = TestkitFixtures.get("3.5.9", "bad-record").eventLog().toString();
    CliRun loud = CliRun.of("rca", log);
    CliRun quiet = CliRun.of("-q", "rca", log);
    CliRun quietAfter = CliRun.of("rca", "--quiet", log);
    assertThat(loud.err()).contains("sparkrca: DETERMINISTIC_DATA_FAILURE");
    assertThat(quiet.err()).isEmpty();
    assertThat(quietAfter.err()).isEmpty();
    assertThat(quiet.out()).isEqualTo(loud.out());
    assertThat(quiet.exitCode()).isEqualTo(loud.exitCode()).isEqualTo(1);
    CliRun error = CliRun.of("-q", "summarize", "/nonexistent/app-1");
    assertThat(error.err()).startsWith("sparkrca: ");
  }

  @Test
  void theHelpHasNoColourWhenNotOnATerminal() {
    StringWriter out = new StringWriter();
    SparkRcaCommand.execute(new String[] {"rca", "--help"}, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
    assertThat(out.toString()).doesNotContain("\u001b[");
  }
}

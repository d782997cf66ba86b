package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.rules.NoRulesException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library says what to do in library terms; the command line prints its own options instead
 * where they are the better advice (issue #11).
 */
class CliHintsTest {
  private static final String START =
      "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"app-1\",\"Timestamp\":1000,\"User\":\"u\"}\n";
  private static final String END = "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}\n";

  @TempDir Path dir;

  @Test
  void theLibraryMessagesNameNoFlagAndTheCliAddsItsOwn() {
    assertThat(NoRulesException.MESSAGE).doesNotContainPattern("--[a-z]");
    assertThat(CliHints.error(new NoRulesException()))
        .contains("--rules FILE", "--rule JSON", "--recommended");

    String strict = "app-1 line 2: bad (strict mode: replay with strict(false) to skip bad lines and report them)";
    assertThat(CliHints.error(new CorruptInputException(strict)))
        .isEqualTo("app-1 line 2: bad (strict mode: drop --strict to skip bad lines and report them)");

    AccessDeniedException noCreds =
        new AccessDeniedException("https://h/x", "HTTP 401 Unauthorized", "the server requires credentials; send them ...");
    assertThat(CliHints.error(noCreds)).contains("--header 'Authorization: Bearer TOKEN'", "--bearer-token-env VAR");

    SparkRcaException tls = new SparkRcaException("GET https://h/x: TLS certificate verification failed (x)");
    assertThat(CliHints.error(tls)).endsWith("add the CA certificate with --ca-file PEM");

    SparkRcaException other = new SparkRcaException("/x not found: check the path");
    assertThat(CliHints.error(other)).isEqualTo("/x not found: check the path");
  }

  @Test
  void aGapThatEndsTheCommandSaysWhereAndWhatToDoOnce() {
    EvidenceGap missing = new EvidenceGap(EvidenceKind.EVENT_LOG, "/logs/app-1", GapReason.NOT_FOUND,
        "/logs/app-1 not found: check the path", "check the path or URL; an event log exists only with spark.eventLog.enabled");
    assertThat(CliHints.gapError(missing))
        .isEqualTo("/logs/app-1 not found: check the path or URL; an event log exists only with spark.eventLog.enabled");

    EvidenceGap denied = new EvidenceGap(EvidenceKind.EVENT_LOG, "gs://b/app-1", GapReason.ACCESS_DENIED, "HTTP 403 Forbidden",
        "grant roles/storage.objectViewer");
    assertThat(CliHints.gapError(denied)).isEqualTo("gs://b/app-1: HTTP 403 Forbidden (grant roles/storage.objectViewer)");

    EvidenceGap said = new EvidenceGap(EvidenceKind.WORKLOAD, "", GapReason.ERROR, "batch b1 not found: check its id", "check its id");
    assertThat(CliHints.gapError(said)).isEqualTo("batch b1 not found: check its id");
  }

  @Test
  void theZeroMatchHintsNameTheSearchOptions() {
    assertThat(SearchResult.ZERO_MATCH_HINT).doesNotContainPattern("--[a-z]");
    assertThat(CliHints.search("x\n" + SearchResult.ZERO_MATCH_HINT + "\n"))
        .contains("retry with --ignore-case, or with a broader --regex.");
    assertThat(CliHints.search(SearchResult.IGNORE_CASE_ZERO_MATCH_HINT)).contains("a broader --regex");
  }

  @Test
  void strictReplayOfABadLineSaysDropStrict() throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), START + "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":\"x\"}\n" + END);

    CliRun run = CliRun.of("summarize", "--strict", log.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(log.toString(), "line 2", "drop --strict to skip bad lines")
        .doesNotContain("strict(false)");
  }

  @Test
  void noRulesSaysWhichOptionsSupplyThem() throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), START + END);

    CliRun run = CliRun.of("rules", log.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("sparkrca: no diagnostic rules supplied").contains("--recommended")
        .doesNotContain("rulesJson");
  }

  @Test
  void anInvalidRegexSuggestsLiteral() throws IOException {
    Path log = Files.writeString(dir.resolve("driver.log"), "a line\n");

    CliRun run = CliRun.of("logs", "search", "--regex", "Exception(", log.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("invalid regular expression 'Exception('", "use --literal");
  }

  @Test
  void theArchiveOverviewTellsHowToDrillInWithTheInspectOptions() throws IOException {
    Path jar = dir.resolve("app.jar");
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.sparkrca.cli.CliHintsTest");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf);
        var cls = CliHintsTest.class.getResourceAsStream("CliHintsTest.class")) {
      out.putNextEntry(new ZipEntry("io/sparkrca/cli/CliHintsTest.class"));
      cls.transferTo(out);
      out.closeEntry();
    }

    CliRun text = CliRun.of("inspect", jar.toString());
    CliRun json = CliRun.of("inspect", "--format", "json", jar.toString());

    assertThat(text.exitCode()).isZero();
    assertThat(text.out()).contains("pass --entry (e.g.", "--findings scans").doesNotContain("name it as the entry");
    assertThat(json.out()).contains("name it as the entry").doesNotContain("--entry");
  }
}

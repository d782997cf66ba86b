package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.inspector.EntryNotFoundException;
import io.sparkrca.inspector.InspectorRemedies;
import io.sparkrca.rules.NoRulesException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.GZIPOutputStream;
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

    CorruptInputException strict = new CorruptInputException("app-1 line 2: bad (", Replayer.LENIENT, ")");
    assertThat(strict.getMessage())
        .isEqualTo("app-1 line 2: bad (strict mode: replay with strict(false) to skip bad lines and report them)");
    assertThat(CliHints.error(strict))
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
    assertThat(SearchResult.RETRY_IGNORING_CASE.words()).doesNotContainPattern("--[a-z]");
    assertThat(CliHints.words(SearchResult.RETRY_IGNORING_CASE))
        .contains("retry with --ignore-case, or with a broader --regex.");
    assertThat(CliHints.words(SearchResult.RETRY_BROADER)).contains("a broader --regex");
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

  @Test
  void everyLibraryRemedyReadsInThisCommandLinesOptions() {
    assertThat(CliHints.words(DecodedStream.TRUNCATED)).isEqualTo("copy the file again, or drop --strict to read it up to the cut");
    assertThat(CliHints.words(LineReader.RAISE_LINE_CAP)).isEqualTo("raise --max-line-bytes to read it whole");
    assertThat(CliHints.words(SearchQuery.LITERAL)).isEqualTo("use --literal");
    assertThat(CliHints.words(SearchResult.RETRY_BROADER)).isEqualTo("Hint: no matches. Spark messages vary in wording"
        + " -- retry with a broader --regex (for example only the exception's class name).");
    assertThat(CliHints.error(new NoRulesException())).isEqualTo("no diagnostic rules supplied. The engine applies no"
        + " rules or thresholds of its own, because what counts as unhealthy depends on the workload. Pass rules"
        + " (--rules FILE, --rule JSON) or opt in to the recommended catalog (--recommended).");
    assertThat(CliHints.words(InspectorRemedies.startLine(7))).isEqualTo("pass a --start-line from 1 to 7");
    assertThat(CliHints.words(InspectorRemedies.LIST_THE_ARCHIVE)).isEqualTo("list the archive without --entry to see its contents");
    assertThat(CliHints.words(InspectorRemedies.JSON_LISTS_THEM)).isEqualTo("--format json lists them");
    assertThat(CliHints.words(InspectorRemedies.NAME_A_COMPANION))
        .isEqualTo("Pass --entry with the specific inner class name to inspect it.");
    assertThat(CliHints.words(InspectorRemedies.LINE_BUDGET))
        .isEqualTo("Raise --max-lines, pass --no-follow, or --entry a single inner class.");
    assertThat(CliHints.words(InspectorRemedies.MANIFEST_ENTRY)).isEqualTo("pass --entry META-INF/MANIFEST.MF");
    assertThat(CliHints.words(InspectorRemedies.drillIn("a.Main", "a/Main.class"))).isEqualTo("To inspect a class or"
        + " file, pass --entry (e.g. 'a.Main' or 'a/Main.class') or append '!/a/Main.class' to the URI; nested jars open"
        + " the same way (!/BOOT-INF/lib/x.jar); --findings scans the application classes for Spark anti-patterns.");
    assertThat(CliHints.error(new EntryNotFoundException("app.jar", "Foo", List.of()))).isEqualTo("Entry 'Foo' in app.jar"
        + " not found: no similar names; pass --entry with an archive path ('com/example/Main.class') or class name"
        + " ('com.example.Main'), or omit --entry for an overview of the archive");

    Remedy unknown = Remedy.of("other.module", "do it in library terms");
    assertThat(CliHints.words(unknown)).isEqualTo("do it in library terms");
  }

  @Test
  void aGapLeftByAFailureWithARemedySaysItInTheCommandLinesWords() {
    EvidenceGap cut = new EvidenceGap(EvidenceKind.EVENT_LOG, "event log", "/logs/app-1.gz", GapReason.CUT_OFF,
        "/logs/app-1.gz: the gzip stream is cut off (truncated: x); " + DecodedStream.TRUNCATED.words(), "check the path",
        Optional.of(DecodedStream.TRUNCATED));

    assertThat(CliHints.gapError(cut)).isEqualTo("/logs/app-1.gz: the gzip stream is cut off (truncated: x); copy the"
        + " file again, or drop --strict to read it up to the cut (check the path)");
  }

  @Test
  void strictRcaOfABadLineSaysDropStrict() throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), START + "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":\"x\"}\n" + END);

    CliRun run = CliRun.of("rca", "--strict", log.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("line 2", "drop --strict to skip bad lines").doesNotContain("strict(false)");
  }

  @Test
  void strictLogReadsSayWhichOptionsReadOnAndCommandsPastAnEntrysEndSayWhereItEnds() throws IOException {
    Path cut = dir.resolve("driver.log.gz");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write("line one\nline two\n".repeat(2000).getBytes(StandardCharsets.UTF_8));
    }
    Files.write(cut, Arrays.copyOf(gz.toByteArray(), gz.size() / 2));
    Path longLine = Files.writeString(dir.resolve("long.log"), "x".repeat(100) + "\nshort\n");
    Path script = Files.writeString(dir.resolve("job.py"), "print(1)\nprint(2)\n");

    CliRun truncated = CliRun.of("logs", "tail", "-n", "5", "--strict", cut.toString());
    CliRun overCap = CliRun.of("logs", "head", "-n", "5", "--strict", "--max-line-bytes", "16", longLine.toString());
    CliRun pastEnd = CliRun.of("inspect", "--start-line", "9", script.toString());

    assertThat(truncated.err()).contains("copy the file again, or drop --strict to read it up to the cut");
    assertThat(overCap.err()).contains("raise --max-line-bytes to read it whole");
    assertThat(pastEnd.err()).contains("is past its end: pass a --start-line from 1 to 2");
  }
}

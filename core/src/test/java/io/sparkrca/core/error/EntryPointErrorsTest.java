package io.sparkrca.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #11: every public entry point of core fails with a {@link SparkRcaException} subclass that
 * names the input, never with an IOException, UncheckedIOException or IllegalArgumentException.
 * Real files in a temporary directory and the committed testkit fixtures; no mocks.
 */
class EntryPointErrorsTest {
  @TempDir Path dir;

  // ---- a missing file -------------------------------------------------------------------------

  @Test
  void aMissingFileIsInputNotFoundNamingItEverywhere() {
    Path missing = dir.resolve("missing.log");
    String m = missing.toString();

    assertNotFound(() -> EventLogs.replay(missing), m);
    assertNotFound(() -> EventLogs.reader().build().find(m), m);
    assertNotFound(() -> EventLogs.reader().build().history(m), m);
    LogStream log = LogStream.open(m); // opening reads nothing
    assertNotFound(log::info, m);
    assertNotFound(() -> log.head(10), m);
    assertNotFound(() -> log.tail(10), m);
    assertNotFound(() -> log.range(1, 10), m);
    assertNotFound(log::count, m);
    assertNotFound(() -> log.search(SearchQuery.literal("ERROR")), m);
    assertNotFound(() -> log.forEachMatch(SearchQuery.literal("ERROR"), x -> true), m);
    assertNotFound(() -> ByteSources.defaults().list(m), m);
  }

  private static void assertNotFound(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String input) {
    assertThatThrownBy(call).isInstanceOf(InputNotFoundException.class).hasMessageContaining(input)
        .hasMessageContaining("not found");
  }

  // ---- a directory where a file is expected ---------------------------------------------------

  @Test
  void aDirectoryWhereALogFileIsExpectedIsRefusedNamingIt() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("logs"));
    LogStream log = LogStream.open(sub.toString());

    for (org.assertj.core.api.ThrowableAssert.ThrowingCallable c :
        List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
            () -> log.head(5), () -> log.tail(5), log::count, log::info)) {
      assertThatThrownBy(c)
          .isInstanceOf(UnsupportedInputException.class)
          .hasMessageContaining(sub.toString())
          .hasMessageContaining("is a directory, not a file");
    }
  }

  // ---- an unreadable or corrupt input ---------------------------------------------------------

  @Test
  void aFileThisUserMayNotReadIsAccessDenied() throws IOException {
    Path secret = Files.writeString(dir.resolve("secret.log"), "a line\n");
    assumeTrue(Files.getFileStore(secret).supportsFileAttributeView("posix"), "no POSIX permissions here");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
    assumeFalse(Files.isReadable(secret), "running as a user who reads any file (root)");

    assertThatThrownBy(() -> LogStream.open(secret.toString()).head(1))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining(secret.toString());
    assertThatThrownBy(() -> EventLogs.replay(secret))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining(secret.toString());
  }

  @Test
  void aDamagedCopyOfARealZstdEventLogIsCorruptNamingTheFile() throws IOException {
    byte[] bytes = Files.readAllBytes(committedZstdEventsFile());
    byte[] cutBytes = java.util.Arrays.copyOf(bytes, bytes.length / 2);
    for (int i = 64; i < bytes.length - 16; i += 7) {
      bytes[i] ^= 0x5a; // damage the frames, keep the magic bytes
    }
    Path damaged = Files.write(dir.resolve("events_1_app-damaged.zstd"), bytes);
    Path cut = Files.write(dir.resolve("events_1_app-cut.zstd"), cutBytes);

    assertThatThrownBy(() -> EventLogs.replay(damaged))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining(damaged.toString())
        .hasMessageContaining("zstd");
    // A log cut off at its end is what a running application leaves: read up to the cut, and said.
    assertThat(EventLogs.replay(cut).report().truncated()).isTrue();
  }

  @Test
  void aDamagedGzipCopyOfARealDriverLogIsCorruptNamingTheFile() throws IOException {
    Path driverLog = TestkitFixtures.get("3.5.9", "bad-record").driverLog();
    assumeTrue(Files.isRegularFile(driverLog), "testkit/fixtures is absent");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(Files.readAllBytes(driverLog));
    }
    byte[] bytes = gz.toByteArray();
    for (int i = 20; i < bytes.length - 20; i += 7) {
      bytes[i] ^= 0x5a; // damage the deflate data, keep the gzip header
    }
    Path damaged = Files.write(dir.resolve("driver-stderr.log.gz"), bytes);

    assertThatThrownBy(() -> LogStream.open(damaged.toString()).count())
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining(damaged.toString())
        .hasMessageContaining("gzip");
  }

  @Test
  void aJarGivenAsALogIsRefusedAsBinary() throws IOException {
    Path jar = Files.write(dir.resolve("app.jar"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0});

    assertThatThrownBy(() -> LogStream.open(jar.toString()).tail(5))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining(jar.toString())
        .hasMessageContaining("binary");
  }

  // ---- invalid arguments ----------------------------------------------------------------------

  @Test
  void invalidArgumentsAreInvalidRequestsNamingTheParameter() throws IOException {
    Path driverLog = TestkitFixtures.get("3.5.9", "bad-record").driverLog();
    LogStream log = LogStream.open(driverLog.toString());

    assertInvalid(() -> log.head(0), "head");
    assertInvalid(() -> log.tail(LogStream.MAX_LINES + 1), "tail");
    assertInvalid(() -> log.range(10, 5), "END");
    assertInvalid(() -> log.search(SearchQuery.regex("Exception(")), "Exception(");
    assertInvalid(() -> SearchQuery.literal(""), "empty");
    assertInvalid(() -> LogStream.builder().maxLineBytes(1), "line cap");
    assertInvalid(() -> LogStream.open(" "), "no log given");
    assertInvalid(() -> EventLogs.reader().maxLineBytes(10).build(), "maxLineBytes");
    assertInvalid(() -> EventLogs.reader().maxTaskRowsPerStage(-1).build(), "maxTaskRowsPerStage");
    assertInvalid(() -> EventLogs.reader().build().find(""), "no event log given");
    assertInvalid(() -> SparkJson.parseDate("yesterday"), "yesterday");
    assertInvalid(() -> new LineReader(new ByteArrayInputStream(new byte[0]), 0), "maxLineBytes");
    assertInvalid(() -> new LogLine(-1, 0, "x", false, 1), "number");
    assertInvalid(() -> ByteSources.defaults().open("file://bad host/x"), "file://bad host/x");
  }

  private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String named) {
    assertThatThrownBy(call).isInstanceOf(InvalidRequestException.class).hasMessageContaining(named);
  }

  @Test
  void theRouterAnswersMalformedPercentEncodingWith400() {
    Path log = TestkitFixtures.get("3.5.9", "bad-record").eventLog();
    RestRouter router = RestRouter.over(EventLogs.reader().build().history(log.getParent().toString()));

    ApiResponse path = router.get("applications/%zz");
    ApiResponse query = router.get("applications?minDate=%zz");
    ApiResponse date = router.get("applications?minDate=yesterday");

    assertThat(path.status()).isEqualTo(400);
    assertThat(path.body()).contains("Malformed percent-encoding in the path");
    assertThat(query.status()).isEqualTo(400);
    assertThat(date.status()).isEqualTo(400);
    assertThat(date.body()).contains("Couldn't parse date: yesterday");
  }

  // ---- the translation itself -----------------------------------------------------------------

  @Test
  void ioExceptionsBecomeTheSubclassForWhatHappenedWithTheInputNamedAndTheCauseKept() {
    record Case(IOException io, Class<? extends SparkRcaException> type, String says) {}
    List<Case> cases = List.of(
        new Case(new NoSuchFileException("/logs/app-1"), InputNotFoundException.class, "not found"),
        new Case(new FileNotFoundException("/logs/app-1 (No such file or directory)"), InputNotFoundException.class, "not found"),
        new Case(new java.nio.file.AccessDeniedException("/logs/app-1"), AccessDeniedException.class, "denied"),
        new Case(new FileNotFoundException("/logs/app-1 (Permission denied)"), AccessDeniedException.class, "denied"),
        new Case(new IOException("Is a directory"), UnsupportedInputException.class, "is a directory"),
        new Case(new EOFException("Unexpected end of ZLIB input stream"), CorruptInputException.class, "truncated"),
        new Case(new ZipException("invalid stored block lengths"), CorruptInputException.class, "corrupt"),
        new Case(new IOException("Connection reset"), SparkRcaException.class, "I/O error"));
    for (Case c : cases) {
      SparkRcaException e = IoErrors.translate("/logs/app-1", c.io());
      assertThat(e).as(c.io().toString()).isExactlyInstanceOf(c.type());
      assertThat(e.getMessage()).contains("/logs/app-1").contains(c.says());
      assertThat(e.getCause()).isSameAs(c.io());
    }
    SparkRcaException wrapped = IoErrors.translate("/logs/app-1", new UncheckedIOException(new NoSuchFileException("/logs/app-1")));
    assertThat(wrapped).isInstanceOf(InputNotFoundException.class);
    InputNotFoundException inner = new InputNotFoundException("gs://b/app-1", "check the bucket");
    assertThat(IoErrors.translate("gs://b/app-1", new IOException("wrapped", inner))).isSameAs(inner);
    assertThat(IoErrors.translate("https://u:p4ss@host/x", new IOException("boom")).getMessage())
        .doesNotContain("p4ss");
  }

  private static Path committedZstdEventsFile() throws IOException {
    Path rolling = TestkitFixtures.get("4.0.4", "bad-record").eventLog();
    try (Stream<Path> s = Files.list(rolling)) {
      return s.filter(p -> p.getFileName().toString().startsWith("events_")).findFirst().orElseThrow();
    }
  }
}

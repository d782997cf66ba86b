package io.sparkrca.gcp.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.testing.FakeGcs;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real google-cloud-storage client over the JSON API against a loopback fake: ranged reads,
 * the two-request tail of a huge object, driver output parts, listing, and the faults.
 */
class GcsByteSourceTest {
  private static FakeGcs gcs;
  private static ByteSources bytes;

  @BeforeAll
  static void start() throws Exception {
    gcs = new FakeGcs();
    // The conventional variable, read by GcpSettings (the Java client does not read it itself).
    GcpSettings s = GcpSettings.builder().environment(Map.of("STORAGE_EMULATOR_HOST", gcs.host()))
        .retries(2, Duration.ofMillis(10)).build();
    bytes = ByteSources.builder().add(GcsByteSourceProvider.of(s)).build();
  }

  @AfterAll
  static void stop() {
    gcs.close();
  }

  @BeforeEach
  void behave() {
    gcs.ignoreRange(false).failWith(0);
    gcs.reset();
  }

  @Test
  void readsAnObjectWholeAndByRange() throws Exception {
    String text = "line one\nline two\nline three\n".repeat(10);
    gcs.put("b", "logs/driver.log", text);
    ByteSource src = bytes.open("gs://b/logs/driver.log");
    assertThat(src.size()).hasValue(text.length());
    assertThat(new String(src.read(9, 8), StandardCharsets.UTF_8)).isEqualTo("line two");
    try (InputStream in = src.openStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(text);
    }
    try (InputStream in = src.openStream(text.length() - 11)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("line three\n");
    }
    assertThat(gcs.log()).allMatch(l -> l.contains("alt=media"), "no metadata request is needed to learn the size");
  }

  @Test
  void theHttpsFormNamesTheSameObject() throws Exception {
    gcs.put("my-bucket", "a dir/x.log", "hello\n");
    ByteSource src = bytes.open("https://storage.googleapis.com/my-bucket/a%20dir/x.log");
    assertThat(src.name()).isEqualTo("gs://my-bucket/a dir/x.log");
    assertThat(new String(src.read(0, 5), StandardCharsets.UTF_8)).isEqualTo("hello");
  }

  @Test
  void tailOfAFiveGigabyteObjectIsTwoRequestsAndAboutTheWindow() {
    long size = 5L << 30;
    gcs.putVirtual("big", "driver.log", size, FakeGcsContent::logLines);
    LogLines last = LogStream.builder().sources(bytes).build("gs://big/driver.log").tail(100);
    assertThat(last.lines()).hasSize(100);
    assertThat(last.lines().get(99).text()).isEqualTo(FakeGcsContent.lineEndingAt(size));
    assertThat(gcs.requests()).as("requests for the tail: %s", gcs.log()).isLessThanOrEqualTo(2);
    assertThat(gcs.mediaBytes()).isBetween(64L, 1L << 20 + 1);
  }

  @Test
  void aRangeAnsweredWithTheWholeObjectIsDetectedAndNotReadToTheEnd() {
    long size = 200L << 20;
    gcs.putVirtual("big", "ignored.log", size, FakeGcsContent::logLines);
    gcs.ignoreRange(true);
    assertThatThrownBy(() -> LogStream.builder().sources(bytes).build("gs://big/ignored.log").tail(10))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("gs://big/ignored.log")
        .hasMessageContaining("ignored the Range request")
        .hasMessageContaining("stopped rather than download it all");
    assertThat(gcs.mediaBytes()).as("bytes the fake got out before the client hung up").isLessThan(size / 4);
  }

  @Test
  void driverOutputPartsAreReadAsOneLogInPartOrder() {
    String base = "google-cloud-dataproc-metainfo/c1/jobs/job-1/driveroutput";
    gcs.put("b", base + ".000000000", "first part\n");
    gcs.put("b", base + ".000000001", "second part\nERROR the end\n");
    gcs.put("b", base + ".000000002", "");
    gcs.put("b", base + "_old", "not a part\n");
    LogLines tail = LogStream.builder().sources(bytes).build("gs://b/" + base).tail(10);
    assertThat(tail.lines()).extracting(LogLine::text).containsExactly("first part", "second part", "ERROR the end");
  }

  @Test
  void listsPrefixesLikeDirectories() {
    gcs.put("b", "events/app-1", "{}\n").put("b", "events/eventlog_v2_app-2/events_1_app-2", "{}\n")
        .put("b", "events/eventlog_v2_app-2/appstatus_app-2", "");
    List<SourceEntry> entries = bytes.list("gs://b/events");
    assertThat(entries).extracting(SourceEntry::name).containsExactly("app-1", "eventlog_v2_app-2");
    assertThat(entries.get(1).directory()).isTrue();
    assertThat(bytes.isDirectory("gs://b/events/eventlog_v2_app-2")).isTrue();
    assertThat(bytes.isDirectory("gs://b/events/app-1")).isFalse();
    assertThat(bytes.list("gs://b/events/app-1")).isEmpty();
    assertThatThrownBy(() -> bytes.list("gs://b/nothing-here")).isInstanceOf(InputNotFoundException.class);
  }

  @Test
  void aRollingEventLogInTheBucketReplaysAsTheLocalCopyDoes() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.all().stream()
        .filter(x -> Files.isDirectory(x.eventLog()) && x.eventLog().getFileName().toString().startsWith("eventlog_v2_"))
        .findFirst().orElseThrow();
    Path dir = f.eventLog();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        gcs.put("logs", "spark-events/" + dir.getFileName() + "/" + p.getFileName(), Files.readAllBytes(p));
      }
    }
    var local = EventLogs.replay(dir);
    var remote = EventLogs.reader().sources(bytes).build().replay("gs://logs/spark-events/" + dir.getFileName());
    assertThat(remote.info().id()).isEqualTo(local.info().id());
    assertThat(remote.stages(StageQuery.all())).hasSameSizeAs(local.stages(StageQuery.all()));
    assertThat(remote.facts().taskFailures()).hasSameSizeAs(local.facts().taskFailures());
  }

  @Test
  void aMissingObjectAndADeniedOneSayWhatToDo() {
    assertThatThrownBy(() -> bytes.open("gs://b/missing.log").size())
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("gs://b/missing.log");
    gcs.put("b", "secret.log", "x");
    gcs.failWith(403);
    assertThatThrownBy(() -> bytes.open("gs://b/secret.log").size())
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 403")
        .hasMessageContaining("roles/storage.objectViewer");
  }

  @Test
  void theServiceLoaderRegistersTheProviderForGsAndStorageUrls() {
    assertThat(ByteSources.defaults().providerFor("gs://b/o")).isInstanceOf(GcsByteSourceProvider.class);
    assertThat(ByteSources.defaults().providerFor("https://storage.googleapis.com/b/o")).isInstanceOf(GcsByteSourceProvider.class);
    assertThat(ByteSources.defaults().providerFor("https://example.com/b/o")).isNotInstanceOf(GcsByteSourceProvider.class);
  }
}

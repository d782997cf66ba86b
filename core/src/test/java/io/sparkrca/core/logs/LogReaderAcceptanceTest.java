package io.sparkrca.core.logs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.io.TestHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance tests of the Python log reader, spark_gcs_log_reader.py (class
 * SparkGcsLogReaderTest), ported to LogStream. Each test names the Python test it replaces. {@code
 * test_summarize_events_gz} belongs to the event-log summarizer (the {@code events} action).
 */
class LogReaderAcceptanceTest {
  @TempDir Path dir;

  /** test_gcs_reads_verify_tls_with_the_shared_context (TLS itself: HttpsTrustTest). */
  @Test
  void remoteRangeAndFullReadsBothCarryTheCredentials() throws IOException {
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/logs/app.log", TestHttpServer.Content.of("log line\n"));
      ByteSource s =
          HttpByteSourceProvider.of(HttpSettings.builder().header("Authorization", "Bearer tok").build())
              .open(server.url("/logs/app.log"));

      assertThat(s.read(0, 9)).isEqualTo("log line\n".getBytes(UTF_8));
      try (InputStream in = s.openStream()) {
        assertThat(in.readAllBytes()).isEqualTo("log line\n".getBytes(UTF_8));
      }

      assertThat(server.requests()).hasSize(2);
      assertThat(server.requests()).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer tok"));
      assertThat(server.requests().get(0).header("Range")).isEqualTo("bytes=0-8");
    }
  }

  /** test_parse_gcs_uri: which reader serves which URI (gs:// comes with sparkrca-gcp). */
  @Test
  void urisGoToTheirProviders() throws IOException {
    ByteSources sources = ByteSources.defaults();
    assertThatThrownBy(() -> sources.open("gs://my-bucket/path/to/driveroutput"))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("sparkrca-gcp");
    assertThat(sources.providerFor("https://storage.googleapis.com/my-bucket/logs/app.log"))
        .isInstanceOf(HttpByteSourceProvider.class);
    Path local = dir.resolve("app.log");
    Files.writeString(local, "x\n");
    assertThat(sources.open(local.toString()).name()).isEqualTo(local.toString());
  }

  /** test_tail_local_file. */
  @Test
  void tailOfALocalFileGivesExactlyTheLastLines() throws IOException {
    Path log = dir.resolve("test.log");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      sb.append("Log line ").append(i).append('\n');
    }
    Files.writeString(log, sb);
    LogStream stream = LogStream.open(log.toString());

    assertThat(stream.source().size()).hasValue(Files.size(log));
    assertThat(stream.tail(5).lines()).extracting(LogLine::text)
        .containsExactly("Log line 95", "Log line 96", "Log line 97", "Log line 98", "Log line 99");
  }

  /** test_search_local_file. */
  @Test
  void searchFindsTheOomWithContext() throws IOException {
    Path log = dir.resolve("test.log");
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 50; i++) {
      sb.append(i == 26 ? "java.lang.OutOfMemoryError: Java heap space" : "Normal log line " + i).append('\n');
    }
    Files.writeString(log, sb);

    SearchResult r = LogStream.open(log.toString()).search(SearchQuery.literal("OutOfMemoryError").withContext(2));
    String out = LogText.search(r);

    assertThat(out).contains("Match #1 at line 26").contains("OutOfMemoryError").contains("Normal log line 24");
    assertThat(out).contains("      24 | Normal log line 24").contains(">     26 | java.lang.OutOfMemoryError");
  }

  /** test_read_range_rejects_unbounded_request (validated before any I/O: the file does not exist). */
  @Test
  void rangeRejectsAnUnboundedRequestBeforeReading() throws IOException {
    LogStream missing = LogStream.of(ByteSource.of(dir.resolve("missing.log")));
    assertThatThrownBy(() -> missing.range(1, 10_000_000))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("requested 10000000 lines, which exceeds the 5000-line cap");
  }

  /** test_search_is_case_insensitive_when_requested. */
  @Test
  void searchIsCaseInsensitiveOnlyWhenRequested() throws IOException {
    Path log = dir.resolve("case.log");
    Files.writeString(log, "Java Heap Space exhausted\n");
    LogStream s = LogStream.open(log.toString());

    assertThat(LogText.search(s.search(SearchQuery.literal("java heap space"))))
        .contains("Total matches found: 0");
    assertThat(LogText.search(s.search(SearchQuery.literal("java heap space").withIgnoreCase(true))))
        .contains("Total matches found: 1");
  }

  /** test_compression_detected_without_extension (the summary half is the events action's). */
  @Test
  void compressionIsDetectedWithoutAnExtension() throws IOException {
    Path log = dir.resolve("application_1700000000000_0001");
    String events =
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
            + "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"NoExtJob\",\"App ID\":\"app-noext\"}\n"
            + "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":5000}\n";
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(events.getBytes(UTF_8));
    }
    Files.write(log, gz.toByteArray());
    LogStream s = LogStream.open(log.toString());

    assertThat(s.info().compressed()).isTrue();
    String text = LogText.lines(s.head(3));
    assertThat(text).contains("app-noext").contains("3.5.1");
  }

  /** test_plain_file_is_not_reported_as_compressed. */
  @Test
  void plainFileIsNotReportedAsCompressed() throws IOException {
    Path log = dir.resolve("plain.log");
    Files.writeString(log, "just text\n");
    assertThat(LogStream.open(log.toString()).info().compressed()).isFalse();
  }

  /** test_driveroutput_prefix_is_left_alone_for_local_paths (when it has no numbered parts). */
  @Test
  void driveroutputPrefixWithoutPartsIsLeftAlone() throws IOException {
    Path prefix = dir.resolve("driveroutput");
    assertThat(LogStream.open(prefix.toString()).source().name()).isEqualTo(prefix.toString());
  }
}

package io.sparkrca.core.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.SyntheticLog;
import io.sparkrca.core.io.TestHttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LogStream over HTTP: what is fetched, counted on the server side. */
class LogStreamRemoteTest {
  private static final long FIVE_GIB = 5L << 30;
  private TestHttpServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestHttpServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private LogStream open(String path) throws IOException {
    return LogStream.builder()
        .sources(ByteSources.builder().add(HttpByteSourceProvider.defaults()).build())
        .build(server.url(path));
  }

  @Test
  void tailOfAFiveGibObjectFetchesOneSmallWindowInTwoRequests() throws IOException {
    server.serve("/big.log", new SyntheticLog(FIVE_GIB));

    LogLines tail = open("/big.log").tail(100);

    long last = SyntheticLog.lines(FIVE_GIB);
    assertThat(tail.lines()).hasSize(100);
    assertThat(tail.lines().get(99).text()).isEqualTo(SyntheticLog.line(last));
    assertThat(tail.lines().get(0).text()).isEqualTo(SyntheticLog.line(last - 99));
    assertThat(tail.lines().get(0).byteOffset()).isEqualTo(FIVE_GIB - 100 * SyntheticLog.LINE);
    assertThat(server.requests()).hasSizeLessThanOrEqualTo(2);
    assertThat(server.bodyBytesSent()).isLessThanOrEqualTo(1 << 20);
  }

  @Test
  void searchThatReachesItsLimitClosesTheStreamAndCancelsTheDownload() throws Exception {
    long size = 512L << 20;
    server.serve("/big.log", new SyntheticLog(size));

    SearchResult r = open("/big.log").search(SearchQuery.regex("task line 00000000[0-9]2 ").withMaxMatches(2).withContext(1));

    assertThat(r.matches()).extracting(m -> m.line().number()).containsExactly(2L, 12L);
    assertThat(r.linesScanned()).isEqualTo(13);
    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(size / 8);
  }

  @Test
  void tailOnAServerThatIgnoresRangeStopsAndSaysSo() throws Exception {
    server.serve("/big.log", new SyntheticLog(FIVE_GIB)).rangeSupported(false);

    assertThatThrownBy(() -> open("/big.log").tail(10))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("ignored the Range request");
    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(256L << 20);
  }

  @Test
  void remoteCompressedLogIsStreamedForTailWithLineNumbers() throws IOException {
    byte[] zst = LogStreamTest.compress(Compression.ZSTD, LogStreamTest.numberedLog(3000).getBytes(StandardCharsets.UTF_8));
    server.serve("/app-1", TestHttpServer.Content.of(zst));

    LogStream log = open("/app-1");
    assertThat(log.info().compression()).isEqualTo(Compression.ZSTD);
    LogLines tail = log.tail(2);
    assertThat(tail.lines()).extracting(LogLine::number).containsExactly(2999L, 3000L);
    assertThat(tail.compression()).isEqualTo(Compression.ZSTD);
  }

  @Test
  void infoOfARemoteObjectIsOneSmallRequest() throws IOException {
    server.serve("/big.log", new SyntheticLog(FIVE_GIB));
    LogInfo info = open("/big.log").info();
    assertThat(info.size()).hasValue(FIVE_GIB);
    assertThat(info.large()).isTrue();
    assertThat(info.compressed()).isFalse();
    assertThat(server.requests()).hasSize(1);
    assertThat(server.bodyBytesSent()).isEqualTo(64);
  }
}

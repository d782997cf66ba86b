package io.sparkrca.core.io;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpByteSourceTest {
  private TestHttpServer server;
  private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void start() throws IOException {
    server = TestHttpServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpSettings.Builder http() {
    return HttpSettings.builder()
        .sleeper(sleeps::add)
        .backoff(Duration.ofMillis(100), Duration.ofSeconds(2));
  }

  private static HttpByteSourceProvider provider(HttpSettings.Builder settings) {
    return HttpByteSourceProvider.of(settings.build());
  }

  private static byte[] text(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < n; i++) {
      sb.append("line ").append(i).append('\n');
    }
    return sb.substring(0, n).getBytes(UTF_8);
  }

  @Test
  void rangedReadIsOneRequestWithAValidatedContentRange() throws IOException {
    byte[] data = text(10_000);
    server.serve("/log", TestHttpServer.Content.of(data));
    ByteSource s = provider(http()).open(server.url("/log"));

    byte[] got = s.read(100, 50);

    assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, 100, 150));
    assertThat(server.requests()).hasSize(1);
    assertThat(server.requests().get(0).header("Range")).isEqualTo("bytes=100-149");
  }

  @Test
  void sizeComesFromOneSmallRangedRequestWhoseBytesAreKeptForCodecDetection() throws IOException {
    server.serve("/log", TestHttpServer.Content.of(text(5000)));
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThat(s.size()).hasValue(5000);
    assertThat(s.read(0, 16)).isEqualTo(java.util.Arrays.copyOf(text(5000), 16));

    assertThat(s.lastModified()).contains(java.time.Instant.parse("2024-05-01T12:00:00Z"));
    assertThat(server.requests()).hasSize(1);
    assertThat(server.requests().get(0).header("Range")).isEqualTo("bytes=0-63");
    assertThat(server.bodyBytesSent()).isEqualTo(64);
  }

  @Test
  void readPastTheEndIsEmptyAndAnEmptyObjectHasSizeZero() throws IOException {
    server.serve("/log", TestHttpServer.Content.of(text(100)));
    server.serve("/empty", TestHttpServer.Content.of(new byte[0]));
    HttpByteSourceProvider http = provider(http());

    assertThat(http.open(server.url("/log")).read(500, 10)).isEmpty();
    assertThat(http.open(server.url("/empty")).size()).hasValue(0);
  }

  @Test
  void streamFromAnOffsetReadsTheRestWithOneRangedRequest() throws IOException {
    byte[] data = text(300_000);
    server.serve("/log", TestHttpServer.Content.of(data));
    try (InputStream in = provider(http()).open(server.url("/log")).openStream(1234)) {
      assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 1234, data.length));
    }
    assertThat(server.requests()).singleElement().satisfies(r -> assertThat(r.header("Range")).isEqualTo("bytes=1234-"));
  }

  @Test
  void serverThatIgnoresRangeIsDetectedAndNotReadToTheEnd() throws Exception {
    long size = 256L << 20;
    server.serve("/big", new SyntheticLog(size)).rangeSupported(false);
    ByteSource s = provider(http()).open(server.url("/big"));

    assertThatThrownBy(() -> s.read(size - 1000, 1000))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("ignored the Range request")
        .hasMessageContaining("200 with the whole object")
        .hasMessageContaining("stopped rather than download it all");
    assertThatThrownBy(() -> s.openStream(5000).close()).isInstanceOf(UnsupportedInputException.class);

    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(size / 4);
  }

  @Test
  void rangeFromZeroOnAServerIgnoringRangeKeepsOnlyWhatWasAskedAndAbortsTheRest() throws Exception {
    long size = 256L << 20;
    server.serve("/big", new SyntheticLog(size)).rangeSupported(false);
    ByteSource s = provider(http()).open(server.url("/big"));

    assertThat(new String(s.read(0, 20), US_ASCII)).isEqualTo(SyntheticLog.line(1).substring(0, 20));
    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(size / 4);
  }

  @Test
  void missingCredentialsGiveA401MessageThatSaysHowToPassThem() {
    server.serve("/log", TestHttpServer.Content.of("x\n")).requireAuthorization("Bearer good");
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThatThrownBy(() -> s.read(0, 10))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 401")
        .hasMessageContaining("HttpSettings.builder().header(\"Authorization\", \"Bearer TOKEN\")")
        .hasMessageNotContaining("--header");
  }

  @Test
  void rejectedCredentialsGiveA403MessageWithoutTheToken() {
    server.serve("/log", TestHttpServer.Content.of("x\n")).requireAuthorization("Bearer good");
    ByteSource s = provider(http().header("Authorization", "Bearer s3cr3t-token-value")).open(server.url("/log"));

    assertThatThrownBy(() -> s.read(0, 10))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 403")
        .hasMessageContaining("read access")
        .hasMessageNotContaining("s3cr3t");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer s3cr3t-token-value");
  }

  @Test
  void credentialsFromASupplierAreComputedPerRequest() throws IOException {
    server.serve("/log", TestHttpServer.Content.of("x\n")).requireAuthorization("Bearer fresh");
    ByteSource s =
        provider(http().headers(() -> Map.of("Authorization", "Bearer fresh"))).open(server.url("/log"));
    assertThat(s.read(0, 2)).isEqualTo("x\n".getBytes(UTF_8));
  }

  @Test
  void missingObjectIsNotFoundWithWhatToCheck() {
    ByteSource s = provider(http()).open(server.url("/nothing-here?X-Goog-Signature=abcdef0123456789"));
    assertThatThrownBy(() -> s.size())
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining("check the URL")
        .hasMessageNotContaining("abcdef0123456789");
    assertThat(s.name()).doesNotContain("abcdef0123456789");
  }

  @Test
  void credentialsInTheUrlBecomeBasicAuthAndStayOutOfTheName() throws IOException {
    server.serve("/log", TestHttpServer.Content.of("x\n"));
    String url = server.url("/log").replace("http://", "http://alice:pa55word@");
    ByteSource s = provider(http()).open(url);

    assertThat(s.read(0, 2)).hasSize(2);
    assertThat(s.name()).doesNotContain("pa55word").doesNotContain("alice");
    assertThat(server.requests().get(0).header("Authorization"))
        .isEqualTo("Basic " + Base64.getEncoder().encodeToString("alice:pa55word".getBytes(UTF_8)));
  }

  @Test
  void serviceUnavailableIsRetriedAfterTheDelayInRetryAfter() throws IOException {
    server.serve("/log", TestHttpServer.Content.of("hello\n"))
        .enqueue("/log", 503, Map.of("Retry-After", "3"));
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThat(s.read(0, 6)).isEqualTo("hello\n".getBytes(UTF_8));
    assertThat(sleeps).containsExactly(Duration.ofSeconds(3));
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void tooManyRequestsIsRetriedWithGrowingJitteredBackoff() throws IOException {
    server.serve("/log", TestHttpServer.Content.of("hello\n"))
        .enqueue("/log", 429, Map.of())
        .enqueue("/log", 429, Map.of())
        .enqueue("/log", 500, Map.of());
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThat(s.read(0, 6)).isEqualTo("hello\n".getBytes(UTF_8));
    assertThat(sleeps).hasSize(3);
    assertThat(sleeps.get(0).toMillis()).isBetween(50L, 100L);
    assertThat(sleeps.get(1).toMillis()).isBetween(100L, 200L);
    assertThat(sleeps.get(2).toMillis()).isBetween(200L, 400L);
  }

  @Test
  void persistentServerErrorsGiveUpAfterTheRetriesWithAClearMessage() {
    server.serve("/log", TestHttpServer.Content.of("hello\n"));
    for (int i = 0; i < 5; i++) {
      server.enqueue("/log", 503, Map.of());
    }
    ByteSource s = provider(http().maxRetries(2)).open(server.url("/log"));

    assertThatThrownBy(() -> s.read(0, 6))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("HTTP 503 Service Unavailable after 3 attempts")
        .hasMessageContaining("try again later");
    assertThat(server.requests()).hasSize(3);
  }

  @Test
  void retryAfterLongerThanTheCapFailsAtOnceInsteadOfWaiting() {
    server.serve("/log", TestHttpServer.Content.of("hello\n"))
        .enqueue("/log", 429, Map.of("Retry-After", "3600"));
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThatThrownBy(() -> s.read(0, 6))
        .hasMessageContaining("retry after 3600 s")
        .hasMessageContaining("longer than the 120 s");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void redirectsAreFollowedAndCredentialsAreNotSentToAnotherOrigin() throws IOException {
    try (TestHttpServer other = TestHttpServer.start()) {
      other.serve("/moved", TestHttpServer.Content.of("moved\n"));
      server.serve("/same", TestHttpServer.Content.of("same\n"));
      server.redirect("/old", other.url("/moved"));
      server.redirect("/alias", "/same");
      HttpByteSourceProvider http = provider(http().header("Authorization", "Bearer tok-123"));

      assertThat(http.open(server.url("/old")).read(0, 6)).isEqualTo("moved\n".getBytes(UTF_8));
      assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-123");
      assertThat(other.requests().get(0).header("Authorization")).isNull();

      assertThat(http.open(server.url("/alias")).read(0, 5)).isEqualTo("same\n".getBytes(UTF_8));
      assertThat(server.requests().get(2).header("Authorization")).isEqualTo("Bearer tok-123");
    }
  }

  @Test
  void closingAStreamEarlyCancelsTheTransfer() throws Exception {
    long size = 256L << 20;
    server.serve("/big", new SyntheticLog(size));
    try (InputStream in = provider(http()).open(server.url("/big")).openStream()) {
      assertThat(in.readNBytes(SyntheticLog.LINE)).isEqualTo((SyntheticLog.line(1) + "\n").getBytes(US_ASCII));
    }
    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(size / 4);
  }

  @Test
  void connectionResetMidStreamIsResumedFromTheOffsetWhereItStopped() throws Exception {
    byte[] data = text(200_000);
    try (RawServer raw = new RawServer(data, attempt -> "\"v1\"", 70_000)) {
      ByteSource s = provider(http()).open(raw.url());
      byte[] got;
      try (InputStream in = s.openStream()) {
        got = in.readAllBytes();
      }
      assertThat(got).isEqualTo(data);
      assertThat(raw.requests).hasSize(2);
      assertThat(raw.requests.get(0)).doesNotContainIgnoringCase("range:");
      assertThat(raw.requests.get(1)).containsIgnoringCase("range: bytes=70000-");
      assertThat(sleeps).hasSize(1);
    }
  }

  @Test
  void resumeRefusesAnObjectThatChangedInBetween() throws Exception {
    byte[] data = text(200_000);
    try (RawServer raw = new RawServer(data, attempt -> "\"v" + attempt + "\"", 70_000)) {
      ByteSource s = provider(http()).open(raw.url());
      assertThatThrownBy(
              () -> {
                try (InputStream in = s.openStream()) {
                  in.readAllBytes();
                }
              })
          .isInstanceOf(CorruptInputException.class)
          .hasMessageContaining("changed while it was being read");
    }
  }

  @Test
  void stalledBodyTimesOutInsteadOfHanging() throws Exception {
    byte[] data = text(100_000);
    try (RawServer raw = new RawServer(data, attempt -> "\"v1\"", 10_000)) {
      raw.stallInsteadOfReset = true;
      ByteSource s =
          provider(http().readTimeout(Duration.ofMillis(300)).maxRetries(0)).open(raw.url());
      assertThatThrownBy(
              () -> {
                try (InputStream in = s.openStream()) {
                  in.readAllBytes();
                }
              })
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("no data received");
    }
  }

  @Test
  void aBodyThatTricklesInUnderTheReadTimeoutStillEndsAtIt() throws Exception {
    byte[] data = text(100_000);
    try (RawServer raw = new RawServer(data, attempt -> "\"v1\"", 10_000)) {
      raw.trickleMillis = 50; // a byte every 50 ms: a plain idle timeout of 500 ms never fires
      ByteSource s = provider(http().readTimeout(Duration.ofMillis(500)).maxRetries(0)).open(raw.url());
      assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        try (InputStream in = s.openStream()) {
          in.readAllBytes();
        }
      }))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("bytes received in 500 ms of waiting")
          .hasMessageContaining("the server sends too slowly or has stalled");
    }
  }

  @Test
  void aRedirectToAnythingButAnHttpUrlWithAHostIsRefusedByName() {
    server.redirect("/ftp", "ftp://evil.example/x");
    server.redirect("/nohost", "http:///x/y");
    HttpByteSourceProvider http = provider(http());

    for (String path : List.of("/ftp", "/nohost")) {
      assertThatThrownBy(() -> http.open(server.url(path)).read(0, 6))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("GET " + server.url(path) + ": the server redirects to")
          .hasMessageContaining("not an http(s) URL with a host; refused");
    }
  }

  @Test
  void aHeaderValueHttpCannotCarryIsRefusedByItsNameWithoutItsValue() {
    assertThatThrownBy(() -> http().header("Authorization", "Bearer s3cr\u20acTOKEN"))
        .isInstanceOf(io.sparkrca.core.error.InvalidRequestException.class)
        .hasMessageContaining("HTTP header Authorization has a character HTTP cannot carry (one outside Latin-1")
        .hasMessageNotContaining("s3cr");
    assertThatThrownBy(() -> http().header("Cookie", "session=abc\u007fDEFSECRET"))
        .hasMessageContaining("a control character").hasMessageNotContaining("DEFSECRET");
    assertThatThrownBy(() -> http().header("X Bad", "v")).hasMessageContaining("invalid HTTP header name 'X Bad'");

    server.serve("/log", TestHttpServer.Content.of("hello\n"));
    ByteSource computed = provider(http().headers(() -> Map.of("Authorization", "Bearer fre\u0001shSECRET")))
        .open(server.url("/log"));
    assertThatThrownBy(() -> computed.read(0, 6))
        .isInstanceOf(io.sparkrca.core.error.InvalidRequestException.class)
        .hasMessageContaining("Authorization").hasMessageNotContaining("SECRET");
    assertThat(server.requests()).as("nothing sent").isEmpty();
  }

  @Test
  void retryWaitsOfOneRequestStayWithinTheRetryAfterCapInAll() {
    server.serve("/log", TestHttpServer.Content.of("hello\n"));
    for (int i = 0; i < 5; i++) {
      server.enqueue("/log", 429, Map.of("Retry-After", "100"));
    }
    ByteSource s = provider(http()).open(server.url("/log"));

    assertThatThrownBy(() -> s.read(0, 6))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("HTTP 429 Too Many Requests after 2 attempts and 100 s of waiting")
        .hasMessageContaining("asks to wait 100 s more, past the 120 s this reader waits for one request");
    assertThat(sleeps).containsExactly(Duration.ofSeconds(100));
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void aPlainGetSendsTheUrlsCredentialsAsBasicAuthAndDropsThemFromTheUrl() throws IOException {
    server.serve("/api", TestHttpServer.Content.of("{}"));
    String url = server.url("/api").replace("http://", "http://bob:PASSWORD9@");

    try (HttpAnswer a = provider(http()).get(url)) {
      assertThat(a.uri().toString()).doesNotContain("PASSWORD9").doesNotContain("bob");
    }
    assertThat(server.requests().get(0).header("Authorization"))
        .isEqualTo("Basic " + Base64.getEncoder().encodeToString("bob:PASSWORD9".getBytes(UTF_8)));
  }

  @Test
  void refusedConnectionIsReportedAtOnceWithoutRetries() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    ByteSource s = provider(http().maxRetries(3)).open("http://127.0.0.1:" + port + "/log");
    assertThatThrownBy(() -> s.read(0, 1))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("connection refused")
        .hasMessageContaining("that the server is up");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void credentialsAreNotSentOverPlainHttpToAnotherHost() {
    ByteSource s = provider(http().bearerToken("tok-123")).open("http://logs.example.invalid/driver.log");
    assertThatThrownBy(() -> s.read(0, 1))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("refusing to send credentials over plain http to logs.example.invalid")
        .hasMessageNotContaining("tok-123");
  }

  @Test
  void aNameThatStartsLikeALoopbackAddressGetsNoCredentialsOverPlainHttp() {
    ByteSource s = provider(http().bearerToken("tok-123")).open("http://127.attacker.example/driver.log");
    assertThatThrownBy(() -> s.read(0, 1))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("refusing to send credentials over plain http to 127.attacker.example")
        .hasMessageNotContaining("tok-123");
  }

  @Test
  void aBearerTokenFromAnUnsetEnvironmentVariableFailsWhenTheSettingsAreBuilt() {
    assertThatThrownBy(() -> HttpSettings.builder().bearerTokenFromEnv("NO_SUCH_TOKEN", v -> null))
        .isInstanceOf(io.sparkrca.core.error.InvalidRequestException.class)
        .hasMessageContaining("NO_SUCH_TOKEN");
    assertThat(HttpSettings.builder().bearerTokenFromEnv("T", v -> "abc").build().headers())
        .containsEntry("Authorization", "Bearer abc");
    assertThat(HttpSettings.builder().bearerToken("abc").build().toString()).doesNotContain("abc");
  }

  @Test
  void contentRangeIsParsed() {
    assertThat(HttpByteSource.ContentRange.parse("bytes 0-63/1000"))
        .contains(new HttpByteSource.ContentRange(0, 63, 1000));
    assertThat(HttpByteSource.ContentRange.parse("bytes */1000"))
        .contains(new HttpByteSource.ContentRange(-1, -1, 1000));
    assertThat(HttpByteSource.ContentRange.parse("bytes 5-9/*"))
        .contains(new HttpByteSource.ContentRange(5, 9, -1));
    assertThat(HttpByteSource.ContentRange.parse("items 0-1/2")).isEmpty();
  }

  @Test
  void providerClaimsHttpAndHttpsOnlyAndTheDefaultsIncludeIt() {
    HttpByteSourceProvider http = HttpByteSourceProvider.defaults();
    assertThat(http.supports("https://h/x")).isTrue();
    assertThat(http.supports("HTTP://h/x")).isTrue();
    assertThat(http.supports("gs://b/x")).isFalse();
    assertThat(ByteSources.defaults().providerFor("https://example.com/x")).isInstanceOf(HttpByteSourceProvider.class);
  }

  /**
   * A one-request-per-connection HTTP/1.1 server on a raw socket. The first answer sends {@code
   * cutAt} bytes of a 200 and then resets the connection (or stalls); later answers serve ranges.
   */
  static final class RawServer implements AutoCloseable {
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final ServerSocket socket;
    private final Thread thread;
    volatile boolean stallInsteadOfReset;
    /** Above 0: the first answer's body goes out one byte per this many milliseconds. */
    volatile long trickleMillis;

    RawServer(byte[] data, IntFunction<String> etagForAttempt, int cutAt) throws IOException {
      socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
      thread =
          new Thread(
              () -> {
                int attempt = 0;
                while (!socket.isClosed()) {
                  try (Socket c = socket.accept()) {
                    attempt++;
                    String head = readHead(c.getInputStream());
                    requests.add(head);
                    OutputStream out = c.getOutputStream();
                    String etag = etagForAttempt.apply(attempt);
                    java.util.regex.Matcher m =
                        java.util.regex.Pattern.compile("(?i)range: bytes=(\\d+)-").matcher(head);
                    if (attempt == 1) {
                      out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + data.length + "\r\nETag: " + etag
                              + "\r\nConnection: close\r\n\r\n").getBytes(US_ASCII));
                      if (trickleMillis > 0) {
                        for (int i = 0; i < cutAt; i++) {
                          out.write(data[i]);
                          out.flush();
                          Thread.sleep(trickleMillis);
                        }
                      }
                      out.write(data, 0, cutAt);
                      out.flush();
                      if (stallInsteadOfReset) {
                        Thread.sleep(5000);
                      } else {
                        c.setSoLinger(true, 0); // close with RST: a connection reset
                      }
                    } else if (m.find()) {
                      int from = Integer.parseInt(m.group(1));
                      out.write(("HTTP/1.1 206 Partial Content\r\nContent-Length: " + (data.length - from)
                              + "\r\nContent-Range: bytes " + from + "-" + (data.length - 1) + "/" + data.length
                              + "\r\nETag: " + etag + "\r\nConnection: close\r\n\r\n").getBytes(US_ASCII));
                      out.write(data, from, data.length - from);
                      out.flush();
                    }
                  } catch (IOException | InterruptedException e) {
                    if (socket.isClosed()) {
                      return;
                    }
                  }
                }
              },
              "raw-http");
      thread.setDaemon(true);
      thread.start();
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/log";
    }

    static String readHead(InputStream in) throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      int state = 0;
      while (state < 4) {
        int c = in.read();
        if (c < 0) {
          break;
        }
        b.write(c);
        state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
      }
      return b.toString(US_ASCII);
    }

    @Override
    public void close() throws IOException {
      socket.close();
      thread.interrupt();
    }
  }
}

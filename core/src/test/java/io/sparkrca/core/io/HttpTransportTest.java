package io.sparkrca.core.io;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transport itself, over real HTTP against loopback servers: the authentication hook, whole
 * answers read by a {@link HttpTransport.BodyReader} (retried as a whole, bounded in time and
 * size), error answers for callers that word them, POST. Ranged reads, redirects, {@code
 * Retry-After} and the messages of file-like reads are proved through {@link HttpByteSource} in
 * {@link HttpByteSourceTest}.
 */
class HttpTransportTest {
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);

  private TestHttpServer server;
  private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void start() throws IOException {
    server = TestHttpServer.start();
    server.serve("/api", TestHttpServer.Content.of("{\"ok\": true}"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpSettings.Builder http() {
    return HttpSettings.builder().sleeper(sleeps::add).backoff(Duration.ofMillis(100), Duration.ofSeconds(2));
  }

  private static HttpTransport.Request get(String url) {
    return HttpTransport.Request.get(url).build();
  }

  private static String text(HttpAnswer a) throws IOException {
    return new String(a.readAll(1 << 20).orElseThrow(), UTF_8);
  }

  /** Bearer tokens t1, t2, ... and how often the server refused one. */
  private static final class RenewingAuth implements HttpAuth {
    final AtomicInteger version = new AtomicInteger(1);
    final AtomicInteger renewals = new AtomicInteger();

    @Override
    public Map<String, String> headers(URI uri) {
      return Map.of("Authorization", "Bearer t" + version.get());
    }

    @Override
    public boolean onUnauthorized(URI uri) {
      renewals.incrementAndGet();
      version.incrementAndGet();
      return true;
    }
  }

  @Test
  void aRejectedTokenIsRenewedByTheHookAndTheRequestSentOnceMoreAtOnce() throws IOException {
    server.enqueue("/api", 401, Map.of());
    RenewingAuth auth = new RenewingAuth();
    HttpTransport transport = HttpTransport.of(http().auth(auth).build());

    String answer = transport.send(get(server.url("/api")), HttpTransportTest::text);

    assertThat(answer).contains("ok");
    assertThat(server.requests()).extracting(r -> r.header("Authorization")).containsExactly("Bearer t1", "Bearer t2");
    assertThat(auth.renewals).hasValue(1);
    assertThat(sleeps).as("a renewal is not a retry that waits").isEmpty();
  }

  @Test
  void a401ToTheRenewedTokenIsFinalAndTheHookIsAskedOnce() {
    server.enqueue("/api", 401, Map.of()).enqueue("/api", 401, Map.of());
    RenewingAuth auth = new RenewingAuth();
    HttpTransport transport = HttpTransport.of(http().auth(auth).build());

    assertThatThrownBy(() -> transport.send(get(server.url("/api")), HttpTransportTest::text))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 401")
        .hasMessageContaining("the credentials sent were rejected")
        .hasMessageNotContaining("Bearer t");
    assertThat(auth.renewals).hasValue(1);
    assertThat(transport.requests()).isEqualTo(2);
  }

  @Test
  void theHooksCredentialsStayAtTheOriginWhenARedirectLeavesIt() throws IOException {
    try (TestHttpServer other = TestHttpServer.start()) {
      other.serve("/moved", TestHttpServer.Content.of("moved"));
      server.redirect("/old", other.url("/moved"));
      HttpTransport transport = HttpTransport.of(http().auth(new RenewingAuth()).build());

      String answer = transport.send(get(server.url("/old")), HttpTransportTest::text);

      assertThat(answer).isEqualTo("moved");

      assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer t1");
      assertThat(other.requests()).singleElement().satisfies(r -> assertThat(r.header("Authorization")).isNull());
    }
  }

  @Test
  void anAnswerThatStallsEndsAtTheExchangeTimeoutAndIsRetriedAsAWhole() throws Exception {
    try (StallingServer stalling = new StallingServer()) {
      HttpTransport transport = HttpTransport.of(http().exchangeTimeout(Duration.ofMillis(300)).maxRetries(1).build());

      assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
          () -> transport.send(get(stalling.url()), HttpTransportTest::text)))
          .isInstanceOf(HttpTimeoutException.class)
          .hasMessage("no complete answer within 300 ms");
      assertThat(stalling.requests).as("the first attempt and one retry").hasValue(2);
      assertThat(sleeps).hasSize(1);
    }
  }

  @Test
  void aWholeBodyIsReadUpToTheCapAndOneDeclaringMoreIsRefusedWithoutReadingIt() throws Exception {
    long size = 256L << 20;
    server.serve("/big", new SyntheticLog(size));
    HttpTransport transport = HttpTransport.of(http().build());

    Optional<byte[]> whole = transport.send(get(server.url("/api")), a -> a.readAll(12));
    Optional<byte[]> overByOne = transport.send(get(server.url("/api")), a -> a.readAll(11));
    Optional<byte[]> big = transport.send(get(server.url("/big")), a -> a.readAll(64 * 1024));

    assertThat(whole).hasValue("{\"ok\": true}".getBytes(UTF_8));
    assertThat(overByOne).isEmpty();
    assertThat(big).isEmpty();

    server.awaitIdle();
    assertThat(server.bodyBytesSent()).as("the big body was abandoned").isLessThan(size / 4);
  }

  @Test
  void aBodyThatBreaksOffIsRetriedAsAWholeWithinTheAttemptsStatusesUseToo() {
    server.enqueue("/api", 503, Map.of());
    HttpTransport transport = HttpTransport.of(http().maxRetries(2).build());
    AtomicInteger reads = new AtomicInteger();

    assertThatThrownBy(() -> transport.send(get(server.url("/api")), a -> {
      reads.incrementAndGet();
      throw new IOException("the connection broke after 3 bytes");
    })).isInstanceOf(IOException.class).hasMessage("the connection broke after 3 bytes");

    assertThat(transport.requests()).as("a 503, then two answers that broke off").isEqualTo(3);
    assertThat(reads).hasValue(2);
    assertThat(sleeps).hasSize(2);
  }

  @Test
  void errorAnswersAreTheCallersOnceTheRetriesAreOverOrTheServerAsksTooLongAWait() throws IOException {
    server.enqueue("/api", 503, Map.of()).enqueue("/api", 503, Map.of());
    HttpTransport transport = HttpTransport.of(http().maxRetries(1).build());
    HttpTransport.Request request = HttpTransport.Request.get(server.url("/api")).errorsAsAnswers().build();

    int exhausted = transport.send(request, HttpAnswer::status);
    assertThat(exhausted).isEqualTo(503);
    assertThat(transport.requests()).isEqualTo(2);

    server.enqueue("/api", 429, Map.of("Retry-After", "3600"));
    int tooLong = transport.send(request, HttpAnswer::status);
    assertThat(tooLong).isEqualTo(429);
    assertThat(sleeps).as("one backoff for the 503s; none for an hour's Retry-After").hasSize(1);

    HttpTransport.Request missing = HttpTransport.Request.get(server.url("/none")).errorsAsAnswers().build();
    String notFound = transport.send(missing, a -> a.status() + " " + text(a));
    assertThat(notFound).isEqualTo("404 No such object: /none");
  }

  @Test
  void aFailureWithoutAnAnswerIsTheLastIOExceptionForACallerThatWordsItsErrors() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    HttpTransport transport = HttpTransport.of(http().maxRetries(3).build());

    assertThatThrownBy(() -> transport.send(HttpTransport.Request.get("http://127.0.0.1:" + port + "/x")
        .errorsAsAnswers().build(), HttpAnswer::status))
        .isInstanceOf(ConnectException.class)
        .satisfies(e -> assertThat(HttpTransport.isRetryable((IOException) e)).isFalse());
    assertThat(transport.requests()).isEqualTo(1);
  }

  @Test
  void onlyTheStatusesTheSettingsNameAreRetried() {
    server.enqueue("/api", 500, Map.of());
    HttpTransport transport = HttpTransport.of(http().retryStatuses(Set.of(429, 503)).build());

    assertThatThrownBy(() -> transport.send(get(server.url("/api")), HttpTransportTest::text))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("GET " + server.url("/api") + ": HTTP 500 Internal Server Error");
    assertThat(transport.requests()).isEqualTo(1);
  }

  @Test
  void aPostCarriesItsBodyAndTypeAndAFoundRedirectTurnsItIntoAGet() throws IOException {
    server.redirect("/search", "/api");
    HttpTransport transport = HttpTransport.of(http().build());
    HttpTransport.Request post = HttpTransport.Request
        .post(server.url("/search"), "{\"q\": 1}".getBytes(UTF_8), "application/json").build();

    String answer = transport.send(post, HttpTransportTest::text);

    assertThat(answer).contains("ok");

    assertThat(server.requests()).extracting(TestHttpServer.Request::method).containsExactly("POST", "GET");
    assertThat(server.requests().get(0).header("Content-Type")).isEqualTo("application/json");
    assertThat(server.requests().get(1).header("Content-Type")).isNull();
  }

  /** Answers every request with the headers of a 1000-byte body and its first bytes, then nothing. */
  private static final class StallingServer implements AutoCloseable {
    final AtomicInteger requests = new AtomicInteger();
    private final ServerSocket socket;
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());

    StallingServer() throws IOException {
      socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
      Thread t = new Thread(this::serve, "stalling-http");
      t.setDaemon(true);
      t.start();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try {
          Socket c = socket.accept();
          open.add(c);
          HttpByteSourceTest.RawServer.readHead(c.getInputStream());
          requests.incrementAndGet();
          OutputStream out = c.getOutputStream();
          out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"items\": [".getBytes(US_ASCII));
          out.flush(); // and the rest never comes
        } catch (IOException e) {
          return;
        }
      }
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/stalls";
    }

    @Override
    public void close() throws IOException {
      socket.close();
      synchronized (open) {
        for (Socket s : open) {
          s.close();
        }
      }
    }
  }
}

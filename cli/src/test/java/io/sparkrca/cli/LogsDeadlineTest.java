package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A log served over http whose body never ends (a line every 100 ms, forever, as a stuck proxy or
 * a log still being written behind a naive server would send): every {@code logs} command ends
 * with one error line instead of reading forever. (The exchange is cut at --timeout; the retry
 * that follows asks for the rest with a Range, which this server ignores, and that is the error
 * the user sees.)
 */
class LogsDeadlineTest {
  private HttpServer server;
  private volatile boolean stopping;

  @BeforeEach
  void startEndlessServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/endless.log", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "text/plain");
      exchange.sendResponseHeaders(200, 0); // chunked: no length, no end
      try (OutputStream body = exchange.getResponseBody()) {
        for (long i = 0; !stopping; i++) {
          body.write(("26/12/08 00:00:00 INFO Executor: still running, line " + i + "\n").getBytes(StandardCharsets.UTF_8));
          body.flush();
          Thread.sleep(100);
        }
      } catch (IOException | InterruptedException e) {
        // the client gave up: that is the point
      }
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "endless-log-server");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  @AfterEach
  void stop() {
    stopping = true;
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/endless.log";
  }

  @Test
  void tailSearchAndCountOfAnEndlessBodyEndWithOneErrorLine() {
    String[][] commands = {
        {"logs", "tail", "--timeout", "1", "-n", "5", url()},
        {"logs", "search", "--timeout", "1", "--literal", "never said", url()},
        {"logs", "count", "--timeout", "1", url()},
    };
    for (String[] command : commands) {
      CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> CliRun.of(command),
          () -> String.join(" ", command) + " did not end");

      assertThat(run.exitCode()).as(String.join(" ", command)).isEqualTo(2);
      assertThat(run.err().lines()).as(String.join(" ", command)).singleElement().asString()
          .startsWith("sparkrca: ").contains(url()).doesNotContain("\tat ");
    }
  }

  @Test
  void aTimeoutBelowOneSecondIsRefused() {
    CliRun run = CliRun.of("logs", "tail", "--timeout", "0", url());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--timeout must be at least 1 second");
  }
}

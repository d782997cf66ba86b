package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.source.SourceSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider made {@link HistoryServerProvider#with} settings, opened from several threads at
 * once: each open must send its own HTTP settings plus the provider's History Server headers. A
 * loopback server answers the application list with one application named after the headers it
 * received ({@code X-Open} as the id, {@code X-Team} as the name), so each open reads back what it
 * sent.
 */
class HistoryServerProviderTest {
  private static final int THREADS = 4;
  private static final int OPENS_PER_THREAD = 40;

  private HttpServer server;
  private String url;

  @BeforeEach
  void serveTheHeadersAsAnApplication() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.createContext("/api/v1/applications", HistoryServerProviderTest::answerWithHeaders);
    server.setExecutor(Executors.newFixedThreadPool(THREADS));
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    ((ExecutorService) server.getExecutor()).shutdownNow();
  }

  @Test
  void concurrentOpensEachSendTheirOwnHttpSettingsAndTheProvidersHeaders() throws Exception {
    HistoryServerProvider provider = HistoryServerProvider.with(HistoryServerSettings.builder().header("X-Team", "spark"));
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<List<String>>> mismatches = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        mismatches.add(pool.submit(() -> {
          start.await();
          return openAndReadBack(provider, thread);
        }));
      }
      for (Future<List<String>> m : mismatches) {
        assertThat(m.get(60, TimeUnit.SECONDS)).isEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void changingTheBuilderAfterwardsLeavesTheProviderAsItWas() {
    HistoryServerSettings.Builder builder = HistoryServerSettings.builder().header("X-Team", "spark");
    HistoryServerProvider provider = HistoryServerProvider.with(builder);
    builder.header("X-Team", "changed later");

    ApplicationInfo app = readBack(provider.open(url, withHeader("opened")));

    assertThat(app.name()).isEqualTo("spark");
  }

  /**
   * Opens first, all in a row (the settings are built at open), then reads each one back; the
   * returned list names every open that got another open's settings or lost the provider's.
   */
  private List<String> openAndReadBack(HistoryServerProvider provider, int thread) {
    List<SparkHistory> opened = new ArrayList<>();
    for (int i = 0; i < OPENS_PER_THREAD; i++) {
      opened.add(provider.open(url, withHeader(tag(thread, i))));
    }
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < OPENS_PER_THREAD; i++) {
      ApplicationInfo app = readBack(opened.get(i));
      if (!app.id().equals(tag(thread, i)) || !app.name().equals("spark")) {
        mismatches.add(tag(thread, i) + " sent X-Open: " + app.id() + ", X-Team: " + app.name());
      }
    }
    return mismatches;
  }

  private static ApplicationInfo readBack(SparkHistory history) {
    List<ApplicationInfo> apps = history.applications();
    assertThat(apps).hasSize(1);
    return apps.get(0);
  }

  private static SourceSettings withHeader(String open) {
    return SourceSettings.builder().http(HttpSettings.builder().header("X-Open", open).build()).build();
  }

  private static String tag(int thread, int open) {
    return "open-" + thread + "-" + open;
  }

  private static void answerWithHeaders(HttpExchange x) throws IOException {
    String id = x.getRequestHeaders().getFirst("X-Open");
    String name = x.getRequestHeaders().getFirst("X-Team");
    byte[] body = ("[{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"attempts\":[]}]")
        .getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(200, body.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(body);
    }
  }
}

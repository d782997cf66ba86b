package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.error.InputNotFoundException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A running driver's UI answers {@code applications/<id>/logs} with 200 and a zip holding nothing
 * (Spark 3.5 and 4.0 build the error answer they mean and then drop it; LiveDriverUiParityTest
 * sees it on the real UIs). Here a loopback server answers the same bytes Spark's ZipOutputStream
 * writes for no entry: the download must be a clear "no event log here", not an empty application.
 */
class EmptyEventLogZipTest {
  private HttpServer server;

  @BeforeEach
  void serveAnEmptyZip() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ZipOutputStream(bytes).close();
    byte[] body = bytes.toByteArray();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    server.createContext("/api/v1/applications/local-1/logs", x -> {
      x.getResponseHeaders().add("Content-Type", "application/octet-stream");
      x.sendResponseHeaders(200, body.length);
      try (OutputStream out = x.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void anEmptyEventLogZipIsNoEventLogAndSaysWhereToReadIt() {
    HistoryServerHistory ui = HistoryServerHistory.open("http://127.0.0.1:" + server.getAddress().getPort(),
        HistoryServerSettings.defaults());
    assertThatThrownBy(() -> ui.downloadEventLog("local-1", Optional.empty()).close())
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("applications/local-1/logs")
        .hasMessageContaining("nothing in it")
        .hasMessageContaining("spark.eventLog.dir");
  }
}

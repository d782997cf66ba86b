package io.sparkrca.gcp.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback OAuth 2.0 token endpoint: every refresh-token grant gets a new access token ({@code
 * token-1}, {@code token-2}, ...), so a test can tell a refreshed token from the first. {@link
 * #credentialsFile} writes an authorized-user credentials file whose {@code token_uri} points here,
 * which google-auth-library reads like the file {@code gcloud auth application-default login} writes.
 */
public final class FakeTokenServer implements AutoCloseable {
  private final HttpServer server;
  private final AtomicInteger issued = new AtomicInteger();

  public FakeTokenServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/token", ex -> {
      try (ex) {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        byte[] out;
        int status;
        if (body.contains("grant_type=refresh_token")) {
          out = ("{\"access_token\":\"token-" + issued.incrementAndGet() + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")
              .getBytes(StandardCharsets.UTF_8);
          status = 200;
        } else {
          out = "{\"error\":\"unsupported_grant_type\"}".getBytes(StandardCharsets.UTF_8);
          status = 400;
        }
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, out.length);
        ex.getResponseBody().write(out);
      }
    });
    server.start();
  }

  /** How many access tokens were issued. */
  public int issued() {
    return issued.get();
  }

  /** An authorized-user credentials file pointing at this endpoint. */
  public Path credentialsFile(Path dir) throws IOException {
    Path f = dir.resolve("adc.json");
    Files.writeString(f, "{\"type\":\"authorized_user\",\"client_id\":\"test-client\",\"client_secret\":\"test-secret\","
        + "\"refresh_token\":\"test-refresh\",\"token_uri\":\"http://127.0.0.1:" + server.getAddress().getPort() + "/token\"}");
    return f;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

package io.sparkrca.gcp.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 server on loopback that answers every request with what {@link Answer} writes on the
 * raw socket: for answers no well-behaved server sends (headers then silence, a body that never
 * ends, a length far past any cap). It counts the requests, the body bytes it managed to write
 * before the client hung up, and the answers that have ended.
 */
public final class RawHttpServer implements AutoCloseable {
  /** Writes one answer, headers and all; may block or throw when the client hangs up. */
  @FunctionalInterface
  public interface Answer {
    void write(OutputStream out, AtomicLong bodyBytes) throws IOException, InterruptedException;
  }

  private final ServerSocket socket;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "raw-http");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger ended = new AtomicInteger();
  private final AtomicLong bodyBytes = new AtomicLong();

  public RawHttpServer(Answer answer) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    pool.execute(() -> {
      while (!socket.isClosed()) {
        try {
          Socket s = socket.accept();
          pool.execute(() -> serve(s, answer));
        } catch (IOException e) {
          return; // closed
        }
      }
    });
  }

  private void serve(Socket s, Answer answer) {
    try (s) {
      InputStream in = s.getInputStream();
      // The request head, up to its blank line (GETs have no body).
      int matched = 0;
      while (matched < 4) {
        int c = in.read();
        if (c < 0) {
          return;
        }
        matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (c == '\r' ? 1 : 0);
      }
      requests.incrementAndGet();
      answer.write(s.getOutputStream(), bodyBytes);
    } catch (IOException | InterruptedException e) {
      // the client hung up: what the tests expect of a client that stops reading
    } finally {
      ended.incrementAndGet();
    }
  }

  /**
   * Waits until {@code n} answers have ended (written in full, or broken off because the client
   * hung up), at most {@code max}; returns whether they did.
   */
  public boolean awaitEnded(int n, java.time.Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (ended.get() < n && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return ended.get() >= n;
  }

  /** Headers of a 200 JSON answer, with {@code Content-Length} when {@code length >= 0}, else chunked. */
  public static byte[] head(long length) {
    return ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + (length >= 0 ? "Content-Length: " + length : "Transfer-Encoding: chunked") + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** The base URL, {@code http://127.0.0.1:port}. */
  public String endpoint() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  public int requests() {
    return requests.get();
  }

  /** Body bytes written before the client stopped reading. */
  public long bodyBytes() {
    return bodyBytes.get();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    pool.shutdownNow();
  }
}

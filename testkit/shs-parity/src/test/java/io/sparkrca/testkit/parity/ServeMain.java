package io.sparkrca.testkit.parity;

import io.sparkrca.historyserver.serve.HistoryApiServer;

/**
 * {@code serve} in a JVM of its own, for {@link HistoryServerBenchmark}: {@code ServeMain <log
 * dir>} prints {@code SERVE_PORT=<n>} and answers until its standard input closes.
 */
public final class ServeMain {
  private ServeMain() {}

  public static void main(String[] args) throws Exception {
    try (HistoryApiServer s = HistoryApiServer.builder(args[0]).port(0).build().start()) {
      System.out.println("SERVE_PORT=" + s.port());
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the parent closes our stdin
      }
    }
  }
}

package io.sparkrca.historyserver.examples;

import io.sparkrca.historyserver.serve.HistoryApiServer;

/** The Javadoc examples of {@code io.sparkrca.historyserver.serve}, compiled (see {@link JavadocExamplesTest}). */
class ServeExamples {
  /** The example of {@code HistoryApiServer}. */
  void historyApiServer() throws Exception {
    try (HistoryApiServer server = HistoryApiServer.builder("/tmp/spark-events").port(18080).build().start()) {
      System.out.println("listening on " + server.url());   // http://127.0.0.1:18080
      server.awaitStop();
    }
  }

  /** The example of {@code io.sparkrca.historyserver.serve}. */
  void overview() throws Exception {
    HistoryApiServer s = HistoryApiServer.builder("/tmp/spark-events").port(0).build().start();
  }
}

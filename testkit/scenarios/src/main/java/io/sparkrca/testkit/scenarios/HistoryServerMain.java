package io.sparkrca.testkit.scenarios;

import java.io.IOException;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.history.FsHistoryProvider;
import org.apache.spark.deploy.history.HistoryServer;
import org.apache.spark.deploy.history.HistoryServer$;

/**
 * Runs the real Spark History Server of this classpath's Spark version in this JVM, the way
 * {@code HistoryServer.main} does, but on an ephemeral port that it prints as {@code SHS_PORT=<n>}.
 * Settings come from {@code -Dspark.history.*} system properties. It stops when its standard input
 * closes, so it cannot outlive the generator that started it.
 */
public final class HistoryServerMain {
  private HistoryServerMain() {}

  public static void main(String[] args) throws IOException {
    SparkConf conf = new SparkConf();
    FsHistoryProvider provider = new FsHistoryProvider(conf);
    HistoryServer server =
        new HistoryServer(conf, provider, HistoryServer$.MODULE$.createSecurityManager(conf), 0);
    server.bind();
    provider.start();
    System.out.println("SHS_PORT=" + server.boundPort());
    System.out.flush();
    while (System.in.read() >= 0) {
      // Block until the parent closes our stdin (or dies).
    }
    server.stop();
    System.exit(0);
  }
}

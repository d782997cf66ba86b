package io.sparkrca.testkit.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.historyserver.HistoryProfiles;
import io.sparkrca.historyserver.HistoryServerHistory;
import io.sparkrca.historyserver.HistoryServerProvider;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.HistoryServerUri;
import io.sparkrca.historyserver.testing.FaultProxy;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.testkit.HistoryServerProcess;
import io.sparkrca.testkit.SparkDistribution;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 §6, not part of the build's tests (its name matches no surefire pattern); run it as
 * {@code benchmarks/shs/run.sh} does. Two measurements:
 *
 * <ul>
 *   <li><b>client</b>: {@code failure}, {@code slow} and {@code rca} through the client for a
 *       2,000-stage application on the real Spark 4.0.4 History Server behind a loopback proxy
 *       adding 20 ms to each request, with one request in flight (sequential) and with the
 *       default 8; wall time and the requests the proxy counted, per round.
 *   <li><b>serve</b>: time from starting the server (a fresh JVM) to the first answer of {@code
 *       applications/<id>/jobs} for the 1M-task log, {@code serve} vs the real History Server,
 *       one after the other in the same run.
 * </ul>
 *
 * Lines starting with {@code RESULT} are what benchmarks/RESULTS.md records.
 */
class HistoryServerBenchmark {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern SERVE_PORT = Pattern.compile("SERVE_PORT=(\\d+)");

  @TempDir Path work;

  private static Optional<Path> dir(String property) {
    String d = System.getProperty(property, "");
    return d.isEmpty() || !Files.isDirectory(Path.of(d)) ? Optional.empty() : Optional.of(Path.of(d));
  }

  /**
   * The in-flight limits a round measures: {@code -Dbench.concurrency} (default 8; a list such as
   * {@code 8,16} measures each) and sequential (1), in alternating order from round to round.
   */
  private static int[] levels(int round) {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    for (String c : System.getProperty("bench.concurrency", "8").split(",")) {
      out.add(Integer.parseInt(c.trim()));
    }
    if (round % 2 == 0) {
      java.util.Collections.reverse(out);
      out.add(0, 1);
    } else {
      out.add(1);
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  @Test
  void clientConcurrentVsSequential() throws Exception {
    Optional<Path> logs = dir("bench.stagesLogDir");
    assumeTrue(logs.isPresent(), "set -Dbench.stagesLogDir to a directory holding the 2,000-stage log (benchmarks/shs/run.sh)");
    String appId = System.getProperty("bench.stagesAppId", "app-20200706201101-0003");
    int rounds = Integer.getInteger("bench.rounds", 2);
    // -Dbench.upstream=serve puts serve (in this JVM) behind the proxy in place of the real History Server.
    boolean serve = System.getProperty("bench.upstream", "shs").equals("serve");
    try (AutoCloseable upstream = serve
        ? io.sparkrca.historyserver.serve.HistoryApiServer.builder(logs.get().toString()).port(0).build().start()
        : HistoryServerProcess.start(SparkDistribution.locate("4.0.4"), logs.get(),
            Files.createDirectories(work.resolve("shs")), Duration.ofMinutes(10), "2g")) {
      String url = upstream instanceof HistoryServerProcess p ? p.url()
          : ((io.sparkrca.historyserver.serve.HistoryApiServer) upstream).url();
      long t0 = System.nanoTime();
      awaitOk(url + "/api/v1/applications/" + appId + "/jobs", Duration.ofMinutes(15));
      System.out.printf("RESULT client: upstream %s, its first answer for the 2,000-stage log took %.1f s%n",
          serve ? "serve" : "the real History Server", secs(t0));
      try (FaultProxy proxy = FaultProxy.start(url, Duration.ofMillis(20))) {
        String uri = HistoryServerUri.of(proxy.url(), appId, Optional.empty()).toString();
        for (int round = 1; round <= rounds; round++) {
          for (int concurrency : levels(round)) {
            // A loaded machine makes the server slow: long timeouts, and a cap that fits 2,000 stages with summaries.
            HistoryServerSettings.Builder b = HistoryServerSettings.builder().concurrency(concurrency)
                .readTimeout(Duration.ofMinutes(5)).maxResponseBytes(512L * 1024 * 1024);
            HistoryServerSettings settings = b.build();
            try {
              proxy.reset();
              long f0 = System.nanoTime();
              SparkApplication app = HistoryServerHistory.open(proxy.url(), settings).application(HistoryServerUri.parse(uri).orElseThrow());
              String failure = HistoryProfiles.failure(app, HistoryProfiles.Limits.defaults()).toJson();
              System.out.printf("RESULT client round=%d concurrency=%d failure=%.2fs %d requests (%d bytes of JSON)%n",
                  round, concurrency, secs(f0), proxy.requests().size(), failure.length());
            } catch (RuntimeException e) {
              System.out.printf("RESULT client round=%d concurrency=%d failure ERROR %s%n", round, concurrency, e);
            }
            try {
              proxy.reset();
              long r0 = System.nanoTime();
              SparkSources sources = SparkSources.builder().add(HistoryServerProvider.with(b)).build();
              RcaReport report = RcaEngine.standard().analyze(
                  EvidenceCollector.builder().sources(sources).application(uri).build().collect());
              long rcaRequests = proxy.requests().size();
              System.out.printf("RESULT client round=%d concurrency=%d rca=%.2fs %d requests (%d under stages/<id>/) verdict=%s%n",
                  round, concurrency, secs(r0), rcaRequests, proxy.count(p -> p.contains("/stages/")), report.verdict());
              assertThat(rcaRequests).as("rca's requests are bounded: a few per stage at most").isLessThan(3L * 2001 + 50);
            } catch (RuntimeException e) {
              System.out.printf("RESULT client round=%d concurrency=%d rca ERROR %s%n", round, concurrency, e);
            }
          }
        }
      }
    }
  }

  @Test
  void serveFirstAnswerVsTheRealHistoryServer() throws Exception {
    Optional<Path> logs = dir("bench.bigLogDir");
    assumeTrue(logs.isPresent(), "set -Dbench.bigLogDir to a directory holding the 1M-task log (benchmarks/shs/run.sh)");
    String appId = System.getProperty("bench.bigAppId", "app-20200706201101-0003");
    String path = "/api/v1/applications/" + appId + "/jobs";
    int rounds = Integer.getInteger("bench.rounds", 2);
    for (int round = 1; round <= rounds; round++) {
      for (String who : round % 2 == 1 ? new String[] {"serve", "shs"} : new String[] {"shs", "serve"}) {
        long t0 = System.nanoTime();
        int bytes;
        if (who.equals("shs")) {
          try (HistoryServerProcess shs = HistoryServerProcess.start(SparkDistribution.locate("4.0.4"), logs.get(),
              Files.createDirectories(work.resolve("shs-" + round)), Duration.ofMinutes(10), "4g")) {
            bytes = awaitOk(shs.url() + path, Duration.ofMinutes(20));
          }
        } else {
          Process p = startServe(logs.get(), work.resolve("serve-" + round + ".out"));
          try {
            int port = awaitPort(p, work.resolve("serve-" + round + ".out"));
            bytes = awaitOk("http://127.0.0.1:" + port + path, Duration.ofMinutes(20));
          } finally {
            p.getOutputStream().close();
            if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
              p.destroyForcibly();
            }
          }
        }
        System.out.printf("RESULT serve round=%d server=%s firstAnswer=%.1fs bytes=%d%n", round, who, secs(t0), bytes);
      }
    }
  }

  private static Process startServe(Path logs, Path out) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + System.getProperty("bench.serveXmx", "1g"));
    cmd.add("-cp");
    // Surefire runs tests from a manifest-only jar; the real class path is in this property.
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add(ServeMain.class.getName());
    cmd.add(logs.toString());
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
  }

  private static int awaitPort(Process p, Path out) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(out)) {
        Matcher m = SERVE_PORT.matcher(Files.readString(out));
        if (m.find()) {
          return Integer.parseInt(m.group(1));
        }
      }
      if (!p.isAlive()) {
        throw new IOException("serve exited: " + Files.readString(out));
      }
      Thread.sleep(20);
    }
    throw new IOException("serve did not start: " + Files.readString(out));
  }

  /** Polls {@code url} until it answers 200; returns the body's size. */
  private static int awaitOk(String url, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(20)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() == 200) {
          return r.body().length;
        }
        last = "HTTP " + r.statusCode();
      } catch (java.net.ConnectException notYet) {
        last = "connection refused";
      }
      Thread.sleep(50);
    }
    throw new IOException(url + " did not answer 200 within " + timeout + " (last: " + last + ")");
  }

  private static double secs(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}

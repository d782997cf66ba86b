package io.sparkrca.gcp.bench;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocHistoryProvider;
import io.sparkrca.gcp.storage.GcsByteSourceProvider;
import io.sparkrca.gcp.testing.FakeGcs;
import io.sparkrca.gcp.testing.RepeatedStages;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import io.sparkrca.analysis.rca.RcaEngine;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Issue 13 §6, measured (not a unit test; {@code benchmarks/dataproc-bench.sh} runs it):
 *
 * <ol>
 *   <li>{@code logs tail} of a 5 GiB object in Cloud Storage (the loopback JSON-API fake): how many
 *       requests and how many bytes of media.
 *   <li>The profile the RCA reads ({@code facts()}: stages with quantiles, every attempt's details,
 *       executors, jobs, SQL) of a 2,000-stage application through sparkApplications, against the
 *       loopback fake adding 20 ms to every request: requests, wall time concurrent (the default
 *       parallelism) and sequential (parallelism 1), and their ratio, in one run.
 *   <li>The whole RCA of that application ({@code RcaEngine.standard().analyze}), sequential
 *       against concurrent in the same way.
 * </ol>
 * The 2,000 stages are a real testkit run's stages repeated with new ids (tasks and all).
 * Arguments: stages (2000), milliseconds added per request (20), and which parts to run: {@code
 * all}, {@code tail}, {@code profile} (the profile without the 2,000 detail calls), or {@code rca}
 * (the whole analysis of the application, every read its analysers make, sequential against
 * concurrent).
 */
public final class DataprocBenchmark {
  private DataprocBenchmark() {}

  public static void main(String[] args) throws Exception {
    // The JDK server's default leaves Nagle's algorithm on: with the client's delayed ACKs each
    // small answer then waits about 40 ms more, which sequential calls pay and concurrent ones hide.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    int stages = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    long latency = args.length > 1 ? Long.parseLong(args[1]) : 20;
    // all | tail | profile (the profile without the detail calls) | rca (the whole analysis only)
    String parts = args.length > 2 ? args[2] : "all";
    if (parts.equals("all") || parts.equals("tail")) {
      tail();
    }
    if (parts.equals("all") || parts.equals("profile")) {
      profile(stages, latency, parts.equals("all"));
    }
    if (parts.equals("all") || parts.equals("rca")) {
      rca(stages, latency);
    }
  }

  /**
   * The whole RCA of the application through sparkApplications (every read the analysers make:
   * the facts, the stage details the stage rules read, the insights' task lists), sequential
   * against concurrent: what a user of {@code rca --batch} waits for.
   */
  private static void rca(int stages, long latency) throws Exception {
    SparkApplication big = new RepeatedStages(EventLogs.replay(TestkitFixtures.get("3.5.9", "skew-join").eventLog()), stages);
    try (SparkApplicationsFake fake = new SparkApplicationsFake()) {
      int parallel = Integer.getInteger("bench.parallelism", GcpSettings.builder().environment(Map.of()).build().parallelism());
      // A batch's stage list is one chain of page tokens; a session's is read by stage-id sets at once.
      for (String parent : List.of("projects/p/locations/us-central1/batches/bench",
          "projects/p/locations/us-central1/sessions/bench")) {
        System.out.printf("RCA of a %d-stage application through sparkApplications (%s), %d ms per request:%n", stages,
            parent.contains("/sessions/") ? "session" : "batch", latency);
        sequentialAgainstConcurrent(p -> analyze(fake, parent, big, latency, p), parallel);
      }
    }
  }

  private static long analyze(SparkApplicationsFake fake, String parent, SparkApplication app0, long latency,
      int parallelism) {
    GcpSettings s = serve(fake, parent, app0, latency, parallelism);
    long t0 = System.nanoTime();
    SparkApplication app = new DataprocHistoryProvider(s).application("dataproc:" + parent, SourceSettings.defaults());
    app.facts(); // what the engine reads first: timed apart, to show where the rest goes
    long factsMs = (System.nanoTime() - t0) / 1_000_000;
    RcaReport r = RcaEngine.standard().analyze(app);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    Map<String, Integer> byMethod = new java.util.TreeMap<>();
    for (String line : fake.log()) {
      byMethod.merge(line.replaceAll(".*:(\\w+).*", "$1"), 1, Integer::sum);
    }
    System.out.printf("  parallelism %2d: %,7d ms (facts %,d ms), %d requests %s, root cause %s, %d findings, at most %d "
        + "in flight%n", parallelism, ms, factsMs, fake.requests(), byMethod, r.rootCause().kind(), r.findings().size(),
        fake.maxInFlight());
    return ms;
  }

  /**
   * {@code bench.warmups} runs at {@code parallel} (default 2, not counted), then {@code
   * bench.rounds} rounds (default 3) of parallelism 1 against {@code parallel}, one after the other
   * so that both see the same machine; each round's ratio and their median. One warm-up left the JIT
   * busy in the counted runs: the concurrent run, the shorter, lost the most to it.
   */
  private static void sequentialAgainstConcurrent(java.util.function.IntToLongFunction runAt, int parallel) {
    int warmups = Integer.getInteger("bench.warmups", 2);
    int rounds = Math.max(1, Integer.getInteger("bench.rounds", 3));
    System.out.println("  warm-up (not counted):");
    for (int i = 0; i < warmups; i++) {
      runAt.applyAsLong(parallel);
    }
    double[] ratios = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long seq = runAt.applyAsLong(1);
      long con = runAt.applyAsLong(parallel);
      ratios[i] = (double) seq / con;
      System.out.printf("  round %d: ratio sequential / concurrent %.1fx%n", i + 1, ratios[i]);
    }
    double[] sorted = ratios.clone();
    java.util.Arrays.sort(sorted);
    System.out.printf("  ratio sequential / concurrent: median %.1fx of %d rounds (min %.1fx, max %.1fx)%n",
        sorted[rounds / 2], rounds, sorted[0], sorted[rounds - 1]);
  }

  /** The fake reset to serve {@code app} at {@code parent} with the latency, and the client's settings for it. */
  private static GcpSettings serve(SparkApplicationsFake fake, String parent, SparkApplication app, long latency,
      int parallelism) {
    fake.reset();
    fake.serve(parent, app).latency(latency);
    return GcpSettings.builder().environment(Map.of()).project("p").region("us-central1")
        .sparkApplicationsEndpoint(fake.endpoint()).parallelism(parallelism).timeout(Duration.ofSeconds(60)).build();
  }

  private static void tail() throws Exception {
    try (FakeGcs gcs = new FakeGcs()) {
      long size = 5L << 30;
      byte[] line = "2026-12-01 21:19:00 INFO Executor: Finished task 1.0 in stage 3.0 (TID 7)\n"
          .getBytes(StandardCharsets.US_ASCII);
      gcs.putVirtual("big", "driver.log", size, off -> line[(int) (off % line.length)]);
      GcpSettings s = GcpSettings.builder().environment(Map.of()).storageEndpoint(gcs.host()).build();
      ByteSources bytes = ByteSources.builder().add(GcsByteSourceProvider.of(s)).build();
      long t0 = System.nanoTime();
      LogLines last = LogStream.builder().sources(bytes).build("gs://big/driver.log").tail(100);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      System.out.printf("logs tail of a 5 GiB gs:// object: %d lines, %d requests (%d media), %,d media bytes, %d ms%n",
          last.lines().size(), gcs.requests(), gcs.mediaRequests(), gcs.mediaBytes(), ms);
    }
  }

  private static void profile(int stages, long latency, boolean withDetails) throws Exception {
    SparkApplication base = EventLogs.replay(TestkitFixtures.get("3.5.9", "skew-join").eventLog());
    SparkApplication big = new RepeatedStages(base, stages);
    String parent = "projects/p/locations/us-central1/batches/bench";
    try (SparkApplicationsFake fake = new SparkApplicationsFake()) {
      System.out.printf("profile of a %d-stage application (%d attempts) through sparkApplications, %d ms per request:%n",
          stages, big.stages(StageQuery.all()).size(), latency);
      int parallel = GcpSettings.builder().environment(Map.of()).build().parallelism();
      sequentialAgainstConcurrent(p -> run(fake, parent, big, latency, p), parallel);
      if (!withDetails) {
        return;
      }
      System.out.printf("stage details of every attempt (what the stage rules read: one accessStageAttempt each):%n");
      long dseq = details(fake, parent, big, latency, 1);
      long dcon = details(fake, parent, big, latency, parallel);
      System.out.printf("  ratio sequential / concurrent: %.1fx%n", (double) dseq / dcon);
    }
  }

  private static long run(SparkApplicationsFake fake, String parent, SparkApplication app0, long latency,
      int parallelism) {
    GcpSettings s = serve(fake, parent, app0, latency, parallelism);
    long t0 = System.nanoTime();
    SparkApplication app = new DataprocHistoryProvider(s).application("dataproc:" + parent, SourceSettings.defaults());
    ApplicationFacts f = app.facts();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.printf("  parallelism %2d: %,6d ms, %d requests, %d stages submitted, %d tasks%n", parallelism, ms,
        fake.requests(), f.stagesSubmitted(), f.tasksEnded());
    return ms;
  }

  private static long details(SparkApplicationsFake fake, String parent, SparkApplication app0, long latency,
      int parallelism) {
    GcpSettings s = serve(fake, parent, app0, latency, parallelism);
    SparkApplication app = new DataprocHistoryProvider(s).application("dataproc:" + parent, SourceSettings.defaults());
    app.stages(StageQuery.all()); // the stage list first, so only the detail calls are timed
    int before = fake.requests();
    long t0 = System.nanoTime();
    int n = app.stages(StageQuery.all().withDetails(true)).size();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.printf("  parallelism %2d: %,6d ms, %d requests for %d attempts%n", parallelism, ms,
        fake.requests() - before, n);
    return ms;
  }
}

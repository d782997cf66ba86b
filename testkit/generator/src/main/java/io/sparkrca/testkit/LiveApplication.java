package io.sparkrca.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Spark application that keeps running while a test reads its live driver UI: the {@code
 * live-pause} workload (a SQL aggregation, a job with one failed and retried task, a job that fails
 * on a bad record) in a forked driver JVM on one Spark version, with its UI on a free loopback port
 * and its event log written as that version writes it by default (3.5: one plain file, 4.0: a
 * rolling zstd directory), both in progress while it runs. {@link #start} returns once every job
 * has ended and is in the UI's store and the event log; the application then waits until {@link
 * #release} (or its own pause timeout, so a test that forgets never leaves it hanging), and ends
 * normally. {@link #close} releases it, waits a little, and kills the process tree if it lingers;
 * the temporary directory goes with it.
 *
 * <pre>{@code
 * try (LiveApplication app = LiveApplication.start(SparkDistribution.locate("4.0.4"), tmp, Duration.ofMinutes(2))) {
 *   String ui = app.uiUrl();             // http://localhost:40123, one running application
 *   Path log = app.eventLog();           // in progress
 *   app.release();
 *   ForkedJvm.Outcome end = app.awaitExit(Duration.ofMinutes(1));
 * }
 * }</pre>
 */
public final class LiveApplication implements AutoCloseable {
  /** The workload's name in {@code io.sparkrca.testkit.scenarios.Workload}. */
  public static final String WORKLOAD = "live-pause";
  /** Its master: two cores, two attempts per task (so a flaky task is retried, a bad record fails twice). */
  public static final String MASTER = "local[2,2]";

  private final SparkDistribution spark;
  private final TempDir tmp;
  private final Process process;
  private final Path eventLogDir;
  private final Path releaseFile;
  private final Path stdout;
  private final Path stderr;
  private final String uiUrl;
  private ForkedJvm.Outcome outcome;

  private LiveApplication(SparkDistribution spark, TempDir tmp, Process process, Path eventLogDir, Path releaseFile,
      Path stdout, Path stderr, String uiUrl) {
    this.spark = spark;
    this.tmp = tmp;
    this.process = process;
    this.eventLogDir = eventLogDir;
    this.releaseFile = releaseFile;
    this.stdout = stdout;
    this.stderr = stderr;
    this.uiUrl = uiUrl;
  }

  /**
   * Starts the application under {@code tempRoot} and waits, at most {@code timeout}, until it has
   * run its jobs and paused; the pause itself lasts at most {@code timeout} too.
   *
   * @throws IOException when it exits or times out before pausing (its stderr's tail included)
   */
  public static LiveApplication start(SparkDistribution spark, Path tempRoot, Duration timeout) throws IOException {
    TempDir tmp = TempDir.create(tempRoot, "live-");
    Process p = null;
    try {
      Path events = Files.createDirectories(tmp.path().resolve("eventlog"));
      Path scratch = Files.createDirectories(tmp.path().resolve("scratch"));
      Path javaTmp = Files.createDirectories(tmp.path().resolve("tmp"));
      Path local = Files.createDirectories(tmp.path().resolve("local"));
      Path ready = tmp.path().resolve("ready");
      Path release = tmp.path().resolve("release");
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("spark.master", MASTER);
      conf.put("spark.app.name", "sparkrca-testkit " + WORKLOAD);
      conf.put("spark.eventLog.enabled", "true");
      conf.put("spark.eventLog.dir", events.toUri().toString());
      conf.put("spark.local.dir", local.toString());
      conf.put("spark.ui.enabled", "true");
      // A free port, not 4040 (another application, or another engineer's test, may hold it);
      // should it be taken meanwhile, Spark moves to the next one and the URL it reports says so.
      conf.put("spark.ui.port", Integer.toString(freePort()));
      conf.put("spark.ui.showConsoleProgress", "false");
      List<String> jvm = new ArrayList<>(SparkJvm.javaModuleOptions());
      jvm.add("-Xmx768m");
      jvm.add("-Djava.io.tmpdir=" + javaTmp);
      conf.forEach((k, v) -> jvm.add("-D" + k + "=" + v));
      List<String> args = List.of(WORKLOAD, scratch.toString(), "pauseSeconds=" + Math.max(10, timeout.toSeconds()),
          "ready=" + ready, "release=" + release);
      ForkedJvm fork = new ForkedJvm(ScenarioRunner.MAIN, spark.classPath(), jvm, args, SparkJvm.environment(null), tmp.path());
      Path out = tmp.path().resolve("driver-stdout.log");
      Path err = tmp.path().resolve("driver-stderr.log");
      p = fork.start(out, err);
      p.getOutputStream().close();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!Files.exists(ready)) {
        if (!p.isAlive()) {
          throw new IOException("the live application on Spark " + spark.version() + " exited with " + p.exitValue()
              + " before pausing:\n" + HistoryServerProcess.tail(err));
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("the live application on Spark " + spark.version() + " did not pause within " + timeout
              + ":\n" + HistoryServerProcess.tail(err));
        }
        HistoryServerProcess.sleep(200);
      }
      String url = Files.readString(ready, StandardCharsets.UTF_8).trim();
      return new LiveApplication(spark, tmp, p, events, release, out, err, url);
    } catch (IOException | RuntimeException e) {
      if (p != null) {
        ProcessTree.kill(p.toHandle(), Duration.ofSeconds(20));
      }
      tmp.close();
      throw e;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** The Spark version it runs on. */
  public SparkDistribution spark() {
    return spark;
  }

  /** The driver UI's root as Spark reports it ({@code SparkContext.uiWebUrl}), such as {@code http://localhost:40123}. */
  public String uiUrl() {
    return uiUrl;
  }

  /** The directory the application writes its event log into. */
  public Path eventLogDir() {
    return eventLogDir;
  }

  /** Its event log (the file, or the rolling directory), in progress until it ends. */
  public Path eventLog() throws IOException {
    List<Path> logs = EventLogFiles.logsIn(eventLogDir);
    if (logs.size() != 1) {
      throw new IOException("expected one event log in " + eventLogDir + ", found " + logs);
    }
    return logs.get(0);
  }

  /** Whether the driver JVM still runs. */
  public boolean isRunning() {
    return process.isAlive();
  }

  /** Lets the application finish (stop its SparkContext, end its event log, exit). */
  public void release() throws IOException {
    if (!Files.exists(releaseFile)) {
      Files.createFile(releaseFile);
    }
  }

  /**
   * Waits, at most {@code timeout}, for the driver JVM to exit; on timeout the process tree is
   * killed and the outcome says so.
   */
  public synchronized ForkedJvm.Outcome awaitExit(Duration timeout) {
    if (outcome != null) {
      return outcome;
    }
    long t0 = System.nanoTime();
    boolean finished = false;
    try {
      finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Long> survivors = new ArrayList<>();
    if (!finished) {
      ProcessTree.kill(process.toHandle(), Duration.ofSeconds(20)).forEach(h -> survivors.add(h.pid()));
    }
    outcome = new ForkedJvm.Outcome(finished ? process.exitValue() : null, !finished,
        Duration.ofNanos(System.nanoTime() - t0), survivors);
    return outcome;
  }

  /** The last lines of the driver's stderr and its stdout, for failure messages. */
  public String tailOfLogs() throws IOException {
    return HistoryServerProcess.tail(stderr) + "\n--- stdout ---\n" + HistoryServerProcess.tail(stdout);
  }

  /** Releases the application, waits up to 30 s for it to end, kills what is left, deletes its files. */
  @Override
  public void close() {
    try {
      release();
    } catch (IOException ignored) {
      // The directory is going away anyway; the kill below ends the run.
    }
    awaitExit(Duration.ofSeconds(30));
    tmp.close();
  }
}

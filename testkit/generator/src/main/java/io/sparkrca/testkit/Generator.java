package io.sparkrca.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produces fixtures: runs scenarios, verifies each fault in its event log, and writes the
 * fixture directory {@code <fixturesRoot>/spark-<version>/<scenario>/} (event log, driver and
 * executor logs, {@code label.json}, {@code shs/}). A fixture is replaced only when its new run
 * shows the fault; a failing run leaves the committed one alone.
 */
public final class Generator {
  private static final Logger LOG = LoggerFactory.getLogger(Generator.class);

  private final Path fixturesRoot;
  private final Path tempRoot;
  private final boolean historyServer;
  private final ScenarioRunner runner;
  /** Facts of runs already made in this session, by version and scenario, for baselines. */
  private final Map<String, LogFacts> done = new HashMap<>();
  /** Where the output of a rejected or timed-out run is copied for inspection, or null. */
  private Path keepRejected;

  /**
   * @param fixturesRoot where {@code spark-<version>/} directories go
   * @param tempRoot where temporary directories are made and deleted
   * @param historyServer whether to record History Server answers
   */
  public Generator(Path fixturesRoot, Path tempRoot, boolean historyServer) {
    this.fixturesRoot = fixturesRoot;
    this.tempRoot = tempRoot;
    this.historyServer = historyServer;
    this.runner = new ScenarioRunner(tempRoot);
  }

  /**
   * Copies what a rejected (or timed-out) run left behind, driver and executor logs and event
   * log, to {@code dir/spark-<version>/<scenario>/} before the failure is reported, so the run can
   * be inspected. Off by default.
   */
  public Generator keepRejectedRunsIn(Path dir) {
    this.keepRejected = dir;
    return this;
  }

  /** One fixture written. */
  public record Generated(SparkDistribution spark, String scenario, Path dir, Findings findings) {}

  /** Generates {@code scenarios} on every distribution, in order; stops at the first failure. */
  public List<Generated> generateAll(List<SparkDistribution> sparks, List<Scenario> scenarios)
      throws IOException, GenerationException, FaultNotShownException {
    List<Generated> out = new ArrayList<>();
    for (SparkDistribution spark : sparks) {
      for (Scenario s : scenarios) {
        if (!s.runsOn(spark.version())) {
          LOG.info("Skipping {} on Spark {}: it runs only on {}", s.name(), spark.version(), s.sparkVersions());
          continue;
        }
        Generated g = generate(spark, s);
        out.add(g);
        if (!spark.isSpark4() && s.name().equals(ScenarioCatalog.TRUNCATED_SOURCE)) {
          out.add(truncatedInProgress(spark, g));
        }
      }
    }
    return out;
  }

  /** Runs one scenario, verifies it, and writes its fixture. */
  public Generated generate(SparkDistribution spark, Scenario s)
      throws IOException, GenerationException, FaultNotShownException {
    Path staging = Files.createDirectories(tempRoot).resolve("staging-" + spark.version() + "-" + s.name());
    TempDir.deleteTree(staging);
    try {
      ScenarioRunner.Result r = runner.run(s, spark, staging);
      requireExpectedEnd(spark, s, r);
      LogFacts facts = LogFacts.read(r.eventLog());
      LogFacts baseline = s.baseline() == null ? null : baseline(spark, s.baseline());
      RunEvidence ev = new RunEvidence(facts, r.outcome().exitCode(), read(r.driverStdout()), read(r.driverStderr()),
          readAll(r.executorLogs()), readAll(r.executorStdout()), baseline);
      Findings findings = verify(spark, s.name(), s.check(), ev);
      done.put(spark.version() + "/" + s.name(), facts);

      EventLogFormat format = s.format(spark);
      Path committedLog = r.eventLog();
      Path shsSource = r.eventLog();
      Path plainCopy = null;
      if (format.gzipAfterwards()) {
        // The History Server cannot read gzip: it is shown the log before compression.
        plainCopy = tempRoot.resolve("plain-" + s.name());
        FixtureFiles.copyTree(r.eventLog(), plainCopy);
        shsSource = plainCopy;
        committedLog = r.eventLog().resolveSibling(r.eventLog().getFileName() + ".gz");
        FixtureFiles.gzip(r.eventLog(), committedLog);
        Files.delete(r.eventLog());
      }
      if (historyServer) {
        // A killed driver's application never completes: the server lists it as incomplete.
        snapshot(spark, shsSource, staging.resolve("shs"), !s.driverKilled());
      }
      if (plainCopy != null) {
        TempDir.deleteTree(plainCopy);
      }
      Labels.Header h = new Labels.Header(s.name(), s.description(), s.rootCause(), spark.version(), format,
          format.gzipAfterwards() ? "gzip" : "none", facts.inProgress(), workload(s), r.sparkConf(), s.baseline(), null);
      Labels.write(staging, h, facts, r.outcome().exitCode(), committedLog, r.executorLogs(), r.executorStdout(),
          historyServer, findings);
      return new Generated(spark, s.name(), publish(spark, s.name(), staging), findings);
    } catch (FaultNotShownException | GenerationException e) {
      keep(spark, s.name(), staging);
      throw e;
    } finally {
      TempDir.deleteTree(staging);
    }
  }

  /**
   * A driver killed by a signal (exit code above 128) is what a {@link Scenario#driverKilled}
   * scenario is about, and must have left its event log in progress; in any other scenario it is
   * an accident of the machine (the kernel's OOM killer on a busy host, say), not the fault, and
   * the run is rejected.
   */
  private static void requireExpectedEnd(SparkDistribution spark, Scenario s, ScenarioRunner.Result r)
      throws GenerationException {
    int exit = r.outcome().exitCode();
    if (s.driverKilled()) {
      if (exit != Scenario.KILLED_EXIT_CODE) {
        throw new GenerationException(s.name() + " on Spark " + spark.version() + ": the driver was meant to be"
            + " killed (exit " + Scenario.KILLED_EXIT_CODE + ") but exited with " + exit);
      }
      if (!EventLogFiles.inProgress(r.eventLog())) {
        throw new GenerationException(s.name() + " on Spark " + spark.version() + ": the killed driver's event"
            + " log is not in progress: " + r.eventLog().getFileName());
      }
    } else if (exit > 128) {
      throw new GenerationException(s.name() + " on Spark " + spark.version() + ": the driver JVM was killed by"
          + " signal " + (exit - 128) + " (exit " + exit + "), which this scenario does not do");
    }
  }

  private void keep(SparkDistribution spark, String name, Path staging) throws IOException {
    if (keepRejected != null && Files.isDirectory(staging)) {
      Path target = keepRejected.resolve("spark-" + spark.version()).resolve(name);
      TempDir.deleteTree(target);
      FixtureFiles.copyTree(staging, target);
      LOG.warn("Kept the rejected run of {} on Spark {} in {}", name, spark.version(), target);
    }
  }

  /**
   * Makes the derived fixture {@value ScenarioCatalog#TRUNCATED_NAME}: the source's plain log cut
   * off in the middle of the line after the last failed task, renamed {@code .inprogress}, as a
   * driver that died while writing would leave it.
   */
  public Generated truncatedInProgress(SparkDistribution spark, Generated source)
      throws IOException, GenerationException, FaultNotShownException {
    Path srcLog = EventLogFiles.logsIn(source.dir().resolve("eventlog")).get(0);
    if (Files.isDirectory(srcLog) || !EventLogFiles.codecOf(srcLog).equals("none")) {
      throw new GenerationException("the truncation source must be a plain single-file log: " + srcLog);
    }
    String name = ScenarioCatalog.TRUNCATED_NAME;
    Path staging = tempRoot.resolve("staging-" + spark.version() + "-" + name);
    TempDir.deleteTree(staging);
    try {
      Path log = staging.resolve("eventlog").resolve(srcLog.getFileName() + ".inprogress");
      Files.createDirectories(log.getParent());
      long cut = cutOffset(srcLog);
      FixtureFiles.truncatedCopy(srcLog, log, cut);
      long originalBytes = FixtureFiles.size(srcLog);
      for (String f : List.of("driver-stdout.log", "driver-stderr.log")) {
        FixtureFiles.copyTree(source.dir().resolve(f), staging.resolve(f));
      }
      LogFacts facts = LogFacts.read(log);
      FaultCheck check = FaultChecks.truncated(FaultChecks.deterministicFailure(4, false));
      RunEvidence ev = new RunEvidence(facts, 1, "", "", Map.of(), Map.of(), null);
      Findings verified = verify(spark, name, check, ev);
      Map<String, Object> measured = new LinkedHashMap<>(verified.measured());
      measured.put("truncatedAtByte", cut);
      measured.put("originalBytes", originalBytes);
      Findings findings = new Findings(verified.stageIds(), verified.partition(), verified.executorId(),
          verified.evidence(), measured);
      if (historyServer) {
        snapshot(spark, log, staging.resolve("shs"), false);
      }
      Scenario src = ScenarioCatalog.byName(source.scenario());
      Labels.Header h = new Labels.Header(name,
          "The " + src.name() + " log cut off in the middle of the line after the last failed task"
              + " and renamed .inprogress, as a driver killed while writing leaves it.",
          src.rootCause(), spark.version(), EventLogFormat.PLAIN, "truncated", true, workload(src),
          ScenarioRunner.sparkConf(src, spark), null, src.name());
      Labels.write(staging, h, facts, null, log, Map.of(), Map.of(), historyServer, findings);
      return new Generated(spark, name, publish(spark, name, staging), findings);
    } finally {
      TempDir.deleteTree(staging);
    }
  }

  /** Byte offset in the middle of the line that follows the last failed TaskEnd. */
  private static long cutOffset(Path plainLog) throws IOException {
    byte[] all = Files.readAllBytes(plainLog);
    long lastFailureEnd = -1;
    int lineStart = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == '\n') {
        String line = new String(all, lineStart, i - lineStart, StandardCharsets.UTF_8);
        if (line.contains("\"SparkListenerTaskEnd\"") && line.contains("\"ExceptionFailure\"")) {
          lastFailureEnd = i + 1;
        }
        lineStart = i + 1;
      }
    }
    if (lastFailureEnd < 0 || lastFailureEnd >= all.length) {
      throw new IOException("no failed task to cut after in " + plainLog);
    }
    int next = (int) lastFailureEnd;
    int nextEnd = next;
    while (nextEnd < all.length && all[nextEnd] != '\n') {
      nextEnd++;
    }
    return next + Math.max(1, (nextEnd - next) / 2);
  }

  private Findings verify(SparkDistribution spark, String name, FaultCheck check, RunEvidence ev)
      throws FaultNotShownException {
    try {
      Findings f = check.verify(ev);
      LOG.info("{} on Spark {}: fault verified: {} {}", name, spark.version(), f.evidence(), f.measured());
      return f;
    } catch (FaultNotShownException e) {
      throw new FaultNotShownException("Scenario " + name + " on Spark " + spark.version()
          + " did not show its fault: " + e.getMessage());
    }
  }

  private LogFacts baseline(SparkDistribution spark, String name) throws IOException {
    LogFacts f = done.get(spark.version() + "/" + name);
    if (f != null) {
      return f;
    }
    // Not run in this session: compare with the committed baseline fixture.
    Path dir = fixturesRoot.resolve("spark-" + spark.version()).resolve(name).resolve("eventlog");
    if (!Files.isDirectory(dir)) {
      return null;
    }
    return LogFacts.read(EventLogFiles.logsIn(dir).get(0));
  }

  private void snapshot(SparkDistribution spark, Path log, Path out, boolean complete) throws GenerationException {
    try {
      new HistoryServerSnapshot(spark, tempRoot, Duration.ofMinutes(3)).capture(log, out, complete);
    } catch (IOException e) {
      throw new GenerationException("History Server snapshot failed on Spark " + spark.version() + ": " + e.getMessage(), e);
    }
  }

  private Path publish(SparkDistribution spark, String name, Path staging) throws IOException {
    Path target = fixturesRoot.resolve("spark-" + spark.version()).resolve(name);
    TempDir.deleteTree(target);
    FixtureFiles.copyTree(staging, target);
    LOG.info("Wrote {} ({} KiB)", target, FixtureFiles.size(target) / 1024);
    return target;
  }

  private static Map<String, Object> workload(Scenario s) {
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("program", s.workload());
    w.put("params", s.params());
    return w;
  }

  private static String read(Path p) throws IOException {
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }

  private static Map<String, String> readAll(Map<String, Path> files) throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, Path> e : files.entrySet()) {
      m.put(e.getKey(), read(e.getValue()));
    }
    return m;
  }
}

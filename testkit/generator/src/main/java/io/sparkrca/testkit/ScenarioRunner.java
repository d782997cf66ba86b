package io.sparkrca.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one scenario once as a real Spark application in a forked driver JVM, and copies what it
 * left behind (event log, driver output, executor logs) into an output directory. Everything
 * else the run wrote (Spark's temp and local dirs, SPARK_HOME/work, scratch data) lives in a
 * temporary directory that is deleted afterwards, whether the run succeeded, failed or timed out.
 */
public final class ScenarioRunner {
  private static final Logger LOG = LoggerFactory.getLogger(ScenarioRunner.class);
  static final String MAIN = "io.sparkrca.testkit.scenarios.ScenarioMain";
  static final String EXECUTOR_JAVA_OPTIONS = "spark.executor.extraJavaOptions";

  private final Path tempRoot;

  /** @param tempRoot where per-run temporary directories are created (and deleted) */
  public ScenarioRunner(Path tempRoot) {
    this.tempRoot = tempRoot;
  }

  /**
   * What one run produced.
   *
   * @param outcome how the driver JVM ended
   * @param eventLog the copied event log (file or rolling directory) under the output directory
   * @param driverStdout the driver's standard output file
   * @param driverStderr the driver's standard error file
   * @param executorLogs executor stderr files by executor id
   * @param executorStdout executor stdout files by executor id, only those that are not empty
   *     (the JVM itself prints there, e.g. {@code Terminating due to java.lang.OutOfMemoryError})
   * @param sparkConf the Spark settings the run was started with
   */
  public record Result(
      ForkedJvm.Outcome outcome,
      Path eventLog,
      Path driverStdout,
      Path driverStderr,
      Map<String, Path> executorLogs,
      Map<String, Path> executorStdout,
      Map<String, String> sparkConf) {}

  /**
   * Runs {@code scenario} on {@code spark}, writing into {@code outDir}.
   *
   * @throws GenerationException when the run timed out or left no single event log
   */
  public Result run(Scenario scenario, SparkDistribution spark, Path outDir) throws IOException, GenerationException {
    Files.createDirectories(outDir);
    Path stdout = outDir.resolve("driver-stdout.log");
    Path stderr = outDir.resolve("driver-stderr.log");
    Map<String, String> conf = sparkConf(scenario, spark);
    ForkedJvm.Outcome outcome;
    Path eventLog;
    Map<String, Path> executorLogs = new LinkedHashMap<>();
    Map<String, Path> executorStdout = new LinkedHashMap<>();
    try (TempDir tmp = TempDir.create(tempRoot, "run-" + scenario.name() + "-")) {
      Path events = Files.createDirectories(tmp.path().resolve("eventlog"));
      Path scratch = Files.createDirectories(tmp.path().resolve("scratch"));
      Path javaTmp = Files.createDirectories(tmp.path().resolve("tmp"));
      Path local = Files.createDirectories(tmp.path().resolve("local"));
      Path sparkHome = null;
      Map<String, String> runConf = new LinkedHashMap<>(conf);
      runConf.put("spark.eventLog.dir", events.toUri().toString());
      runConf.put("spark.local.dir", local.toString());
      if (scenario.localCluster()) {
        // A private SPARK_HOME per run: the workers' work directory (executor logs, shuffle
        // files) lands in it and goes away with it.
        sparkHome = Files.createDirectories(tmp.path().resolve("spark-home"));
        Files.createSymbolicLink(sparkHome.resolve("jars"), spark.jarsDir());
        runConf.put("spark.executor.extraClassPath", spark.scenariosJar().toString());
        // The scenario's own executor JVM options (heap flags, GC) come first.
        String own = conf.get(EXECUTOR_JAVA_OPTIONS);
        runConf.put(EXECUTOR_JAVA_OPTIONS, (own == null ? "" : own + " ") + "-Djava.io.tmpdir=" + javaTmp);
        if (scenario.executorOpenFiles() > 0) {
          // The worker starts executors with JAVA_HOME/bin/java, taking JAVA_HOME from the
          // executor environment first: a JAVA_HOME whose java lowers the limit, then execs the
          // real one, starts every executor JVM under that limit and nothing else.
          runConf.put("spark.executorEnv.JAVA_HOME",
              limitedJavaHome(sparkHome.resolve("java-nofile-" + scenario.executorOpenFiles()),
                  scenario.executorOpenFiles()).toString());
        }
      }
      List<String> jvm = new ArrayList<>(SparkJvm.javaModuleOptions());
      jvm.add("-Xmx" + scenario.driverHeapMb() + "m");
      jvm.add("-Djava.io.tmpdir=" + javaTmp);
      runConf.forEach((k, v) -> jvm.add("-D" + k + "=" + v));
      List<String> args = new ArrayList<>(List.of(scenario.workload(), scratch.toString()));
      args.addAll(scenario.paramArgs());
      ForkedJvm fork = new ForkedJvm(MAIN, spark.classPath(), jvm, args, SparkJvm.environment(sparkHome), tmp.path());
      LOG.info("Running {} on Spark {} ({})", scenario.name(), spark.version(), scenario.master());
      outcome = fork.run(stdout, stderr, scenario.timeout());
      LOG.info("{} on Spark {} ended: exit {} after {} s{}", scenario.name(), spark.version(),
          outcome.exitCode(), outcome.elapsed().toSeconds(), outcome.timedOut() ? " (TIMED OUT, tree killed)" : "");
      if (!outcome.survivorPids().isEmpty()) {
        throw new GenerationException(scenario.name() + ": processes survived the kill: " + outcome.survivorPids());
      }
      if (outcome.timedOut()) {
        throw new GenerationException(scenario.name() + " on Spark " + spark.version() + " timed out after "
            + scenario.timeout() + "; its process tree was killed and its temporary files deleted");
      }
      List<Path> logs = EventLogFiles.logsIn(events);
      if (logs.size() != 1) {
        throw new GenerationException(scenario.name() + " left " + logs.size() + " event logs, expected 1: " + logs);
      }
      eventLog = outDir.resolve("eventlog").resolve(logs.get(0).getFileName().toString());
      FixtureFiles.copyTree(logs.get(0), eventLog);
      if (sparkHome != null) {
        copyExecutorLogs(sparkHome.resolve("work"), outDir.resolve("executor-logs"), executorLogs, executorStdout);
      }
    }
    return new Result(outcome, eventLog, stdout, stderr, executorLogs, executorStdout, conf);
  }

  /**
   * A JAVA_HOME whose {@code bin/java} sets {@code ulimit -n limit} and then runs this JVM's own
   * {@code java}.
   */
  static Path limitedJavaHome(Path home, int limit) throws IOException {
    Path launcher = Files.createDirectories(home.resolve("bin")).resolve("java");
    String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(launcher, "#!/bin/sh\n"
        + "# sparkrca testkit: start the executor JVM with at most " + limit + " open files\n"
        + "ulimit -n " + limit + " || exit 97\n"
        + "exec '" + real.replace("'", "'\\''") + "' \"$@\"\n", java.nio.charset.StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(launcher, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }

  /** The Spark settings of a run, without the per-run directories. */
  static Map<String, String> sparkConf(Scenario scenario, SparkDistribution spark) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.master", scenario.master());
    c.put("spark.app.name", "sparkrca-testkit " + scenario.name());
    c.put("spark.ui.enabled", "false");
    c.put("spark.eventLog.enabled", "true");
    c.putAll(scenario.format(spark).sparkConf(spark));
    c.putAll(scenario.sparkConf());
    return c;
  }

  private static void copyExecutorLogs(Path work, Path out, Map<String, Path> sink, Map<String, Path> stdoutSink)
      throws IOException {
    if (!Files.isDirectory(work)) {
      return;
    }
    // Layout: work/<appId>/<executorId>/{stdout,stderr}. Spark logs to stderr; stdout is kept
    // only when something (the JVM itself, on an OutOfMemoryError exit) wrote to it.
    try (Stream<Path> apps = Files.list(work)) {
      for (Path app : apps.toList()) {
        try (Stream<Path> execs = Files.list(app)) {
          for (Path exec : execs.sorted().toList()) {
            Path err = exec.resolve("stderr");
            if (Files.isRegularFile(err)) {
              Path target = out.resolve(exec.getFileName() + ".stderr");
              FixtureFiles.copyTree(err, target);
              sink.put(exec.getFileName().toString(), target);
            }
            Path stdoutFile = exec.resolve("stdout");
            if (Files.isRegularFile(stdoutFile) && Files.size(stdoutFile) > 0) {
              Path target = out.resolve(exec.getFileName() + ".stdout");
              FixtureFiles.copyTree(stdoutFile, target);
              stdoutSink.put(exec.getFileName().toString(), target);
            }
          }
        }
      }
    }
  }
}

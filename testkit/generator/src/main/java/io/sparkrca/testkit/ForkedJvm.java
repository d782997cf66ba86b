package io.sparkrca.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;

/**
 * How to start one Java program in its own JVM: class path, JVM options, program arguments,
 * environment and working directory. Immutable; {@link #start} launches it.
 *
 * @param mainClass the class whose {@code main} runs
 * @param classPath class-path entries (directories, jars, or {@code dir/*} wildcards)
 * @param jvmOptions options before the main class, such as {@code -Xmx1g} or {@code -Dk=v}
 * @param args program arguments
 * @param env variables added to (or replacing) the inherited environment
 * @param workDir the working directory of the new JVM
 */
public record ForkedJvm(
    String mainClass,
    List<String> classPath,
    List<String> jvmOptions,
    List<String> args,
    Map<String, String> env,
    Path workDir) {

  public ForkedJvm {
    Objects.requireNonNull(mainClass, "mainClass");
    classPath = List.copyOf(classPath);
    jvmOptions = List.copyOf(jvmOptions);
    args = List.copyOf(args);
    env = Map.copyOf(env);
    Objects.requireNonNull(workDir, "workDir");
  }

  /** The {@code java} of the JVM running the generator: scenarios run on the same JDK. */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** The full command line. */
  public List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(currentJava().toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(String.join(java.io.File.pathSeparator, classPath));
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  /** Starts the JVM with standard output and error redirected to the given files. */
  public Process start(Path stdout, Path stderr) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command()).directory(workDir.toFile());
    pb.environment().putAll(env);
    pb.redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    return pb.start();
  }

  /**
   * Runs the JVM to completion or until {@code timeout}, whichever comes first. On timeout the
   * whole process tree is killed.
   */
  public Outcome run(Path stdout, Path stderr, Duration timeout) throws IOException {
    long t0 = System.nanoTime();
    long deadline = t0 + timeout.toNanos();
    Process p = start(stdout, stderr);
    // Nothing reads our stdin: close it so a program waiting on it sees EOF at once.
    p.getOutputStream().close();
    // Remember every descendant ever seen: once a parent exits, its orphans are re-parented and
    // can no longer be found from it, but they must not outlive the run.
    Set<ProcessHandle> seen = new LinkedHashSet<>();
    boolean finished = false;
    try {
      while (!(finished = p.waitFor(250, TimeUnit.MILLISECONDS)) && System.nanoTime() < deadline) {
        p.descendants().forEach(seen::add);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Long> survivors = new ArrayList<>();
    if (!finished) {
      ProcessTree.kill(p.toHandle(), Duration.ofSeconds(30)).forEach(h -> survivors.add(h.pid()));
    }
    for (ProcessHandle h : seen) {
      if (h.isAlive()) {
        ProcessTree.kill(h, Duration.ofSeconds(30)).forEach(x -> survivors.add(x.pid()));
      }
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
    Integer exit = finished ? p.exitValue() : null;
    return new Outcome(exit, !finished, elapsed, survivors);
  }

  /**
   * How a forked run ended.
   *
   * @param exitCode the exit code, or null when the run was killed on timeout
   * @param timedOut whether the timeout ran out
   * @param elapsed wall-clock time
   * @param survivorPids processes of the tree still alive after the kill (should be empty)
   */
  public record Outcome(Integer exitCode, boolean timedOut, Duration elapsed, List<Long> survivorPids) {
    public Outcome {
      survivorPids = List.copyOf(survivorPids);
    }
  }
}

package io.sparkrca.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Spark History Server of one Spark version, running in a forked JVM on that version's
 * class path ({@code HistoryServerMain}: {@code FsHistoryProvider} and {@code HistoryServer}) over
 * one log directory, with the testkit's settings ({@link HistoryServerSnapshot#settings}). Closing
 * it stops the server (its standard input closes) and kills its process tree if it lingers.
 *
 * <pre>{@code
 * try (HistoryServerProcess shs = HistoryServerProcess.start(SparkDistribution.locate("4.0.4"), logDir, work, Duration.ofMinutes(2))) {
 *   String api = shs.url() + "/api/v1/applications";
 * }
 * }</pre>
 */
public final class HistoryServerProcess implements AutoCloseable {
  private static final Pattern PORT = Pattern.compile("SHS_PORT=(\\d+)");

  private final Process process;
  private final Path stderr;
  private final int port;

  private HistoryServerProcess(Process process, Path stderr, int port) {
    this.process = process;
    this.stderr = stderr;
    this.port = port;
  }

  /**
   * Starts the server over {@code logDir} and waits until it listens.
   *
   * @param workDir where the JVM's temporary files and output go (the caller deletes it)
   */
  public static HistoryServerProcess start(SparkDistribution spark, Path logDir, Path workDir, Duration timeout)
      throws IOException {
    return start(spark, logDir, workDir, timeout, "768m");
  }

  /** As {@link #start(SparkDistribution, Path, Path, Duration)}, with a heap of {@code maxHeap} (such as {@code 4g}). */
  public static HistoryServerProcess start(SparkDistribution spark, Path logDir, Path workDir, Duration timeout,
      String maxHeap) throws IOException {
    Map<String, String> settings = HistoryServerSnapshot.settings(logDir);
    List<String> jvm = new ArrayList<>(SparkJvm.javaModuleOptions());
    jvm.add("-Xmx" + maxHeap);
    jvm.add("-Djava.io.tmpdir=" + Files.createDirectories(workDir.resolve("tmp")));
    settings.forEach((k, v) -> jvm.add("-D" + k + "=" + v));
    ForkedJvm fork = new ForkedJvm("io.sparkrca.testkit.scenarios.HistoryServerMain",
        spark.classPath(), jvm, List.of(), SparkJvm.environment(null), workDir);
    Path stdout = workDir.resolve("shs.out");
    Path stderr = workDir.resolve("shs.err");
    Process p = fork.start(stdout, stderr);
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        Matcher m = PORT.matcher(Files.readString(stdout));
        if (m.find()) {
          return new HistoryServerProcess(p, stderr, Integer.parseInt(m.group(1)));
        }
        if (!p.isAlive()) {
          throw new IOException("History Server exited with " + p.exitValue() + ":\n" + tail(stderr));
        }
        sleep(200);
      }
      throw new IOException("History Server did not start within " + timeout + ":\n" + tail(stderr));
    } catch (IOException | RuntimeException e) {
      stop(p);
      throw e;
    }
  }

  /** The port it listens on (loopback). */
  public int port() {
    return port;
  }

  /** Its root URL, such as {@code http://127.0.0.1:40123}. */
  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The last lines of its standard error, for failure messages. */
  public String tailOfLog() throws IOException {
    return tail(stderr);
  }

  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process p) {
    // Closing stdin asks the server to stop; killing the tree makes sure it does.
    OutputStream stdin = p.getOutputStream();
    try {
      stdin.close();
    } catch (IOException ignored) {
      // The process may already be gone.
    }
    try {
      p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ProcessTree.kill(p.toHandle(), Duration.ofSeconds(20));
  }

  static String tail(Path file) throws IOException {
    if (!Files.exists(file)) {
      return "";
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

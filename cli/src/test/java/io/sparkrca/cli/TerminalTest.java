package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI as a person sees it in a terminal: the real {@code sparkrca} process runs in a tmux pane,
 * and the test reads the pane. Progress shows on a terminal and never in redirected output;
 * colour shows on a terminal and never with {@code NO_COLOR}.
 */
class TerminalTest {
  private static final AtomicInteger SESSIONS = new AtomicInteger();
  @TempDir static Path dir;
  private static Path log;

  @BeforeAll
  static void tmuxAndALargeLog() throws Exception {
    assumeTrue(run(List.of("tmux", "-V")) == 0, "tmux is not installed: the terminal tests are skipped");
    log = dir.resolve("executor.log");
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (int i = 0; i < 300_000; i++) {
        w.write("26/12/02 01:00:00 INFO Executor: Finished task " + i + " in stage 3.0 (TID " + i + "). 2048 bytes result sent\n");
        if (i % 1000 == 0) {
          w.write("26/12/02 01:00:00 ERROR Executor: Exception in task " + i + ".0 in stage 3.0\n");
        }
      }
    }
  }

  @Test
  void aLongReadShowsProgressOnTheTerminalButNotInTheOutputFile() throws Exception {
    Path out = dir.resolve("count.txt");
    Path raw = dir.resolve("count-terminal.txt");
    String pane = inTerminal("sparkrca logs count " + log + " --regex 'ERROR.*task' > " + out, Map.of("SPARKRCA_PROGRESS_AFTER_MS", "0"),
        java.util.Optional.of(raw));
    assertThat(Files.readString(raw)).as("what the terminal was sent")
        .containsPattern("1/1 files · [0-9.]+ MiB of [0-9.]+ MiB · [0-9.]+ [KMG]?i?B/s");
    assertThat(pane).as("the pane once the command is done: the progress line was erased").doesNotContain("files ·");
    assertThat(Files.readString(out)).as("standard output").contains("300").doesNotContain("files ·").doesNotContain("\r");
  }

  @Test
  void theProgressLineIsErasedBeforeTheReportStarts() throws Exception {
    Path raw = dir.resolve("report-terminal.txt");
    String pane = inTerminal("sparkrca logs count " + log + " --regex 'ERROR.*task'", Map.of("SPARKRCA_PROGRESS_AFTER_MS", "0"),
        java.util.Optional.of(raw));
    String sent = Files.readString(raw);
    int report = sent.indexOf("Matching lines");
    assertThat(sent.lastIndexOf("files ·", report)).as("progress was drawn before the report").isPositive();
    assertThat(sent.substring(sent.lastIndexOf("files ·", report), report)).as("and erased before it")
        .containsPattern("\r {20,}\r");
    assertThat(sent.substring(report)).as("no progress after the report").doesNotContain("files ·");
    assertThat(pane).contains("Matching lines").doesNotContain("files ·");
  }

  @Test
  void redirectedStandardErrorGetsNoProgress() throws Exception {
    Path err = dir.resolve("err.txt");
    String pane = inTerminal("sparkrca logs count " + log + " --regex 'ERROR.*task' 2> " + err, Map.of("SPARKRCA_PROGRESS_AFTER_MS", "0"));
    assertThat(pane).contains("Matching lines").doesNotContain("files ·");
    assertThat(Files.readString(err)).isEmpty();
  }

  @Test
  void quietShowsNoProgress() throws Exception {
    String pane = inTerminal("sparkrca -q logs count " + log + " --regex 'ERROR.*task'", Map.of("SPARKRCA_PROGRESS_AFTER_MS", "0"));
    assertThat(pane).contains("Matching lines").doesNotContain("files ·");
  }

  @Test
  void helpIsColouredOnATerminalUnlessNoColorIsSet() throws Exception {
    // A help that fits the pane: what scrolls off a pane is not captured.
    assertThat(inTerminal("sparkrca logs --help", Map.of())).contains("\u001b[");
    assertThat(inTerminal("sparkrca logs --help", Map.of("NO_COLOR", "1"))).contains("Usage:").doesNotContain("\u001b[");
  }

  /** Runs {@code command} (with {@code sparkrca} as the CLI's JVM) in a fresh tmux pane and returns what the pane shows, escapes included. */
  private static String inTerminal(String command, Map<String, String> env) throws Exception {
    return inTerminal(command, env, java.util.Optional.empty());
  }

  /**
   * {@link #inTerminal(String, Map)}, with everything the command sent to the terminal (the
   * redrawn progress line and its erasure too, which the pane no longer shows) copied to {@code raw}.
   */
  private static String inTerminal(String command, Map<String, String> env, java.util.Optional<Path> raw) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cli = "'" + java + "' -cp '" + System.getProperty("java.class.path") + "' io.sparkrca.cli.SparkRcaCommand";
    StringBuilder script = new StringBuilder();
    env.forEach((k, v) -> script.append("export ").append(k).append("='").append(v).append("'; "));
    script.append(command.replaceFirst("^sparkrca", cli.replace("\\", "\\\\").replace("$", "\\$"))).append("; echo \"EXIT=$?\"");
    Path sh = Files.writeString(dir.resolve("run-" + SESSIONS.get() + ".sh"), script.toString());
    String session = "sparkrca-test-" + ProcessHandle.current().pid() + "-" + SESSIONS.incrementAndGet();
    // A tmux server exits when its last session is killed; a new session started in that moment
    // can fail, so try a few times.
    int started = -1;
    for (int attempt = 0; attempt < 10 && started != 0; attempt++) {
      if (attempt > 0) {
        Thread.sleep(300);
      }
      // With a raw copy wanted, the pane waits for the copy to be set up before it runs the command.
      String go = raw.isPresent() ? "while [ ! -f " + sh + ".go ]; do sleep 0.05; done; " : "";
      started = run(List.of("tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "50", go + "sh " + sh + "; sleep 600"));
    }
    assertThat(started).as("tmux new-session").isZero();
    if (raw.isPresent()) {
      assertThat(run(List.of("tmux", "pipe-pane", "-o", "-t", session, "cat > '" + raw.get() + "'"))).as("tmux pipe-pane").isZero();
      Files.writeString(Path.of(sh + ".go"), "");
    }
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline) {
        String pane = capture(session);
        if (pane.contains("EXIT=")) {
          return pane;
        }
        Thread.sleep(200);
      }
      throw new AssertionError("the command did not finish in 120 s; the pane shows:\n" + capture(session));
    } finally {
      run(List.of("tmux", "kill-session", "-t", session));
    }
  }

  private static String capture(String session) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("tmux", "capture-pane", "-p", "-e", "-J", "-t", session).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return text;
  }

  private static int run(List<String> command) {
    try {
      Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}

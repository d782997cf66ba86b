package io.sparkrca.core.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Real named pipes (FIFOs) for the tests that prove no reader opens one: opening a FIFO blocks
 * until a writer comes, so a reader that did would hang. Made with the system's {@code mkfifo}
 * (coreutils, present on every machine the build runs on); its absence fails the test rather than
 * skipping it, so the guarantee is never reported as tested when it was not.
 */
public final class NamedPipes {
  private NamedPipes() {}

  /** Makes a named pipe at {@code at} and returns it. */
  public static Path make(Path at) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", at.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError("mkfifo could not be run (" + e.getMessage() + "): install coreutils to run this test", e);
    }
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("mkfifo " + at + " did not finish within 10 s");
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("mkfifo " + at + " failed (exit " + p.exitValue() + "): "
          + new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim());
    }
    return at;
  }
}

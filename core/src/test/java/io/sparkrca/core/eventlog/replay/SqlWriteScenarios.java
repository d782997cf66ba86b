package io.sparkrca.core.eventlog.replay;

import java.nio.file.Path;

/**
 * Development aid: writes the synthetic scenario logs to a directory
 * so that a real History Server can answer over them. A program run by hand (from the test class
 * path), not a test: {@code java ... SqlWriteScenarios <dir>}.
 */
final class SqlWriteScenarios {
  private SqlWriteScenarios() {}

  public static void main(String[] args) throws Exception {
    SqlScenarios.write(Path.of(args[0]));
  }
}

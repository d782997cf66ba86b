package io.sparkrca.core.eventlog.replay;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Development aid: writes the synthetic scenario logs to {@code -Dsparkrca.sql.writeScenarios=dir}
 * so that a real History Server can answer over them. Skipped without the property.
 */
class SqlWriteScenariosTest {
  @Test
  void writeScenarioLogs() throws Exception {
    String dir = System.getProperty("sparkrca.sql.writeScenarios");
    assumeTrue(dir != null && !dir.isBlank(), "no -Dsparkrca.sql.writeScenarios");
    SqlScenarios.write(Path.of(dir));
  }
}

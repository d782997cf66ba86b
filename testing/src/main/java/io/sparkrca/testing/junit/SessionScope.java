package io.sparkrca.testing.junit;

/**
 * Whose SparkSession a test runs on, and so what application its assertions see.
 *
 * <pre>{@code
 * @SparkTest(session = SessionScope.PER_METHOD)
 * class ColdStartTest { ... }
 * }</pre>
 */
public enum SessionScope {
  /**
   * One session for the test class (Spark allows one per JVM, and starting it takes seconds): each
   * test is judged on the jobs it ran, its slice of the shared application, which counts as ended
   * when its jobs have. The default.
   */
  PER_CLASS,
  /**
   * A session per test, stopped after the test body: the test's application is complete, its end
   * recorded, exactly as a finished job's event log.
   */
  PER_METHOD,
  /**
   * The code under test builds its own session ({@code SparkSession.builder().getOrCreate()}): the
   * extension only points its event log at a temporary directory (through {@code spark.*} system
   * properties, which Spark reads when it builds its configuration) and reads the application(s) it
   * wrote. Not for tests running in parallel: system properties are shared by the JVM.
   */
  CODE_UNDER_TEST
}

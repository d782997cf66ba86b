package io.sparkrca.testing.spark;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs a sample test class through the real JUnit Platform, in this JVM and on this thread, so
 * that a test can check how the extension fails another test (a declared check, a parameter it
 * refuses). The sample reuses the SparkSession already running.
 */
final class Launch {
  private static volatile boolean running;

  private Launch() {}

  static TestExecutionSummary run(Class<?> testClass) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    running = true;
    try {
      launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
    } finally {
      running = false;
    }
    return listener.getSummary();
  }

  /**
   * Whether a sample runs through {@link #run}: samples carry {@code @EnabledIf} on this, so that a
   * test filter that selects them directly ({@code -Dtest='io/sparkrca/**'}) skips them.
   */
  static boolean running() {
    return running;
  }
}

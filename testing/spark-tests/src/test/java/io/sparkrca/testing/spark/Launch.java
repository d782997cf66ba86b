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
  private Launch() {}

  static TestExecutionSummary run(Class<?> testClass) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
    return listener.getSummary();
  }
}

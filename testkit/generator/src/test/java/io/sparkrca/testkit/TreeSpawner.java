package io.sparkrca.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Test program: starts a child JVM (which sleeps), writes the child's pid to a file, then sleeps
 * itself. Stands in for a Spark driver with executor JVMs when testing the timeout kill.
 */
public final class TreeSpawner {
  private TreeSpawner() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("child")) {
      Thread.sleep(600_000);
      return;
    }
    Path pidFile = Path.of(args[1]);
    Process child = new ProcessBuilder(List.of(ForkedJvm.currentJava().toString(), "-cp",
        System.getProperty("java.class.path"), TreeSpawner.class.getName(), "child")).start();
    Files.writeString(pidFile, Long.toString(child.pid()));
    Thread.sleep(600_000);
  }
}

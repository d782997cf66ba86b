package io.sparkrca.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Kills a process together with everything it started. A Spark driver in local-cluster mode
 * starts executor JVMs as its children; killing only the driver would leave them running.
 */
public final class ProcessTree {
  private ProcessTree() {}

  /**
   * Forcibly kills {@code root} and all its descendants, and waits (bounded) until they are gone.
   *
   * @return the processes that were still alive when the wait ran out (normally none)
   */
  public static List<ProcessHandle> kill(ProcessHandle root, Duration wait) {
    // Snapshot first: once the parent dies its children are re-parented and no longer descendants.
    List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
    all.add(0, root);
    // Children first, so that a dying parent cannot restart them.
    for (int i = all.size() - 1; i >= 0; i--) {
      all.get(i).destroyForcibly();
    }
    long deadline = System.nanoTime() + wait.toNanos();
    List<ProcessHandle> alive = new ArrayList<>();
    for (ProcessHandle p : all) {
      long left = deadline - System.nanoTime();
      try {
        p.onExit().get(Math.max(left, 1), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        // Timed out or failed to observe the exit: reported below if it is still alive.
      }
      if (p.isAlive()) {
        alive.add(p);
      }
    }
    return alive;
  }
}

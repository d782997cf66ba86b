package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.evidence.ClusterEventReasons;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Executor exit codes: read from a removal or loss reason ({@code Command exited with code 52},
 * YARN's {@code Exit status: 137}, Kubernetes' {@code exited with exit code 137}) and decoded:
 * Spark's own codes (50-56), the JVM's 3 for {@code -XX:+ExitOnOutOfMemoryError}, and signals
 * (128 + n: 134 SIGABRT, 137 SIGKILL, 139 SIGSEGV, 143 SIGTERM), with which log holds the proof.
 */
public final class ExitCodes {
  private static final Pattern CODE = Pattern.compile(
      "(?:exited with code|exit code(?: is)?:?|Exit status:?|exitCode[=:]|exited with exit code) ?(-?\\d+)",
      Pattern.CASE_INSENSITIVE);

  private ExitCodes() {}

  /** What an exit code means and where the proof is. */
  public record Meaning(int code, String meaning, String proof, boolean memory) {}

  /** The exit code in {@code reason}, if it names one. */
  public static OptionalInt find(String reason) {
    if (reason == null) {
      return OptionalInt.empty();
    }
    Matcher m = CODE.matcher(reason);
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }

  /** Whether the reason itself says the container was killed for its memory. */
  public static boolean memoryKill(String reason) {
    String r = reason == null ? "" : reason;
    return r.contains("exceeding memory limits") || r.contains("exceeding physical memory")
        || r.contains("exceeding virtual memory") || r.contains(ClusterEventReasons.OOM_KILLED) || r.contains("possible container OOM")
        || r.contains("memory cgroup");
  }

  public static Optional<Meaning> meaning(int code) {
    return Optional.ofNullable(switch (code) {
      case 3 -> new Meaning(3, "the JVM exited on an OutOfMemoryError (-XX:+ExitOnOutOfMemoryError)",
          "the executor's stderr ('Terminating due to java.lang.OutOfMemoryError: ...')", true);
      case 50 -> new Meaning(50, "an uncaught exception killed the executor (Spark exit code 50)",
          "the executor's stderr (the uncaught exception)", false);
      case 51 -> new Meaning(51, "an uncaught exception, and another while logging it (Spark exit code 51)",
          "the executor's stderr", false);
      case 52 -> new Meaning(52, "the executor ran out of memory (Spark exit code 52: its handler saw an OutOfMemoryError)",
          "the failed task's OutOfMemoryError, and the executor's stderr", true);
      case 53 -> new Meaning(53, "the executor could not create its local directories (Spark exit code 53)",
          "the executor's stderr (DiskStore errors): check spark.local.dir and disk space", false);
      case 54, 55 -> new Meaning(code, "the external block store failed (Spark exit code " + code + ")",
          "the executor's stderr", false);
      case 56 -> new Meaning(56, "the executor could not send heartbeats to the driver (Spark exit code 56)",
          "the executor's stderr, and the driver's GC and load at that time", false);
      case 134 -> new Meaning(134, "the JVM aborted (SIGABRT): a crash (hs_err file) or -XX:+CrashOnOutOfMemoryError",
          "the executor's stderr and its hs_err_pid*.log", false);
      case 137 -> new Meaning(137, "the process was killed with SIGKILL: usually the kernel's OOM killer or the cluster "
          + "manager enforcing the container's memory limit, sometimes a preemption or a kill -9",
          "the cluster manager's record: the executor pod's status (kubectl describe pod: state.terminated reason "
          + "OOMKilled), YARN's 'Container killed ... exceeding memory limits', or the node's kernel log", true);
      case 139 -> new Meaning(139, "the process crashed (SIGSEGV), usually in native code", "the executor's stderr and hs_err file", false);
      case 143 -> new Meaning(143, "the process was stopped with SIGTERM: the cluster manager or the driver stopped it "
          + "(preemption, eviction, decommissioning, the application ending)", "the cluster manager's events", false);
      case 1 -> new Meaning(1, "the process exited with a generic error (code 1)", "the executor's stderr", false);
      default -> null;
    });
  }
}

package io.sparkrca.kubernetes;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One container of a pod: its resources and what became of it (running, waiting and why, or
 * terminated with its record), with the record of its previous run when it restarted.
 *
 * <pre>{@code
 * for (ContainerInfo c : pod.containers()) {
 *   System.out.println(c.name() + " " + c.state() + " limit " + c.memoryLimitBytes().orElse(-1L));
 * }
 * }</pre>
 *
 * @param name the container's name ({@code spark-kubernetes-executor} for Spark's own)
 * @param image its image
 * @param restartCount how often it restarted (0 under Spark's {@code restartPolicy: Never})
 * @param state {@code running}, {@code waiting}, {@code terminated} or {@code unknown}
 * @param stateReason the waiting reason ({@code CrashLoopBackOff}, {@code ImagePullBackOff}), or ""
 * @param runningSince when the current run started, for a running container
 * @param terminated how the current run ended, for a terminated container
 * @param lastTerminated how the previous run ended, after a restart
 * @param memoryRequestBytes the memory it requested
 * @param memoryLimitBytes the memory limit it is held to
 * @param cpuRequest its CPU request as written ({@code 1}, {@code 500m}), or ""
 * @param cpuLimit its CPU limit as written, or ""
 */
public record ContainerInfo(String name, String image, int restartCount, String state, String stateReason,
    Optional<Instant> runningSince, Optional<Termination> terminated, Optional<Termination> lastTerminated,
    Optional<Long> memoryRequestBytes, Optional<Long> memoryLimitBytes, String cpuRequest, String cpuLimit) {
  public ContainerInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(stateReason, "stateReason");
    Objects.requireNonNull(runningSince, "runningSince");
    Objects.requireNonNull(terminated, "terminated");
    Objects.requireNonNull(lastTerminated, "lastTerminated");
    Objects.requireNonNull(memoryRequestBytes, "memoryRequestBytes");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
    Objects.requireNonNull(cpuRequest, "cpuRequest");
    Objects.requireNonNull(cpuLimit, "cpuLimit");
  }
}

package io.sparkrca.gcp.dataproc;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the Dataproc control plane says about one workload, the same shape for a batch, a session
 * and a cluster job: its state and the message that goes with it, where its output and event logs
 * are, its code and its effective properties.
 *
 * @param workload the workload
 * @param call the call that answered, e.g. {@code BatchController.GetBatch(projects/p/locations/r/batches/b)}
 * @param state the state name, e.g. {@code FAILED} (a job's {@code ERROR})
 * @param stateMessage the batch or session {@code stateMessage}, or the job's {@code status.details}
 * @param stateTime when it entered that state
 * @param createTime when it was created (a job: when it was submitted)
 * @param outputUri a Serverless workload's {@code runtimeInfo.outputUri} (the driver output prefix)
 * @param driverOutputUri a cluster job's {@code driverOutputResourceUri}
 * @param mainFile the main Python file or JAR
 * @param mainClass a Java or Scala job's main class
 * @param otherCode further JARs and Python files
 * @param properties the Spark properties set on the workload (a cluster job: its job properties)
 * @param autotuning the autotuning scenarios a Serverless batch runs with (empty when off)
 * @param cluster the cluster a job ran on
 * @param yarnApplicationIds the YARN application ids a cluster job reports
 */
public record WorkloadRecord(
    DataprocWorkload workload,
    String call,
    String state,
    String stateMessage,
    Optional<Instant> stateTime,
    Optional<Instant> createTime,
    Optional<String> outputUri,
    Optional<String> driverOutputUri,
    Optional<String> mainFile,
    Optional<String> mainClass,
    List<String> otherCode,
    Map<String, String> properties,
    List<String> autotuning,
    Optional<String> cluster,
    List<String> yarnApplicationIds) {
  public WorkloadRecord {
    otherCode = List.copyOf(otherCode);
    properties = Map.copyOf(properties);
    autotuning = List.copyOf(autotuning);
    yarnApplicationIds = List.copyOf(yarnApplicationIds);
  }

  /** Whether the workload ended in failure. */
  public boolean failed() {
    return state.equals("FAILED") || state.equals("ERROR") || state.equals("ATTEMPT_FAILURE");
  }

  /** One line: the call, the state, and the state message. */
  public String describe() {
    return call + " answered: state " + state + stateTime.map(t -> " since " + t).orElse("")
        + (stateMessage.isBlank() ? ", no state message" : ", state message: " + stateMessage.strip());
  }
}

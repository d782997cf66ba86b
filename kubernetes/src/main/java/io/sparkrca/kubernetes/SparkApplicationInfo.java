package io.sparkrca.kubernetes;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Spark Operator {@code SparkApplication} ({@code sparkoperator.k8s.io/v1beta2}) as its status
 * records it: the application's state and error message, its Spark application id, the driver's
 * pod, and each executor pod's state. These outlive the pods.
 *
 * <pre>{@code
 * app.filter(a -> a.state().equals("FAILED")).ifPresent(a -> System.out.println(a.errorMessage()));
 * }</pre>
 *
 * @param namespace its namespace
 * @param name its name
 * @param state {@code COMPLETED}, {@code FAILED}, {@code RUNNING}, {@code SUBMISSION_FAILED}, ...
 * @param errorMessage the operator's error message, redacted, or ""
 * @param sparkApplicationId the Spark application id it ran as
 * @param driverPod the driver's pod
 * @param executorStates each executor pod's state, by pod name
 * @param submissionAttempts how often it was submitted
 * @param terminationTime when it ended
 */
public record SparkApplicationInfo(String namespace, String name, String state, String errorMessage,
    Optional<String> sparkApplicationId, Optional<String> driverPod, Map<String, String> executorStates,
    int submissionAttempts, Optional<Instant> terminationTime) {
  public SparkApplicationInfo {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(errorMessage, "errorMessage");
    Objects.requireNonNull(sparkApplicationId, "sparkApplicationId");
    Objects.requireNonNull(driverPod, "driverPod");
    executorStates = Map.copyOf(executorStates);
    Objects.requireNonNull(terminationTime, "terminationTime");
  }
}

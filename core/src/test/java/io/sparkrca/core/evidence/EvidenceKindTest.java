package io.sparkrca.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Evidence kinds keep the words reports have always used, and say where to get each kind. */
class EvidenceKindTest {

  @Test
  void eachKindIsNamedAsReportsNameIt() {
    assertThat(EvidenceKind.EVENT_LOG.displayName()).isEqualTo("event log");
    assertThat(EvidenceKind.DRIVER_LOG.displayName()).isEqualTo("driver log");
    assertThat(EvidenceKind.EXECUTOR_LOGS.displayName()).isEqualTo("executor logs");
    assertThat(EvidenceKind.CLUSTER_RECORDS.displayName()).isEqualTo("cluster records");
    assertThat(EvidenceKind.CODE.displayName()).isEqualTo("code");
  }

  @Test
  void onePieceOfAKindKeepsItsOwnName() {
    assertThat(EvidenceKind.EXECUTOR_LOGS.qualified("3")).isEqualTo("executor 3 log");
    assertThat(EvidenceKind.CLUSTER_RECORDS.qualified("kubernetes")).isEqualTo("cluster records (kubernetes)");

    EvidenceGap one = new EvidenceGap(EvidenceKind.EXECUTOR_LOGS, "executor 3 log", "", GapReason.NOT_FOUND, "", "");
    EvidenceGap all = new EvidenceGap(EvidenceKind.EXECUTOR_LOGS, "", GapReason.NOT_REQUESTED, "", "");
    assertThat(one.specific()).isTrue();
    assertThat(all.specific()).isFalse();
    assertThat(all.what()).isEqualTo("executor logs");
  }

  @Test
  void theAdviceNamesEveryPlatformsWayInOnePhrase() {
    assertThat(EvidenceKind.DRIVER_LOG.howToGet())
        .isEqualTo("spark-submit's stderr, the driver pod's log, or the YARN application master's log");
    assertThat(EvidenceKind.EXECUTOR_LOGS.howToGet())
        .isEqualTo("the executors' stderr: the worker's work directory, yarn logs -applicationId, kubectl logs");
    assertThat(EvidenceKind.CLUSTER_RECORDS.howToGet()).isEqualTo("the cluster manager's view of the executors: on "
        + "Kubernetes the pods' status and events (kubectl describe pod, kubectl get events; the sparkrca-kubernetes "
        + "module reads them given the namespace), on YARN yarn logs -applicationId and the container exit statuses, "
        + "on Dataproc the batch's logs in Cloud Logging");
    assertThat(EvidenceKind.CODE.howToGet()).isEqualTo("the job's JAR or script");
    assertThat(EvidenceKind.BASELINE.howToGet()).isEqualTo("collect it and run the analysis again");
    assertThat(EvidenceKind.EVENT_LOG.howToGet()).startsWith("the application's event log: the file named after "
        + "the application id under spark.eventLog.dir").contains("on Kubernetes the volume or bucket");
  }

  @Test
  void theAdviceForOnePlatformKeepsItsOwnPlacesAndThoseOfAnyPlatform() {
    assertThat(EvidenceKind.DRIVER_LOG.placesOn(EvidenceKind.Platform.KUBERNETES))
        .containsExactly("spark-submit's stderr", "the driver pod's log");
    assertThat(EvidenceKind.EXECUTOR_LOGS.placesOn(EvidenceKind.Platform.YARN)).containsExactly("yarn logs -applicationId");
    assertThat(EvidenceKind.EVENT_LOG.placesOn(EvidenceKind.Platform.DATAPROC)).hasSize(3)
        .last().asString().contains("Cloud Storage");
    assertThat(EvidenceKind.BASELINE.placesOn(EvidenceKind.Platform.DATAPROC)).isEmpty();
  }

  @Test
  void aWorkloadsLogIsOfTheKindItsRoleSays() {
    assertThat(WorkloadEvidence.Log.ofUri("gs://b/o", java.util.Optional.of(LogRole.DRIVER), "driver output").kind())
        .isEqualTo(EvidenceKind.DRIVER_LOG);
    assertThat(WorkloadEvidence.Log.ofUri("gs://b/o", java.util.Optional.empty(), "Cloud Logging").kind())
        .isEqualTo(EvidenceKind.LOG);
  }
}

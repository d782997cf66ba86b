package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.Cluster;
import com.google.cloud.dataproc.v1.ClusterConfig;
import com.google.cloud.dataproc.v1.Job;
import com.google.cloud.dataproc.v1.JobPlacement;
import com.google.cloud.dataproc.v1.JobStatus;
import com.google.cloud.dataproc.v1.PySparkBatch;
import com.google.cloud.dataproc.v1.RuntimeConfig;
import com.google.cloud.dataproc.v1.RuntimeInfo;
import com.google.cloud.dataproc.v1.Session;
import com.google.cloud.dataproc.v1.SoftwareConfig;
import com.google.cloud.dataproc.v1.SparkJob;
import com.google.cloud.dataproc.v1.YarnApplication;
import com.google.logging.type.LogSeverity;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.ListLogEntriesResponse;
import com.google.logging.v2.LogEntry;
import com.google.protobuf.AbstractMessage;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import io.grpc.Status;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.testing.DataprocFakes;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Dataproc troubleshooting skill's evidence flow per workload type, through the real Dataproc
 * and Logging gRPC clients (against the libraries' mock services on loopback), the
 * sparkApplications client (loopback fake) and google-cloud-storage (loopback JSON-API fake).
 */
class DataprocEvidenceProviderTest {
  private static final String BATCH = "projects/p/locations/us-central1/batches/b-1";
  private static final Instant FAILED_AT = Instant.parse("2026-12-01T21:20:00Z");
  private static DataprocFakes fakes;

  @BeforeAll
  static void start() throws Exception {
    fakes = new DataprocFakes();
  }

  @AfterAll
  static void stop() {
    fakes.close();
  }

  @BeforeEach
  void reset() {
    fakes.reset();
  }

  private static Evidence collect(String uri) {
    return EvidenceCollector.builder().sources(fakes.sources()).loadServiceProviders(false)
        .workloadEvidence(new DataprocEvidenceProvider(fakes.settings())).workload(uri).build().collect();
  }

  private static Batch.Builder failedBatch(String name) {
    return Batch.newBuilder().setName(name).setState(Batch.State.FAILED)
        .setStateMessage("Job failed with message [Py4JJavaError: An error occurred while calling o73.collect.]")
        .setStateTime(ts(FAILED_AT)).setCreateTime(ts(FAILED_AT.minusSeconds(300)))
        .setPysparkBatch(PySparkBatch.newBuilder().setMainPythonFileUri("gs://code/job.py"))
        .setRuntimeInfo(RuntimeInfo.newBuilder().setOutputUri("gs://staging/out/driveroutput"));
  }

  private static Timestamp ts(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).build();
  }

  private static LogEntry entry(String log, LogSeverity sev, Instant t, String text, boolean json) {
    LogEntry.Builder b = LogEntry.newBuilder().setLogName("projects/p/logs/dataproc.googleapis.com%2F" + log)
        .setSeverity(sev).setTimestamp(ts(t));
    if (json) {
      b.setJsonPayload(Struct.newBuilder().putFields("message", Value.newBuilder().setStringValue(text).build()));
    } else {
      b.setTextPayload(text);
    }
    return b.build();
  }

  private static List<String> loggingFilters() {
    return fakes.logging.getRequests().stream().map(m -> ((ListLogEntriesRequest) m).getFilter()).toList();
  }

  @Test
  void aBatchWhoseErrorsAreOnlyGenericHeadersIsEscalatedToInfoAroundTheStateTime() throws Exception {
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.batch(failedBatch(BATCH).build());
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("output", LogSeverity.ERROR, FAILED_AT, "Job failed", false)).build());
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("output", LogSeverity.ERROR, FAILED_AT, "Job failed", false))
        .addEntries(entry("output", LogSeverity.INFO, FAILED_AT.minusSeconds(20),
            "Caused by: java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf(Arrays.java:3512)", true))
        .addEntries(entry("output", LogSeverity.DEFAULT, FAILED_AT.minusSeconds(10),
            "Traceback (most recent call last):\n  File \"/tmp/job.py\", line 12, in <module>\n    rows.collect()", false))
        .build());

    Evidence e = collect("dataproc:batches/b-1");

    List<String> filters = loggingFilters();
    assertThat(filters).as("Cloud Logging queries").hasSize(2);
    assertThat(filters.get(0)).contains("resource.type=\"cloud_dataproc_batch\"", "resource.labels.batch_id=\"b-1\"",
        "resource.labels.location=\"us-central1\"", "dataproc.googleapis.com%2Foutput",
        "dataproc.googleapis.com%2Fautoscaler", "(severity>=ERROR OR severity=DEFAULT)");
    assertThat(filters.get(1)).as("DEFAULT sorts below INFO: it is asked for by name")
        .contains("resource.labels.location=\"us-central1\"", "(severity>=INFO OR severity=DEFAULT)",
            "timestamp>=\"2026-12-01T21:15:00Z\"", "timestamp<=\"2026-12-01T21:25:00Z\"");
    assertThat(((ListLogEntriesRequest) fakes.logging.getRequests().get(0)).getOrderBy()).isEqualTo("timestamp desc");
    assertThat(e.notes()).anySatisfy(n -> assertThat(n).contains("generic headers"));
    assertThat(e.driverLogs()).as("logs %s", e.logs()).isNotEmpty();
    assertThat(e.driverLogs().stream().mapToLong(l -> l.count(LogSignatures.JAVA_HEAP_OOM)).sum())
        .as("the traceback in the jsonPayload at INFO was read").isPositive();
    assertThat(e.driverLogs().stream().mapToLong(l -> l.count(LogSignatures.PYTHON_EXCEPTION)).sum())
        .as("the traceback with no severity was read").isPositive();
    assertThat(e.logs()).as("the state message is scanned as a log")
        .anySatisfy(l -> assertThat(l.uri()).contains("stateMessage"));
    assertThat(fakes.gcs.mediaRequests()).as("Cloud Logging had entries: the GCS driver output is not read").isZero();
    assertThat(e.application()).isPresent();
    assertThat(e.gaps(EvidenceKind.CODE)).as("the main file is handed to code inspection (no inspector in this module's tests)")
        .anySatisfy(g -> assertThat(g.uri()).isEqualTo("gs://code/job.py"));
  }

  @Test
  void whenCloudLoggingIsEmptyTheDriverOutputInCloudStorageIsRead() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(f.eventLog()));
    fakes.gcs.put("staging", "out/driveroutput.000000000", Files.readAllBytes(f.driverLog()));
    fakes.batch(failedBatch(BATCH).build()).noLogs(2);

    Evidence e = collect("dataproc:batches/b-1");

    assertThat(e.notes()).anySatisfy(n -> assertThat(n).contains("reading the driver output in Cloud Storage at gs://staging/out/driveroutput"));
    assertThat(e.driverLogs()).extracting(LogEvidence::uri).anySatisfy(u -> assertThat(u).startsWith("gs://staging/out/driveroutput"));
    assertThat(fakes.gcs.mediaRequests()).isPositive();
  }

  @Test
  void noSparkApplicationIsToldApartFromZeroStagesQuotingTheAnswer() throws Exception {
    fakes.sparkApplications.serveNone(BATCH);
    fakes.batch(failedBatch(BATCH).build()).noLogs(2);
    Evidence none = collect("dataproc:batches/b-1");
    // No application from Dataproc: at most one rebuilt from the batch's own logs, which says so.
    assertThat(none.application().filter(a -> !a.provider().equals(EvidenceCollector.FROM_LOGS))).isEmpty();
    assertThat(none.gaps(EvidenceKind.APPLICATION_DATA)).singleElement().satisfies(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.NOT_FOUND);
      assertThat(g.detail()).contains("No Spark application found", "{\"sparkApplications\": []}", "never started");
      assertThat(g.uri()).endsWith("/v1/" + BATCH + "/sparkApplications:search");
    });

    fakes.reset();
    fakes.sparkApplications.serve(BATCH,
        EventLogs.replay(TestkitFixtures.get("3.5.9", "driver-fails-before-first-action").eventLog()));
    fakes.batch(failedBatch(BATCH).build()).noLogs(2);
    Evidence zero = collect("dataproc:batches/b-1");
    assertThat(zero.application()).as("an application with no stage is still an application").isPresent();
    assertThat(zero.app().get().stages(io.sparkrca.core.app.StageQuery.all())).isEmpty();
    assertThat(zero.notes()).anySatisfy(n -> assertThat(n).contains("summarizeStages", "no stage ever ran",
        "before its first Spark action"));
    assertThat(zero.notes()).noneSatisfy(n -> assertThat(n).contains("No Spark application found"));
  }

  @Test
  void aForbiddenSparkApplicationsCallIsAGapNamingTheCallAndTheRoleNotAnotherSourcesSilence() throws Exception {
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.sparkApplications.fault(SparkApplicationsFake.Fault.of(403,
        "Permission 'dataproc.batches.sparkApplicationRead' denied on resource"));
    fakes.batch(failedBatch(BATCH).build()).noLogs(2);

    Evidence e = collect("dataproc:batches/b-1");

    assertThat(e.application().filter(a -> !a.provider().equals(EvidenceCollector.FROM_LOGS))).isEmpty();
    EvidenceGap g = e.gaps(EvidenceKind.APPLICATION_DATA).get(0);
    assertThat(g.reason()).isEqualTo(GapReason.ACCESS_DENIED);
    assertThat(g.uri()).contains("sparkApplications:search");
    assertThat(g.detail()).contains("roles/dataproc.viewer");
    assertThat(g.whatToDo()).contains("no event log or History Server stands in");
  }

  @Test
  void aDeniedCloudLoggingReadIsAGapWithTheLoggingRoleAndTheRestIsStillCollected() throws Exception {
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.batch(failedBatch(BATCH).build());
    fakes.logging.addException(Status.PERMISSION_DENIED.withDescription("logging.logEntries.list denied").asRuntimeException());

    Evidence e = collect("dataproc:batches/b-1");

    EvidenceGap g = e.gaps(EvidenceKind.LOG).stream().filter(x -> x.what().equals(DataprocEvidenceProvider.LOGS)).toList().get(0);
    assertThat(g.reason()).isEqualTo(GapReason.ACCESS_DENIED);
    assertThat(g.uri()).startsWith("entries.list resource.type=\"cloud_dataproc_batch\"");
    assertThat(g.detail() + " " + g.whatToDo()).contains("roles/logging.viewer");
    assertThat(e.application()).as("the application data does not depend on Cloud Logging").isPresent();
  }

  @Test
  void aTracebackWithNoSeverityNextToTheErrorLineIsReadByTheErrorsQuery() throws Exception {
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.batch(failedBatch(BATCH).build());
    // What the errors query answers when it keeps DEFAULT: the driver's ERROR line and, next to it,
    // the Python traceback its stderr carried with no severity.
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("output", LogSeverity.DEFAULT, FAILED_AT.minusSeconds(2), "Traceback (most recent call last):\n"
            + "  File \"/tmp/job.py\", line 31, in parse\n    return int(value)\n"
            + "ValueError: invalid literal for int() with base 10: 'N/A'", false))
        .addEntries(entry("output", LogSeverity.ERROR, FAILED_AT.minusSeconds(3), "Job failed", false))
        .build());

    Evidence e = collect("dataproc:batches/b-1");

    assertThat(loggingFilters()).as("the traceback is informative: no escalation").singleElement()
        .satisfies(f -> assertThat(f).contains("(severity>=ERROR OR severity=DEFAULT)"));
    assertThat(e.driverLogs()).as("logs %s", e.logs()).singleElement().satisfies(l -> {
      assertThat(l.count(LogSignatures.PYTHON_EXCEPTION)).isPositive();
      assertThat(l.lastLines()).anySatisfy(line -> assertThat(line).contains("DEFAULT [output]", "Traceback"));
      assertThat(l.lastLines()).anySatisfy(line -> assertThat(line).contains("ValueError: invalid literal"));
    });
  }

  @Test
  void sparkLogEntriesAreExecutorsOrTheStandaloneDaemonsNeverTheDriver() throws Exception {
    String batch = "projects/p/locations/europe-west1/batches/b-1";
    fakes.sparkApplications.serve(batch, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.batch(failedBatch(batch).build());
    Struct.Builder executor = Struct.newBuilder()
        .putFields("message", Value.newBuilder().setStringValue("ERROR Executor: Exception in task 3.0 in stage 1.0 (TID 7)\n"
            + "java.lang.OutOfMemoryError: Java heap space").build())
        .putFields("component", Value.newBuilder().setStringValue("executor").build());
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("output", LogSeverity.ERROR, FAILED_AT.minusSeconds(1),
            "Exception in thread \"main\" org.apache.spark.SparkException: Job aborted due to stage failure", false))
        .addEntries(LogEntry.newBuilder().setLogName("projects/p/logs/dataproc.googleapis.com%2Fspark")
            .setSeverity(LogSeverity.ERROR).setTimestamp(ts(FAILED_AT.minusSeconds(30))).setJsonPayload(executor))
        .addEntries(entry("spark", LogSeverity.WARNING, FAILED_AT.minusSeconds(20), "ExecutorRunner: Executor app-1/3 "
            + "finished with state KILLED exitStatus 137 (java.lang.OutOfMemoryError in the executor)", false).toBuilder()
            .putLabels("dataproc.googleapis.com/component", "worker"))
        .addEntries(entry("spark", LogSeverity.ERROR, FAILED_AT.minusSeconds(19),
            "Master: Removing executor app-1/3 because it is KILLED", true).toBuilder()
            .putLabels("dataproc.googleapis.com/component", "master"))
        .build());

    Evidence e = collect("dataproc:batches/b-1?region=europe-west1");

    assertThat(loggingFilters()).singleElement().satisfies(f -> assertThat(f)
        .as("the workload's region, not the settings' (us-central1): a same-named batch elsewhere stays out")
        .contains("resource.labels.batch_id=\"b-1\"", "resource.labels.location=\"europe-west1\"")
        .doesNotContain("us-central1"));
    assertThat(e.driverLogs()).as("logs %s", e.logs()).singleElement().satisfies(l -> {
      assertThat(l.count(LogSignatures.DRIVER_UNCAUGHT)).isPositive();
      assertThat(l.lastLines()).as("only the output log is the driver's").allSatisfy(line -> assertThat(line).contains("[output]"));
      assertThat(l.count(LogSignatures.JAVA_HEAP_OOM)).isZero();
    });
    assertThat(e.executorLogs()).singleElement().satisfies(l -> {
      assertThat(l.count(LogSignatures.JAVA_HEAP_OOM)).isPositive();
      assertThat(l.lastLines()).first().asString().contains("[spark/executor]");
    });
    assertThat(e.logs()).filteredOn(l -> l.uri().contains("(spark master, worker)")).singleElement().satisfies(l -> {
      assertThat(l.role()).isEqualTo(io.sparkrca.core.evidence.LogRole.UNKNOWN);
      assertThat(l.lastLines()).hasSize(2).anySatisfy(line -> assertThat(line).contains("[spark/worker]"))
          .anySatisfy(line -> assertThat(line).contains("[spark/master]"));
    });
    assertThat(e.logs()).filteredOn(l -> l.role() == io.sparkrca.core.evidence.LogRole.DRIVER)
        .noneSatisfy(l -> assertThat(l.lastLines()).anySatisfy(line -> assertThat(line).contains("[spark")));
  }

  @Test
  void aClusterJobWithNoDriverOutputIsReadFromItsJobResourceInItsRegion() throws Exception {
    fakes.jobs.addResponse(Job.newBuilder()
        .setStatus(JobStatus.newBuilder().setState(JobStatus.State.ERROR).setDetails("Job failed with code 1")
            .setStateStartTime(ts(FAILED_AT)))
        .setSparkJob(SparkJob.newBuilder().setMainClass("com.example.Main"))
        .build());
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("dataproc.job.driver", LogSeverity.DEFAULT, FAILED_AT,
            "Exception in thread \"main\" java.lang.IllegalStateException: no input", false))
        .build());

    Evidence e = collect("dataproc:jobs/job-1?project=p&region=europe-west1");

    assertThat(loggingFilters()).singleElement().satisfies(f -> assertThat(f).contains(
        "resource.type=\"cloud_dataproc_job\"", "resource.labels.job_id=\"job-1\"", "resource.labels.region=\"europe-west1\"",
        "(severity>=ERROR OR severity=DEFAULT)").doesNotContain("logName", "resource.labels.location"));
    assertThat(e.driverLogs()).as("logs %s", e.logs()).singleElement()
        .satisfies(l -> assertThat(l.count(LogSignatures.DRIVER_UNCAUGHT)).isPositive());
  }

  @Test
  void anUnknownBatchIsAGapNamingTheCallAndNothingElseIsInvented() {
    fakes.batches.addException(Status.NOT_FOUND.withDescription("Not found: Batch projects/p/locations/us-central1/batches/nope")
        .asRuntimeException());
    Evidence e = collect("dataproc:batches/nope");
    assertThat(e.application()).isEmpty();
    assertThat(e.gaps(EvidenceKind.WORKLOAD)).singleElement().satisfies(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.NOT_FOUND);
      assertThat(g.detail()).contains("BatchController.GetBatch(projects/p/locations/us-central1/batches/nope)");
    });
    assertThat(fakes.sparkApplications.requests()).as("no other source is asked instead").isZero();
  }

  @Test
  void aSessionIsReadThroughTheSessionControllerAndItsOwnLogResource() throws Exception {
    String session = "projects/p/locations/us-central1/sessions/s-1";
    fakes.sparkApplications.serve(session, EventLogs.replay(TestkitFixtures.get("3.5.9", "healthy").eventLog()));
    fakes.sessions.addResponse(Session.newBuilder().setName(session).setState(Session.State.ACTIVE)
        .setStateTime(ts(FAILED_AT)).setRuntimeConfig(RuntimeConfig.newBuilder().putProperties("spark.executor.memory", "4g"))
        .build());
    fakes.noLogs(2);

    Evidence e = collect("dataproc:sessions/s-1?project=p&region=us-central1");

    assertThat(((com.google.cloud.dataproc.v1.GetSessionRequest) fakes.sessions.getRequests().get(0)).getName())
        .isEqualTo(session);
    assertThat(loggingFilters().get(0)).contains("cloud_dataproc_session", "resource.labels.session_id=\"s-1\"",
        "resource.labels.location=\"us-central1\"");
    assertThat(e.notes()).anySatisfy(n -> assertThat(n).contains("spark.executor.memory=4g"));
    assertThat(e.application()).isPresent();
    assertThat(io.sparkrca.analysis.rca.RcaEngine.standard().analyze(e).notes()).as("a session's idle time is the user's")
        .anySatisfy(n -> assertThat(n).contains("a Dataproc Serverless session", "between the user's commands"));
  }

  @Test
  void aClusterJobReadsItsDriverOutputThenTheEventLogUnderTheClustersEventLogDir() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    String yarnApp = "application_1764623940000_0007";
    fakes.gcs.put("logs", "driver/job-1/driveroutput.000000000", Files.readAllBytes(f.driverLog()));
    fakes.gcs.put("history", "spark-events/" + yarnApp, Files.readAllBytes(f.eventLog()));
    fakes.jobs.addResponse(Job.newBuilder()
        .setStatus(JobStatus.newBuilder().setState(JobStatus.State.ERROR).setDetails("Job failed with code 1")
            .setStateStartTime(ts(FAILED_AT)))
        .setPlacement(JobPlacement.newBuilder().setClusterName("c-1"))
        .setDriverOutputResourceUri("gs://logs/driver/job-1/driveroutput")
        .setSparkJob(SparkJob.newBuilder().setMainClass("com.example.Main").addJarFileUris("gs://code/app.jar"))
        .addYarnApplications(YarnApplication.newBuilder().setName("app")
            .setTrackingUrl("http://c-1-m:8088/proxy/" + yarnApp + "/"))
        .build());
    fakes.clusters.addResponse(Cluster.newBuilder().setClusterName("c-1").setConfig(ClusterConfig.newBuilder()
        .setSoftwareConfig(SoftwareConfig.newBuilder().putProperties("spark:spark.eventLog.dir", "gs://history/spark-events")))
        .build());

    Evidence e = collect("dataproc:jobs/job-1?project=p&region=us-central1");

    List<AbstractMessage> clusterCalls = fakes.clusters.getRequests();
    assertThat(clusterCalls).hasSize(1);
    assertThat(e.notes()).anySatisfy(n -> assertThat(n).contains("event log of " + yarnApp,
        "the cluster's spark:spark.eventLog.dir", "gs://history/spark-events/" + yarnApp));
    assertThat(e.application()).as("gaps %s", e.gaps()).isPresent();
    assertThat(e.application().get().uri()).isEqualTo("gs://history/spark-events/" + yarnApp);
    assertThat(e.driverLogs()).extracting(LogEvidence::uri).anySatisfy(u -> assertThat(u).startsWith("gs://logs/driver/job-1"));
    assertThat(fakes.logging.getRequests()).as("the driver output was there: Cloud Logging is the fallback only").isEmpty();
    assertThat(e.gaps(EvidenceKind.CODE)).anySatisfy(g -> assertThat(g.uri()).isEqualTo("gs://code/app.jar"));
  }

  @Test
  void theAutoscalersRecordsAndAutotuningReachTheRcaReport() throws Exception {
    fakes.sparkApplications.serve(BATCH, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
    fakes.batch(failedBatch(BATCH).setRuntimeConfig(RuntimeConfig.newBuilder()
        .setAutotuningConfig(com.google.cloud.dataproc.v1.AutotuningConfig.newBuilder()
            .addScenarios(com.google.cloud.dataproc.v1.AutotuningConfig.Scenario.MEMORY))
        .putProperties("spark.executor.memory", "9600m")).build());
    // The autoscaler's own shape: an AutoscalerLog jsonPayload (google/cloud/dataproc/logging/autoscaler_log.proto).
    Struct.Builder log = Struct.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge("{\"status\":{\"state\":\"RECOMMENDING\",\"details\":"
        + "\"Recommending a scale up\"},\"recommendation\":{\"inputs\":{\"currentClusterSize\":{\"primaryWorkerCount\":12}},"
        + "\"outputs\":{\"decision\":\"SCALE_UP\",\"recommendedClusterSize\":{\"primaryWorkerCount\":40},"
        + "\"constraintsReached\":[\"SCALING_CAPPED_DUE_TO_LACK_OF_QUOTA\"],\"decisionMetric\":\"SPARK_EXECUTORS\"}}}", log);
    fakes.logging.addResponse(ListLogEntriesResponse.newBuilder()
        .addEntries(entry("output", LogSeverity.ERROR, FAILED_AT,
            "java.lang.OutOfMemoryError: Java heap space", false))
        .addEntries(LogEntry.newBuilder().setLogName("projects/p/logs/dataproc.googleapis.com%2Fautoscaler")
            .setSeverity(LogSeverity.INFO).setTimestamp(ts(FAILED_AT.minusSeconds(60))).setJsonPayload(log)).build());

    Evidence e = collect("dataproc:batches/b-1");
    io.sparkrca.core.report.RcaReport r = io.sparkrca.analysis.rca.RcaEngine.standard().analyze(e);

    assertThat(e.clusterEvents()).anySatisfy(c -> assertThat(c.message()).startsWith("required=40 running=12"));
    assertThat(r.findings()).as("findings %s", r.findings().stream().map(f -> f.title()).toList()).anySatisfy(f -> {
      assertThat(f.kind()).isEqualTo(io.sparkrca.core.knowledge.RootCauseKind.METRIC_INSIGHT);
      assertThat(f.title()).contains("needed 40 executors but 12 were running");
      assertThat(f.evidence()).anySatisfy(ev -> assertThat(ev.detail()).contains("SCALING_CAPPED_DUE_TO_LACK_OF_QUOTA"));
    });
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("Autotuning is already on", "MEMORY"));
    assertThat(r.recommendations()).allSatisfy(rec -> assertThat(rec.properties())
        .noneSatisfy(p -> assertThat(p.property()).isEqualTo("spark.shuffle.service.enabled")));
  }
}

package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.RuntimeInfo;
import com.google.protobuf.Timestamp;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.testing.DataprocFakes;
import io.sparkrca.analysis.rca.RcaEngine;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Source parity: every testkit fixture (real Spark 3.5.9 and 4.0.4 runs) diagnosed once from its
 * event log and driver log, and once as a Dataproc Serverless batch whose sparkApplications answers
 * are derived from that event log (Dataproc's field names, int64 strings, omitted zeros) and whose
 * driver output is the same driver log in Cloud Storage (Cloud Logging empty). The root cause must
 * be the same.
 */
class SourceParityTest {
  private static DataprocFakes fakes;

  @BeforeAll
  static void start() throws Exception {
    fakes = new DataprocFakes();
  }

  @AfterAll
  static void stop() {
    fakes.close();
  }

  @Test
  void rcaOfTheBatchNamesTheSameRootCauseAsRcaOfTheEventLogForEveryFixture() throws Exception {
    List<TestkitFixtures.Fixture> fixtures = TestkitFixtures.all();
    assertThat(fixtures).as("testkit fixtures").hasSizeGreaterThan(40);
    List<String> mismatches = new ArrayList<>();
    List<String> insightMismatches = new ArrayList<>();
    int compared = 0;
    for (TestkitFixtures.Fixture f : fixtures) {
      fakes.reset();
      String id = (f.scenario() + "-" + f.sparkVersion()).replace('.', '-');
      String parent = "projects/p/locations/us-central1/batches/" + id;
      SparkApplication app = EventLogs.replay(f.eventLog());
      fakes.sparkApplications.serve(parent, app);
      for (SqlFailure s : app.facts().sqlFailures()) {
        if (!s.errorMessage().isEmpty()) {
          fakes.sparkApplications.sqlError(parent, s.executionId(), s.errorMessage());
        }
      }
      String prefix = "google-cloud-dataproc-metainfo/uuid/jobs/srvls-batch-" + id + "/driveroutput";
      fakes.gcs.put("staging", prefix + ".000000000", Files.readAllBytes(f.driverLog()));
      boolean failed = f.label().path("application").path("driverExitCode").asInt(0) != 0;
      fakes.batch(Batch.newBuilder().setName(parent).setState(failed ? Batch.State.FAILED : Batch.State.SUCCEEDED)
          .setStateTime(Timestamp.newBuilder().setSeconds(app.info().latestAttempt().endTime().getEpochSecond()))
          .setRuntimeInfo(RuntimeInfo.newBuilder().setOutputUri("gs://staging/" + prefix)).build());
      fakes.noLogs(2);

      Evidence local = EvidenceCollector.builder().sources(fakes.sources()).loadServiceProviders(false)
          .application(f.eventLog().toString()).driverLog(f.driverLog().toString()).build().collect();
      Evidence batch = EvidenceCollector.builder().sources(fakes.sources()).loadServiceProviders(false)
          .workloadEvidence(new DataprocEvidenceProvider(fakes.settings()))
          .workload("dataproc:batches/" + id + "?project=p&region=us-central1").build().collect();
      assertThat(batch.application()).as("%s: the application from sparkApplications; gaps %s", id, batch.gaps()).isPresent();
      assertThat(batch.application().get().provider()).startsWith("dataproc sparkApplications");
      assertThat(batch.driverLogs()).as("%s: the driver output from Cloud Storage", id).hasSize(1);
      RcaReport a = RcaEngine.standard().analyze(local);
      RcaReport b = RcaEngine.standard().analyze(batch);
      compared++;
      if (a.rootCause().kind() != b.rootCause().kind() || a.verdict() != b.verdict()) {
        mismatches.add(id + ": event log " + a.rootCause().kind() + "/" + a.verdict() + " (" + a.rootCause().title()
            + ") vs batch " + b.rootCause().kind() + "/" + b.verdict() + " (" + b.rootCause().title() + ")");
      }
      // The insights read per-executor summaries and task lists: through sparkApplications' pages, the same ones.
      if (!insights(a).equals(insights(b))) {
        insightMismatches.add(id + ": event log " + insights(a) + " vs batch " + insights(b));
      }
    }
    assertThat(compared).isEqualTo(fixtures.size());
    assertThat(mismatches).as("fixtures whose root cause differs between the sources").isEmpty();
    assertThat(insightMismatches).as("fixtures whose metric insights differ between the sources").isEmpty();
  }

  /** Each metric insight's title and culprit. */
  private static List<String> insights(RcaReport r) {
    return r.findings().stream().filter(f -> f.kind() == RootCauseKind.METRIC_INSIGHT)
        .map(f -> f.title() + " " + f.culprit()).toList();
  }
}

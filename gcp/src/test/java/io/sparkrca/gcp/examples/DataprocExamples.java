package io.sparkrca.gcp.examples;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.Report;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocControlPlane;
import io.sparkrca.gcp.dataproc.DataprocEvidenceProvider;
import io.sparkrca.gcp.dataproc.DataprocWorkload;
import io.sparkrca.gcp.dataproc.SparkApplicationViews;
import io.sparkrca.gcp.dataproc.SparkApplicationsClient;
import io.sparkrca.gcp.dataproc.WorkloadRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.gcp.dataproc}, compiled (see {@link JavadocExamplesTest}). */
class DataprocExamples {
  /** The example of {@code DataprocControlPlane}. */
  void dataprocControlPlane() throws Exception {
    try (DataprocControlPlane dp = DataprocControlPlane.create(GcpSettings.defaults(), "us-central1")) {
      WorkloadRecord b = dp.describe(DataprocWorkload.parse("dataproc:batches/b-1", GcpSettings.defaults()));
      System.out.println(b.describe());
    }
  }

  /** The example of {@code DataprocEvidenceProvider}. */
  void dataprocEvidenceProvider(GcpSettings gcpSettings) throws Exception {
    Evidence e = EvidenceCollector.builder().workloadEvidence(new DataprocEvidenceProvider(gcpSettings))
        .workload("dataproc:batches/b-1?project=p&region=europe-west1").build().collect();
  }

  /** The example of {@code DataprocHistoryProvider}. */
  void dataprocHistoryProvider() throws Exception {
    SparkApplication app = SparkSources.defaults().application("dataproc:batches/b-1?project=p&region=us-central1");
    app.stages(StageQuery.all()).forEach(s -> System.out.println(s.stageId() + " " + s.status()));
  }

  /** The example of {@code DataprocWorkload}. */
  void dataprocWorkload() throws Exception {
    DataprocWorkload w = DataprocWorkload.parse("dataproc:batches/b-1?region=europe-west1", GcpSettings.defaults());
    w.parent(); // projects/<configured project>/locations/europe-west1/batches/b-1
  }

  /** The example of {@code DataprocWorkload}. */
  void dataprocWorkloadOf() throws Exception {
    DataprocWorkload w = DataprocWorkload.of(DataprocWorkload.Type.BATCH, "b-1", GcpSettings.defaults());
  }

  /** The example of {@code SparkApplicationViews}. */
  void sparkApplicationViews(GcpSettings settings, DataprocWorkload workload) throws Exception {
    SparkApplicationsClient api = SparkApplicationsClient.create(settings, "us-central1");
    Report r = SparkApplicationViews.of(api, workload).render(SparkApplicationViews.Request.builder("stages").limit(20).build());
    System.out.println(r.toMarkdown());
  }

  /** The example of {@code SparkApplicationsClient}. */
  void sparkApplicationsClient() throws Exception {
    SparkApplicationsClient api = SparkApplicationsClient.create(GcpSettings.defaults(), "us-central1");
    String parent = "projects/p/locations/us-central1/batches/b-1";
    JsonNode apps = api.call(parent, Optional.empty(), "search", Map.of("pageSize", "10"));
    List<JsonNode> stages = api.paginate(parent, Optional.of("app-1"), "searchStages", "sparkApplicationStages",
        Map.of("summaryMetricsMask", "task_quantile_metrics"), 5000);
  }
}

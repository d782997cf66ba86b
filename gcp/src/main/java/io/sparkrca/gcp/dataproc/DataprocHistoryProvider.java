package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.eventlog.EventLogHistoryProvider;
import io.sparkrca.core.evidence.WorkloadEvidence;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkHistoryProvider;
import io.sparkrca.gcp.GcpSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Spark applications of a Dataproc workload as a {@link SparkHistoryProvider}: a Serverless
 * batch's or session's through the {@code sparkApplications} API ({@code dataproc:batches/ID},
 * {@code dataproc:sessions/ID}), a cluster job's from its event log under the cluster's {@code
 * spark.eventLog.dir} ({@code dataproc:jobs/ID}). Found by {@link java.util.ServiceLoader}, so
 * {@code SparkSources.defaults().application("dataproc:batches/b-1")} and every command that takes
 * an application URI read Dataproc once this module is on the class path.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("dataproc:batches/b-1?project=p&region=us-central1");
 * app.stages(StageQuery.all()).forEach(s -> System.out.println(s.stageId() + " " + s.status()));
 * }</pre>
 */
public final class DataprocHistoryProvider implements SparkHistoryProvider {
  private final Optional<GcpSettings> settings;

  /** With {@link GcpSettings#defaults()} (for {@link java.util.ServiceLoader}). */
  public DataprocHistoryProvider() {
    this.settings = Optional.empty();
  }

  public DataprocHistoryProvider(GcpSettings settings) {
    this.settings = Optional.of(settings);
  }

  @Override
  public String name() {
    return "dataproc";
  }

  @Override
  public boolean supports(String uri) {
    return DataprocWorkload.isUri(uri);
  }

  @Override
  public SparkHistory open(String uri, SourceSettings sourceSettings) {
    GcpSettings gcp = settings.orElseGet(GcpSettings::defaults);
    DataprocWorkload w = DataprocWorkload.parse(uri, gcp);
    if (w.type() == DataprocWorkload.Type.JOB) {
      WorkloadEvidence e = new DataprocEvidenceProvider(gcp).collect(uri, sourceSettings);
      String log = e.applicationUri().orElseThrow(() -> new InputNotFoundException("the event log of " + w.describe(),
          e.gaps().isEmpty() ? "give the event log directly" : e.gaps().get(0).describe()));
      return new EventLogHistoryProvider().open(log, sourceSettings);
    }
    SparkApplicationsClient api = SparkApplicationsClient.create(gcp, w.region());
    List<JsonNode> apps = api.paginate(w.parent(), Optional.empty(), "search", "sparkApplications",
        Map.of("pageSize", "10"), 100);
    List<DataprocSparkApplication> list = new ArrayList<>();
    for (JsonNode a : apps) {
      list.add(new DataprocSparkApplication(api, w.parent(), a.path("application")));
    }
    return new SparkHistory() {
      @Override
      public List<ApplicationInfo> applications() {
        return list.stream().map(DataprocSparkApplication::info).toList();
      }

      @Override
      public Optional<? extends SparkApplication> application(String appId, Optional<String> attemptId) {
        return list.stream().filter(a -> a.info().id().equals(appId)).findFirst();
      }
    };
  }

  @Override
  public SparkApplication application(String uri, SourceSettings sourceSettings) {
    SparkHistory h = open(uri, sourceSettings);
    if (h.applications().isEmpty()) {
      DataprocWorkload w = DataprocWorkload.parse(uri, settings.orElseGet(GcpSettings::defaults));
      throw new InputNotFoundException("a Spark application of " + w.describe(), "sparkApplications:search answered "
          + "{\"sparkApplications\": []}: the workload may still be pending, or it failed before the Spark driver "
          + "started (read its stateMessage and driver log instead)");
    }
    return SparkHistoryProvider.super.application(uri, sourceSettings);
  }
}

package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.dataproc.v1.Cluster;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.WorkloadEvidence;
import io.sparkrca.core.evidence.WorkloadEvidenceProvider;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.Messages;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The evidence of a Dataproc workload, gathered as the Dataproc troubleshooting skill
 * (gcp-spark-troubleshooting) lays out for its type. Found by {@link java.util.ServiceLoader}, so
 * {@code EvidenceCollector.builder().workload("dataproc:batches/b-1")} (and {@code sparkrca rca
 * --batch b-1}) works once this module is on the class path.
 *
 * <ul>
 *   <li><b>Serverless batch or session</b>: describe it ({@code GetBatch}/{@code GetSession}); its
 *       {@code stateMessage} (the quick win) is scanned as a log; Cloud Logging, errors first and
 *       escalated when they are only generic headers; the driver output in Cloud Storage at
 *       {@code runtimeInfo.outputUri} when Cloud Logging has nothing; the Spark application through
 *       {@code sparkApplications} (summary and stages), telling "No Spark application found" (the
 *       driver never started) from an application with zero stages (it failed before its first
 *       action) and quoting the answer that shows it; the code from the main file URI.
 *   <li><b>Cluster job</b>: describe it ({@code GetJob}); the driver output at {@code
 *       driverOutputResourceUri}; Cloud Logging ({@code cloud_dataproc_job}) when there is none;
 *       the event log under the cluster's {@code spark.eventLog.dir}; the code.
 * </ul>
 *
 * <p>A fetch that fails is a gap naming the exact call and its error; no other source's silence
 * stands in for it. The workload's properties and autotuning are noted, so recommendations can
 * respect what is already set.
 *
 * <pre>{@code
 * Evidence e = EvidenceCollector.builder().workloadEvidence(new DataprocEvidenceProvider(gcpSettings))
 *     .workload("dataproc:batches/b-1?project=p&region=europe-west1").build().collect();
 * }</pre>
 */
public final class DataprocEvidenceProvider implements WorkloadEvidenceProvider {
  static final String LOGS = "Cloud Logging";

  private final Optional<GcpSettings> settings;

  /** With {@link GcpSettings#defaults()} (for {@link java.util.ServiceLoader}). */
  public DataprocEvidenceProvider() {
    this.settings = Optional.empty();
  }

  public DataprocEvidenceProvider(GcpSettings settings) {
    this.settings = Optional.of(settings);
  }

  @Override
  public String name() {
    return "dataproc";
  }

  @Override
  public boolean supports(String workload) {
    return DataprocWorkload.isUri(workload);
  }

  @Override
  public WorkloadEvidence collect(String uri, SourceSettings sourceSettings) {
    GcpSettings gcp = settings.orElseGet(GcpSettings::defaults);
    DataprocWorkload w = DataprocWorkload.parse(uri, gcp);
    WorkloadEvidence.Builder out = WorkloadEvidence.builder(w.describe());
    try (DataprocControlPlane dp = DataprocControlPlane.create(gcp, w.region());
        CloudLoggingReader logging = new CloudLoggingReader(gcp)) {
      WorkloadRecord r = dp.describe(w); // the workload itself must be found: otherwise an error, not a gap
      out.note(Redactor.standard().redactText(r.describe()));
      if (!r.stateMessage().isBlank()) {
        out.log(WorkloadEvidence.Log.ofBytes(text("dataproc: " + w.parent() + " stateMessage", r.stateMessage()),
            Optional.empty(), "state message"));
      }
      notes(r, out);
      if (w.type() == DataprocWorkload.Type.JOB) {
        job(r, dp, logging, sourceSettings.byteSources(), out);
      } else {
        serverless(r, gcp, logging, out);
      }
      code(r, out);
    }
    return out.build();
  }

  private static void serverless(WorkloadRecord r, GcpSettings gcp, CloudLoggingReader logging,
      WorkloadEvidence.Builder out) {
    DataprocWorkload w = r.workload();
    int entries = logs(r, logging, out);
    if (entries == 0) {
      if (r.outputUri().isPresent()) {
        out.note("Cloud Logging returned no entries: reading the driver output in Cloud Storage at "
            + r.outputUri().get() + " (its numbered parts)");
        out.log(WorkloadEvidence.Log.ofUri(r.outputUri().get(), Optional.of(LogRole.DRIVER), "driver output"));
      } else {
        out.gap(new EvidenceGap(EvidenceKind.DRIVER_LOG, "", GapReason.NOT_FOUND, "Cloud Logging returned no entries and "
            + r.call() + " has no runtimeInfo.outputUri", "the workload may be older than the log retention; give the "
            + "driver log directly"));
      }
    }
    SparkApplicationsClient api = SparkApplicationsClient.create(gcp, w.region());
    String search = api.endpoint() + "/v1/" + w.parent() + "/sparkApplications:search";
    List<JsonNode> apps;
    try {
      apps = api.paginate(w.parent(), Optional.empty(), "search", "sparkApplications", Map.of("pageSize", "10"), 20);
    } catch (SparkRcaException e) {
      out.gap(new EvidenceGap(EvidenceKind.APPLICATION_DATA, search, GapReason.of(e), Messages.oneLine(e.getMessage()),
          "the Spark application data of a Serverless workload comes only from this API: fix the access and run again "
              + "(no event log or History Server stands in for it)"));
      return;
    }
    if (apps.isEmpty()) {
      String quote = "No Spark application found for " + w.parent() + ": GET " + search
          + " answered {\"sparkApplications\": []}. The Spark driver never started (or the workload is still pending)";
      out.note(quote);
      out.gap(new EvidenceGap(EvidenceKind.APPLICATION_DATA, search, GapReason.NOT_FOUND, quote,
          "the cause is in the state message and the logs: stage rules do not apply"));
      return;
    }
    JsonNode first = apps.get(0).path("application");
    if (apps.size() > 1) {
      out.note(apps.size() + " Spark applications found for " + w.parent() + "; analyzing the first, "
          + first.path("applicationId").asText());
    }
    DataprocSparkApplication app = new DataprocSparkApplication(api, w.parent(), first);
    try {
      JsonNode stages = app.stagesSummary(); // kept: a session's stage listing checks its count against it
      if (DataprocModel.stageCount(stages) == 0) {
        out.note("sparkApplications summarizeStages for " + app.info().id() + " answered " + stages
            + ": no stage ever ran. The application failed before its first Spark action (parsing, imports, "
            + "configuration, driver-side code): the cause is in the driver log and the code, not in the stage data");
      } else {
        out.note("sparkApplications summarizeStages for " + app.info().id() + ": " + stages);
      }
      app.facts(); // fetch what analysis needs now, where a failure is a gap with its call
    } catch (SparkRcaException e) {
      out.gap(new EvidenceGap(EvidenceKind.APPLICATION_DATA, api.endpoint() + "/v1/" + app.path(), GapReason.of(e),
          Messages.oneLine(e.getMessage()),
          "fix the access and run again; no other source stands in for a Serverless workload's stage data"));
      return;
    }
    out.application(app, "dataproc sparkApplications (" + app.path() + ")");
  }

  private static void job(WorkloadRecord r, DataprocControlPlane dp, CloudLoggingReader logging, ByteSources bytes,
      WorkloadEvidence.Builder out) {
    if (r.driverOutputUri().isPresent()) {
      out.log(WorkloadEvidence.Log.ofUri(r.driverOutputUri().get(), Optional.of(LogRole.DRIVER), "driver output"));
    } else {
      out.note(r.call() + " has no driverOutputResourceUri: reading Cloud Logging (cloud_dataproc_job) instead");
      logs(r, logging, out);
    }
    if (r.cluster().isEmpty()) {
      out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, "", GapReason.NOT_FOUND, r.call() + " names no cluster (placement.clusterName)",
          "give the event log directly"));
      return;
    }
    Optional<String> dir = Optional.ofNullable(r.properties().get("spark.eventLog.dir"));
    String where = "the job's properties";
    Cluster c = null;
    try {
      c = dp.cluster(r.workload(), r.cluster().get());
    } catch (SparkRcaException e) {
      if (dir.isEmpty()) {
        out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, "", GapReason.of(e), Messages.oneLine(e.getMessage()),
            "fix the access to the cluster, or give the event log directly"));
        return;
      }
    }
    if (dir.isEmpty() && c != null) {
      Map<String, String> props = c.getConfig().getSoftwareConfig().getPropertiesMap();
      dir = Optional.ofNullable(props.get("spark:spark.eventLog.dir"));
      where = "the cluster's spark:spark.eventLog.dir";
      if (dir.isEmpty() && !c.getConfig().getTempBucket().isEmpty()) {
        dir = Optional.of("gs://" + c.getConfig().getTempBucket() + "/" + c.getClusterUuid() + "/spark-job-history");
        where = "Dataproc's default under the cluster's temp bucket";
      }
    }
    if (dir.isEmpty()) {
      out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, "", GapReason.NOT_FOUND, "neither the job nor cluster " + r.cluster().get()
          + " says where event logs go (spark.eventLog.dir)", "give the event log directly"));
      return;
    }
    if (r.yarnApplicationIds().isEmpty()) {
      out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, dir.get(), GapReason.NOT_FOUND, r.call() + " reports no YARN application, so "
          + "the application's event log cannot be told apart", "give the event log directly"));
      return;
    }
    String appId = r.yarnApplicationIds().get(r.yarnApplicationIds().size() - 1);
    String base = dir.get().endsWith("/") ? dir.get() : dir.get() + "/";
    try {
      Optional<SourceEntry> log = bytes.list(base).stream()
          .filter(e -> e.name().startsWith(appId) || e.name().equals("eventlog_v2_" + appId))
          .findFirst();
      if (log.isEmpty()) {
        out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, base, GapReason.NOT_FOUND, "no event log of " + appId + " under " + base
            + " (from " + where + ")", "check spark.eventLog.enabled, or give the event log directly"));
        return;
      }
      out.note("event log of " + appId + " (from " + where + "): " + log.get().uri());
      out.applicationUri(log.get().uri());
    } catch (SparkRcaException e) {
      out.gap(new EvidenceGap(EvidenceKind.EVENT_LOG, base, GapReason.of(e), Messages.oneLine(e.getMessage()),
          "fix the access to the event-log directory, or give the event log directly"));
    }
  }

  /**
   * Cloud Logging's entries as logs (driver, executors, Spark's standalone daemons, the rest) and
   * autoscaler records; how many there were. A Serverless driver writes to the {@code output} log
   * (what Cloud Storage keeps as driveroutput); the {@code spark} log holds the {@code executor},
   * {@code master} and {@code worker} components (jsonPayload.component), never the driver, so none
   * of it is handed on as a driver log: executor lines as executors', the daemons' lines as
   * neither ({@link LogRole#UNKNOWN}). A cluster job's {@code cloud_dataproc_job} entries are its driver's.
   */
  private static int logs(WorkloadRecord r, CloudLoggingReader logging, WorkloadEvidence.Builder out) {
    CloudLoggingReader.Result res;
    try {
      res = logging.read(r);
    } catch (SparkRcaException e) {
      GapReason why = GapReason.of(e);
      out.gap(new EvidenceGap(EvidenceKind.LOG, LOGS, "entries.list " + CloudLoggingReader.baseFilter(r), why,
          Messages.oneLine(e.getMessage()), switch (why) {
            case ACCESS_DENIED -> "fix the access (roles/logging.viewer) and run again";
            case TIMEOUT -> "check the Cloud Logging endpoint and the network, or allow more time (--gcp-timeout)";
            default -> "check the Cloud Logging endpoint (SPARKRCA_LOGGING_ENDPOINT) and run again";
          }));
      return 0;
    }
    res.queries().forEach(q -> out.note("Cloud Logging: " + q));
    if (res.escalated()) {
      out.note("Cloud Logging: the errors were only generic headers, so the INFO and DEFAULT entries within "
          + CloudLoggingReader.WINDOW.toMinutes() + " minutes of the state time were read too");
    }
    StringBuilder driver = new StringBuilder();
    StringBuilder executors = new StringBuilder();
    StringBuilder daemons = new StringBuilder();
    StringBuilder other = new StringBuilder();
    for (CloudLoggingReader.Entry e : res.entries()) {
      StringBuilder to = r.workload().type() == DataprocWorkload.Type.JOB || e.log().equals("output") ? driver
          : !e.log().equals("spark") ? other
          : e.component().toLowerCase(Locale.ROOT).contains("executor") ? executors : daemons;
      to.append(e.render()).append('\n');
      if (e.log().equals("autoscaler")) {
        Autoscaler.parse(e).ifPresent(a -> out.event(new ClusterEvent("Cloud Logging: dataproc.googleapis.com/autoscaler",
            e.time(), r.workload().describe(), Optional.empty(), ClusterEventReasons.AUTOSCALER_EXECUTORS, a, Optional.empty())));
      }
    }
    String name = "cloud-logging: " + r.workload().parent();
    if (driver.length() > 0) {
      out.log(WorkloadEvidence.Log.ofBytes(text(name + " (driver)", driver.toString()), Optional.of(LogRole.DRIVER),
          LOGS + " (driver)"));
    }
    if (executors.length() > 0) {
      out.log(WorkloadEvidence.Log.ofBytes(text(name + " (executors)", executors.toString()), Optional.of(LogRole.EXECUTOR),
          LOGS + " (executors)"));
    }
    if (daemons.length() > 0) {
      // Neither the driver's nor an executor's: stated as such, so that no line of it (a worker's
      // executor launch, a master's application registration) makes it pass for either by content.
      out.log(WorkloadEvidence.Log.ofBytes(text(name + " (spark master, worker)", daemons.toString()), Optional.of(LogRole.UNKNOWN),
          LOGS + " (spark master, worker)"));
    }
    if (other.length() > 0) {
      out.log(WorkloadEvidence.Log.ofBytes(text(name + " (startup, agent, autoscaler)", other.toString()), Optional.empty(),
          LOGS));
    }
    return res.entries().size();
  }

  private static void notes(WorkloadRecord r, WorkloadEvidence.Builder out) {
    if (!r.properties().isEmpty()) {
      Map<String, String> sorted = new TreeMap<>(r.properties());
      StringBuilder b = new StringBuilder("properties set on the " + r.workload().type().word() + ": ");
      int n = 0;
      for (Map.Entry<String, String> e : sorted.entrySet()) {
        if (n++ > 0) {
          b.append(", ");
        }
        b.append(e.getKey()).append('=').append(Redactor.standard().redactProperty(e.getKey(), e.getValue()));
      }
      out.note(b.toString());
    }
    if (!r.autotuning().isEmpty()) {
      // A record the analysis reads, so that no recommendation turns autotuning on again (rules' ServerlessLimits).
      out.event(new ClusterEvent("dataproc: " + r.call(), Optional.empty(), r.workload().describe(), Optional.empty(),
          ClusterEventReasons.DATAPROC_AUTOTUNING, "scenarios=" + String.join(",", r.autotuning()), Optional.empty()));
      out.note("autotuning is on (" + String.join(", ", r.autotuning()) + "): do not recommend enabling it; Dataproc "
          + "already tunes " + String.join(", ", r.autotuning()).toLowerCase(Locale.ROOT));
    }
  }

  private static void code(WorkloadRecord r, WorkloadEvidence.Builder out) {
    r.mainFile().ifPresent(out::code);
    for (String c : r.otherCode()) {
      if (c.endsWith(".py") || c.endsWith(".jar") || c.endsWith(".scala") || c.endsWith(".sql") || c.endsWith(".zip")) {
        out.code(c);
      }
    }
  }

  private static ByteSource text(String name, String text) {
    return ByteSource.of(name, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Executors required and running, from an autoscaler entry: its {@code jsonPayload} is an {@code
   * AutoscalerLog} (google/cloud/dataproc/logging/autoscaler_log.proto: {@code
   * recommendation.inputs.currentClusterSize}, {@code recommendation.outputs.recommendedClusterSize},
   * {@code constraintsReached}, {@code decisionMetric} {@code SPARK_EXECUTORS} on Serverless), or a
   * text that names a required (target, desired) and a running (current) executor count.
   */
  static final class Autoscaler {
    private static final java.util.regex.Pattern WANTED = java.util.regex.Pattern.compile(
        "(?i)\"?(?:target|desired|required|requested|recommended)[_ ]?(?:executors?|executor[_ ]?count|num[_ ]?executors)\"?\\s*[:=]\\s*\"?(\\d+)");
    private static final java.util.regex.Pattern RUNNING = java.util.regex.Pattern.compile(
        "(?i)\"?(?:current|running|active|allocated)[_ ]?(?:executors?|executor[_ ]?count|num[_ ]?executors)\"?\\s*[:=]\\s*\"?(\\d+)");
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private Autoscaler() {}

    static Optional<String> parse(CloudLoggingReader.Entry e) {
      Optional<String> structured = structured(e.message());
      if (structured.isPresent()) {
        return structured;
      }
      java.util.regex.Matcher w = WANTED.matcher(e.message());
      java.util.regex.Matcher r = RUNNING.matcher(e.message());
      if (w.find() && r.find()) {
        return Optional.of("required=" + w.group(1) + " running=" + r.group(1));
      }
      return Optional.empty();
    }

    private static Optional<String> structured(String message) {
      if (!message.startsWith("{")) {
        return Optional.empty();
      }
      JsonNode log;
      try {
        log = JSON.readTree(message);
      } catch (java.io.IOException ex) {
        return Optional.empty();
      }
      JsonNode rec = log.path("recommendation");
      JsonNode current = rec.path("inputs").path("currentClusterSize");
      JsonNode wanted = rec.path("outputs").path("recommendedClusterSize");
      if (!current.isObject() || !wanted.isObject()) {
        return Optional.empty();
      }
      long running = DataprocModel.num(current, "primaryWorkerCount") + DataprocModel.num(current, "secondaryWorkerCount");
      long required = DataprocModel.num(wanted, "primaryWorkerCount") + DataprocModel.num(wanted, "secondaryWorkerCount");
      StringBuilder b = new StringBuilder("required=" + required + " running=" + running);
      String decision = rec.path("outputs").path("decision").asText("");
      if (!decision.isEmpty()) {
        b.append(" decision=").append(decision);
      }
      List<String> constraints = new ArrayList<>();
      rec.path("outputs").path("constraintsReached").forEach(c -> constraints.add(c.asText()));
      if (!constraints.isEmpty()) {
        b.append(" constraints=").append(String.join(",", constraints));
      }
      String details = log.path("status").path("details").asText("");
      if (!details.isEmpty()) {
        b.append(" (").append(Messages.oneLine(details)).append(')');
      }
      return Optional.of(b.toString());
    }
  }
}

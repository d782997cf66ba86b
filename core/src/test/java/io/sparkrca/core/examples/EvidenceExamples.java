package io.sparkrca.core.examples;

import java.nio.file.Path;
import io.sparkrca.core.logs.replay.LogReplay;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.evidence.LogApplicationProvider;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.evidence.ClusterDetails;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.evidence.CodeEvidence;
import io.sparkrca.core.evidence.CodeInspectionProvider;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogChannel;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.LogSignature;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.evidence.StackTrace;
import io.sparkrca.core.evidence.ThrownException;
import io.sparkrca.core.evidence.WorkloadEvidence;
import io.sparkrca.core.evidence.WorkloadEvidenceProvider;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.source.SourceSettings;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.core.evidence}, compiled (see {@link JavadocExamplesTest}). */
class EvidenceExamples {
  /** The example of {@code ApplicationEvidence}. */
  void applicationEvidence(Evidence evidence) throws Exception {
    evidence.application().ifPresent(a -> System.out.println(a.app().info().id() + " from " + a.provider() + " " + a.uri()));
  }

  /** The example of {@code ClusterDetails}. */
  void clusterDetails() throws Exception {
    ClusterDetails d = ClusterDetails.builder(ClusterDetails.Type.TERMINATION)
        .pod("etl-7f3a-exec-1").container("spark-kubernetes-executor").node("pool-a-3")
        .finishedAt(Instant.parse("2026-11-29T15:05:24Z")).memoryLimitBytes(896L << 20)
        .build();
  }

  /** The example of {@code ClusterEvent}. */
  void clusterEvent(Evidence evidence) throws Exception {
    evidence.clusterEvents().stream().filter(e -> e.reason().equals(ClusterEventReasons.OOM_KILLED)).forEach(System.out::println);
  }

  /** The example of {@code ClusterEventReasons}. */
  void clusterEventReasons(Evidence evidence) throws Exception {
    boolean autotuned = evidence.clusterEvents().stream()
        .anyMatch(e -> e.reason().equals(ClusterEventReasons.DATAPROC_AUTOTUNING));
  }

  /** The example of {@code ClusterEvidenceProvider}. */
  public final class MyYarnEvidence implements ClusterEvidenceProvider {
    public String name() { return "yarn"; }
    public boolean supports(SparkApplication app) { return master(app).equals("yarn"); }
    public ClusterEvidence collect(SparkApplication app, SourceSettings s) { return new ClusterEvidence(List.of(), List.of(), List.of()); }
  }

  /** The provider's own helper in the example of {@code ClusterEvidenceProvider}. */
  private static String master(SparkApplication app) {
    return app.sparkConf().map(c -> c.get("spark.master")).orElse("");
  }

  /** The example of {@code CodeDiff}. */
  void codeDiff(CodeInspectionProvider provider) throws Exception {
    CodeDiff d = provider.diff("old/app.jar", "new/app.jar", SourceSettings.defaults()).orElseThrow();
    d.changed().forEach(c -> System.out.println(c.name() + " +" + c.addedStrings() + " -" + c.removedStrings()));
  }

  /** The example of {@code CodeEvidence}. */
  void codeEvidence(Evidence evidence) throws Exception {
    for (CodeEvidence c : evidence.code()) {
      System.out.println(c.uri() + " (" + c.kind() + "): " + c.findings().size() + " findings");
    }
  }

  /** The example of {@code CodeFinding}. */
  void codeFinding(CodeEvidence code) throws Exception {
    code.findings().forEach(f -> System.out.println(f.location() + ": " + f.title()));
  }

  /** The example of {@code CodeInspectionProvider}. */
  public final class MyInspector implements CodeInspectionProvider {
    public String name() { return "mine"; }
    public boolean supports(String uri) { return uri.endsWith(".r"); }
    public CodeEvidence inspect(String uri, SourceSettings s, List<StackFrame> frames) { throw new UnsupportedOperationException(uri); }
  }

  /** The example of {@code CodeLocation}. */
  void codeLocation(CodeEvidence code) throws Exception {
    code.locations().forEach(l -> System.out.println(l.frame().display() + " -> " + l.file() + ":" + l.line().orElse(0)));
  }

  /** The example of {@code Evidence}. */
  void evidence(String uri, String log) throws Exception {
    Evidence e = EvidenceCollector.builder().application(uri).driverLog(log).build().collect();
    e.application().ifPresent(a -> System.out.println(a.app().info().id()));
    e.excerpts(LogSignatures.JAVA_HEAP_OOM).forEach(x -> System.out.println(x.location()));
  }

  /** The example of {@code EvidenceCollector}. */
  void evidenceCollector() throws Exception {
    Evidence evidence = EvidenceCollector.builder()
        .application("gs://bucket/spark-events/app-1")
        .driverLog("gs://bucket/logs/driver.log")
        .build()
        .collect();
  }

  /** The example of {@code EvidenceGap}. */
  void evidenceGap(Evidence evidence) throws Exception {
    for (EvidenceGap g : evidence.gaps(EvidenceKind.DRIVER_LOG)) {
      System.err.println(g.what() + " (" + g.uri() + "): " + g.reason() + ": " + g.detail());
    }
  }

  /** The example of {@code EvidenceKind}. */
  void evidenceKind(Evidence evidence) throws Exception {
    evidence.gaps(EvidenceKind.EVENT_LOG).forEach(g -> System.err.println(g.describe()));
    System.out.println(EvidenceKind.EXECUTOR_LOGS.howToGet());
    // the executors' stderr: the worker's work directory, yarn logs -applicationId, kubectl logs
  }

  /** The example of {@code GapReason}. */
  void gapReason(EvidenceGap gap, Throwable failure) throws Exception {
    boolean fixable = gap.reason() == GapReason.NOT_REQUESTED;
    GapReason why = GapReason.of(failure); // NOT_FOUND for an InputNotFoundException, ...
  }

  /** The example of {@code LogChannel}. */
  void logChannel(LogEvidence log) throws Exception {
    if (log.channel() == LogChannel.STDOUT) { System.out.println(log.uri()); }
  }

  /** The example of {@code LogEvidence}. */
  void logEvidence(Evidence evidence) throws Exception {
    for (LogEvidence log : evidence.executorLogs()) {
      System.out.println(log.uri() + " (executor " + log.executorId().orElse("?") + "): "
          + log.count("JAVA_HEAP_OOM") + " heap OOMs");
    }
  }

  /** The example of {@code LogEvidence}. */
  void logEvidenceScan(byte[] bytes) throws Exception {
    LogEvidence log = LogEvidence.scan(ByteSource.of("k8s://spark/pods/etl-exec-1/log", bytes),
        LogRole.EXECUTOR, Optional.of("1"), "pod label spark-exec-id=1", LogSignatures.standard());
  }

  /** The example of {@code LogExcerpt}. */
  void logExcerpt(Evidence evidence) throws Exception {
    for (LogExcerpt e : evidence.excerpts("JAVA_HEAP_OOM")) {
      System.out.println(e.log() + ":" + e.line() + " " + e.text());
    }
  }

  /** The example of {@code LogRole}. */
  void logRole(Evidence evidence) throws Exception {
    evidence.logs().stream().filter(l -> l.role() == LogRole.EXECUTOR).forEach(System.out::println);
  }

  /** The example of {@code LogSignature}. */
  void logSignature() throws Exception {
    LogSignature s = new LogSignature("MY_QUOTA", "Quota exceeded on the warehouse", "QuotaExceeded|429 Too Many");
    LogSignatures mine = LogSignatures.standard().plus(s);
  }

  /** The example of {@code LogSignatures}. */
  void logSignatures() throws Exception {
    LogSignatures sigs = LogSignatures.standard();
    List<String> ids = sigs.matching("java.lang.OutOfMemoryError: Java heap space"); // [JAVA_HEAP_OOM, ...]
  }

  /** The example of {@code LogTime}. */
  void logTime(LogExcerpt excerpt) throws Exception {
    Instant when = excerpt.time().get().toInstant(ZoneId.of("Etc/UTC"));
  }

  /** The example of {@code StackFrame}. */
  void stackFrame(StackTrace trace) throws Exception {
    StackFrame f = trace.firstUserFrame().orElseThrow();
    System.out.println(f.className() + "." + f.method() + " (" + f.file() + ":" + f.line().orElse(0) + ")");
  }

  /** The example of {@code StackTrace}. */
  void stackTrace(TaskFailureGroup taskFailure) throws Exception {
    StackTrace t = StackTrace.parse(taskFailure.firstDetail());
    t.rootCause().ifPresent(e -> System.out.println("root: " + e.display()));
    t.firstUserFrame().ifPresent(f -> System.out.println("at " + f.display()));
  }

  /** The example of {@code ThrownException}. */
  void thrownException(String text) throws Exception {
    ThrownException root = StackTrace.parse(text).rootCause().orElseThrow();
    System.out.println(root.className() + ": " + root.message());
  }

  /** The example of {@code WorkloadEvidence}. */
  void workloadEvidence() throws Exception {
    WorkloadEvidence w = WorkloadEvidence.builder("dataproc batch b-1")
        .note("batches.get: state FAILED, stateMessage 'Job failed with message [...]'")
        .log(WorkloadEvidence.Log.ofUri("gs://bucket/out/driveroutput", Optional.of(LogRole.DRIVER), "driver output"))
        .code("gs://bucket/jobs/job.py")
        .build();
  }

  /** The example of {@code WorkloadEvidenceProvider}. */
  public final class MyPlatformEvidence implements WorkloadEvidenceProvider {
    public String name() { return "my-platform"; }
    public boolean supports(String workload) { return workload.startsWith("myplatform:"); }
    public WorkloadEvidence collect(String workload, SourceSettings settings) {
      return WorkloadEvidence.builder(workload).applicationUri("gs://logs/spark-events/app-1").build();
    }
  }

  /** The example of {@code io.sparkrca.core.evidence}. */
  void overview() throws Exception {
    Evidence evidence = EvidenceCollector.builder()
        .application("/tmp/spark-events/app-1.zstd")
        .driverLog("/var/log/spark/driver.log")
        .executorLogs("/var/log/spark/executors/")
        .build()
        .collect();
    evidence.gaps().forEach(g -> System.err.println(g.describe()));
  }

  /** The example of {@code LogApplicationProvider}. */
  public final class EasternTimeLogs implements LogApplicationProvider {
    public String name() { return "logs written in US Eastern time"; }
    public SparkApplication rebuild(List<String> logs, ByteSources sources) {
      return LogReplay.builder().sources(sources).zone(ZoneId.of("America/New_York")).build().read(logs);
    }
  }

  /** The example of {@code LogSignatures.of}. */
  void logSignaturesOf() {
    KnowledgeBase mine = KnowledgeBase.builder().add(Path.of("our-failures.json")).standard().build();
    EvidenceCollector c = EvidenceCollector.builder().driverLog("driver.log")
        .signatures(LogSignatures.of(mine)).build();
  }

  /** The example of {@code LogSignatures.plus(List)}. */
  void logSignaturesPlusList() {
    LogSignatures mine = LogSignatures.standard().plus(List.of(
        new LogSignature("warehouse-quota", "Quota exceeded on the warehouse", "QuotaExceeded|429 Too Many")));
  }
}

package io.sparkrca.core.evidence;

import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.evidence.internal.Gaps;
import io.sparkrca.core.evidence.internal.LogScanner;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.io.SourceFiles;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers the evidence about one workload: its application model (from any {@link
 * io.sparkrca.core.source.SparkHistoryProvider}), driver and executor logs (a directory's files are
 * told apart by content), the job's code, a baseline run, the cluster manager's records, and what a
 * workload's platform knows ({@link WorkloadEvidenceProvider}: a Dataproc batch's state, its logs).
 * Independent fetches run concurrently, at most {@link Builder#parallelism} at a time; logs are
 * scanned as streams for {@link LogSignatures}, never read whole. Whatever cannot be collected is
 * a gap with the exact reason; {@link #collect()} itself fails only on a programming error.
 *
 * <pre>{@code
 * Evidence evidence = EvidenceCollector.builder()
 *     .application("gs://bucket/spark-events/app-1")
 *     .driverLog("gs://bucket/logs/driver.log")
 *     .build()
 *     .collect();
 * }</pre>
 *
 * <p>Immutable; {@link #collect()} may be called again (it fetches again) and from several threads.
 */
public final class EvidenceCollector {
  private static final Logger LOG = LoggerFactory.getLogger(EvidenceCollector.class);

  /** The most files read from one log directory (with its subdirectories). */
  public static final int MAX_LOG_FILES = 1000;
  /** The most stack frames handed to code inspection. */
  static final int MAX_FRAMES = 20;

  private final SparkSources sources;
  private final Optional<String> applicationUri;
  private final Optional<SparkApplication> givenApplication;
  private final Optional<String> baselineUri;
  private final Optional<SparkApplication> givenBaseline;
  private final List<String> driverLogs;
  private final List<String> executorLogs;
  private final List<String> otherLogs;
  private final List<String> code;
  private final LogSignatures signatures;
  private final List<CodeInspectionProvider> inspectors;
  private final List<ClusterEvidenceProvider> clusterProviders;
  private final Optional<String> workload;
  private final List<WorkloadEvidenceProvider> workloadProviders;
  private final int parallelism;
  private final Duration timeout;
  private final Optional<LogApplicationProvider> logApplications;

  private EvidenceCollector(Builder b, List<CodeInspectionProvider> inspectors,
      List<ClusterEvidenceProvider> clusterProviders, List<WorkloadEvidenceProvider> workloadProviders) {
    this.sources = b.sources;
    this.applicationUri = b.applicationUri;
    this.givenApplication = b.givenApplication;
    this.baselineUri = b.baselineUri;
    this.givenBaseline = b.givenBaseline;
    this.driverLogs = List.copyOf(b.driverLogs);
    this.executorLogs = List.copyOf(b.executorLogs);
    this.otherLogs = List.copyOf(b.otherLogs);
    this.code = List.copyOf(b.code);
    this.signatures = b.signatures;
    this.inspectors = List.copyOf(inspectors);
    this.clusterProviders = List.copyOf(clusterProviders);
    this.workload = b.workload;
    this.workloadProviders = List.copyOf(workloadProviders);
    this.parallelism = b.parallelism;
    this.timeout = b.timeout;
    this.logApplications = b.rebuildFromLogs
        ? b.logApplications.or(() -> ServiceLoader.load(LogApplicationProvider.class,
            EvidenceCollector.class.getClassLoader()).findFirst())
        : Optional.empty();
  }

  /**
   * The provider name an application rebuilt from logs carries in its {@link ApplicationEvidence}:
   * analyses read it to know that the numbers logs cannot show (GC time, spill, plans) are missing.
   */
  public static final String FROM_LOGS = "logs";

  public static Builder builder() {
    return new Builder();
  }

  /** Collects everything asked for; what cannot be collected becomes a gap. */
  public Evidence collect() {
    long deadline = System.nanoTime() + timeout.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism, daemonThreads());
    try {
      return collect(pool, deadline);
    } finally {
      pool.shutdownNow();
    }
  }

  private Evidence collect(ExecutorService pool, long deadline) {
    List<EvidenceGap> gaps = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    ByteSources bytes = sources.settings().byteSources();

    // Phase 0: what the workload's platform knows (state, logs, where the application data is).
    Optional<String> appUri = applicationUri;
    Optional<ApplicationEvidence> fromWorkload = Optional.empty();
    List<String> wDriverLogs = new ArrayList<>(driverLogs);
    List<String> wExecutorLogs = new ArrayList<>(executorLogs);
    List<String> wOtherLogs = new ArrayList<>(otherLogs);
    List<WorkloadEvidence.Log> heldLogs = new ArrayList<>();
    List<String> allCode = new ArrayList<>(code);
    List<ClusterEvent> workloadEvents = new ArrayList<>();
    if (workload.isPresent()) {
      Optional<WorkloadEvidence> w = workloadEvidence(workload.get(), pool, deadline, gaps);
      if (w.isPresent()) {
        WorkloadEvidence we = w.get();
        notes.addAll(we.notes());
        gaps.addAll(we.gaps());
        workloadEvents.addAll(we.events());
        if (appUri.isEmpty() && givenApplication.isEmpty()) {
          appUri = we.applicationUri();
          fromWorkload = we.application().map(a -> new ApplicationEvidence(a, Redactor.redactUri(we.workload()),
              we.applicationSource()));
        }
        for (WorkloadEvidence.Log l : we.logs()) {
          if (l.bytes().isPresent()) {
            heldLogs.add(l);
          } else if (l.role().equals(Optional.of(LogRole.DRIVER))) {
            wDriverLogs.add(l.uri());
          } else if (l.role().equals(Optional.of(LogRole.EXECUTOR))) {
            wExecutorLogs.add(l.uri());
          } else {
            wOtherLogs.add(l.uri());
          }
        }
        we.code().stream().filter(c -> !allCode.contains(c)).forEach(allCode::add);
      }
    }

    // Phase 1: the application, the baseline and the logs, side by side.
    Optional<String> appUriFinal = appUri;
    Future<ApplicationEvidence> app = appUri.map(u -> pool.submit(() -> load(u))).orElse(null);
    Future<ApplicationEvidence> base = baselineUri.map(u -> pool.submit(() -> load(u))).orElse(null);
    List<LogRequest> logRequests = new ArrayList<>();
    expand(wDriverLogs, Optional.of(LogRole.DRIVER), EvidenceKind.DRIVER_LOG, bytes, logRequests, gaps);
    expand(wExecutorLogs, Optional.of(LogRole.EXECUTOR), EvidenceKind.EXECUTOR_LOGS, bytes, logRequests, gaps);
    expand(wOtherLogs, Optional.empty(), EvidenceKind.LOG, bytes, logRequests, gaps);
    List<Future<LogEvidence>> logFutures = new ArrayList<>();
    for (LogRequest r : logRequests) {
      logFutures.add(pool.submit(() -> LogScanner.scan(bytes, r.uri(), r.role(), signatures)));
    }
    for (WorkloadEvidence.Log l : heldLogs) {
      ByteSources held = ByteSources.builder().add(new HeldSources(Map.of(l.uri(), l.bytes().get()))).build();
      logRequests.add(new LogRequest(l.uri(), l.role(), l.kind(), l.what()));
      logFutures.add(pool.submit(() -> LogScanner.scan(held, l.uri(), l.role(), signatures)));
    }

    Optional<ApplicationEvidence> application = givenApplication.map(a -> new ApplicationEvidence(a, "given", "given"));
    if (fromWorkload.isPresent()) {
      application = fromWorkload;
      fromWorkload.get().app().facts(); // as load() does: what analysis needs, read now
    }
    if (app != null) {
      application = await(app, deadline, EvidenceKind.EVENT_LOG, appUriFinal.get(),
          "check the path or URL; an event log exists only when the application ran with "
              + "spark.eventLog.enabled=true, under spark.eventLog.dir", gaps);
    }
    Optional<ApplicationEvidence> baseline = givenBaseline.map(a -> new ApplicationEvidence(a, "given", "given"));
    if (base != null) {
      baseline = await(base, deadline, EvidenceKind.BASELINE, baselineUri.get(), "check the baseline run's path or URL", gaps);
    }
    application.ifPresent(a -> completenessGap(a, gaps));

    List<LogEvidence> logs = new ArrayList<>();
    List<LogRequest> readLogs = new ArrayList<>(); // those that could be read: what an application is rebuilt from
    for (int i = 0; i < logFutures.size(); i++) {
      LogRequest r = logRequests.get(i);
      await(logFutures.get(i), deadline, r.kind(), r.what(), r.uri(), "check the path or URL of the log", gaps)
          .ifPresent(l -> {
            logs.add(l);
            readLogs.add(r);
            if (!l.notes().isEmpty() && l.notes().stream().anyMatch(n -> n.contains("cut off") || n.contains("ends early"))) {
              gaps.add(new EvidenceGap(r.kind(), r.what(), l.uri(), GapReason.CUT_OFF, String.join("; ", l.notes()),
                  "the log ends early; later lines (often the final error) are missing"));
            }
          });
    }

    if (application.isEmpty() && logApplications.isPresent() && !readLogs.isEmpty()) {
      application = rebuildFromLogs(pool, deadline, bytes, readLogs, heldLogs, notes);
      application.ifPresent(a -> completenessGap(a, gaps));
    }

    // Phase 2: the cluster manager's records and the code, which need the application and logs.
    List<ClusterEvent> events = new ArrayList<>(workloadEvents);
    if (application.isPresent()) {
      SparkApplication a = application.get().app();
      List<Future<ClusterEvidenceProvider.ClusterEvidence>> cluster = new ArrayList<>();
      List<ClusterEvidenceProvider> asked = new ArrayList<>();
      for (ClusterEvidenceProvider p : clusterProviders) {
        if (p.supports(a)) {
          asked.add(p);
          cluster.add(pool.submit(() -> p.collect(a, sources.settings())));
        }
      }
      for (int i = 0; i < cluster.size(); i++) {
        await(cluster.get(i), deadline, EvidenceKind.CLUSTER_RECORDS,
            EvidenceKind.CLUSTER_RECORDS.qualified(asked.get(i).name()), "",
            "check access to the cluster manager", gaps).ifPresent(c -> {
              events.addAll(c.events());
              logs.addAll(c.logs());
              gaps.addAll(c.gaps());
            });
      }
    }
    List<StackFrame> frames = userFrames(application, logs);
    List<CodeEvidence> codeEvidence = new ArrayList<>();
    List<Future<CodeEvidence>> codeFutures = new ArrayList<>();
    List<String> codeUris = new ArrayList<>();
    for (String uri : allCode) {
      Optional<CodeInspectionProvider> p = inspectors.stream().filter(i -> i.supports(uri)).findFirst();
      if (p.isEmpty()) {
        gaps.add(new EvidenceGap(EvidenceKind.CODE, Redactor.redactUri(uri), GapReason.UNSUPPORTED,
            inspectors.isEmpty() ? "no code inspector on the class path"
                : "no code inspector reads this kind of file",
            inspectors.isEmpty() ? "add the sparkrca-inspector module to the class path"
                : "give a JAR, class file or Python/Scala/Java/SQL source"));
        continue;
      }
      codeUris.add(uri);
      codeFutures.add(pool.submit(() -> p.get().inspect(uri, sources.settings(), frames)));
    }
    for (int i = 0; i < codeFutures.size(); i++) {
      await(codeFutures.get(i), deadline, EvidenceKind.CODE, codeUris.get(i), "check the path or URL of the code", gaps)
          .ifPresent(codeEvidence::add);
    }

    if (wDriverLogs.isEmpty() && logs.stream().noneMatch(l -> l.role() == LogRole.DRIVER)) {
      gaps.add(new EvidenceGap(EvidenceKind.DRIVER_LOG, "", GapReason.NOT_REQUESTED, "no driver log was given",
          "give the driver log (" + EvidenceKind.DRIVER_LOG.howToGet() + "): failures outside any task are only there"));
    }
    if (wExecutorLogs.isEmpty() && logs.stream().noneMatch(l -> l.role() == LogRole.EXECUTOR)) {
      gaps.add(new EvidenceGap(EvidenceKind.EXECUTOR_LOGS, "", GapReason.NOT_REQUESTED, "no executor log was given",
          "give the executors' stderr (" + String.join(", ", EvidenceKind.EXECUTOR_LOGS.wheres())
              + "): an executor that died says why only there"));
    }
    if (allCode.isEmpty()) {
      gaps.add(new EvidenceGap(EvidenceKind.CODE, "", GapReason.NOT_REQUESTED, "no code was given",
          "give " + EvidenceKind.CODE.howToGet() + " to point the failure at its code"));
    }
    return new Evidence(application, baseline, logs, codeEvidence, events, gaps, notes);
  }

  /**
   * The application rebuilt from the logs, when there is no event log (or it could not be read):
   * the analysis then runs on what the logs show, and says what they cannot.
   */
  private Optional<ApplicationEvidence> rebuildFromLogs(ExecutorService pool, long deadline, ByteSources bytes,
      List<LogRequest> logRequests, List<WorkloadEvidence.Log> heldLogs, List<String> notes) {
    LogApplicationProvider provider = logApplications.get();
    Map<String, io.sparkrca.core.io.ByteSource> held = new LinkedHashMap<>();
    heldLogs.forEach(l -> held.put(l.uri(), l.bytes().get()));
    ByteSources all = held.isEmpty() ? bytes : bytes.with(new HeldSources(held));
    List<String> uris = logRequests.stream().map(LogRequest::uri).distinct().toList();
    List<EvidenceGap> failed = new ArrayList<>();
    Optional<SparkApplication> app = await(pool.submit(() -> provider.rebuild(uris, all)), deadline,
        EvidenceKind.EVENT_LOG, "application from its logs", uris.get(0), "", failed);
    if (app.isEmpty()) {
      failed.forEach(g -> notes.add("the application could not be rebuilt from its logs (" + provider.name()
          + "): " + g.detail()));
      return Optional.empty();
    }
    notes.add("no event log: the application was rebuilt from " + uris.size() + (uris.size() == 1 ? " log" : " logs")
        + " (" + provider.name() + "); what logs do not show (GC time, spill sizes, query plans, metrics of "
        + "tasks that were not logged) is unknown");
    return Optional.of(new ApplicationEvidence(app.get(), Redactor.redactUri(uris.get(0)), FROM_LOGS));
  }

  /** Logs the workload provider already holds, each served under its own name only. */
  private record HeldSources(Map<String, io.sparkrca.core.io.ByteSource> logs)
      implements io.sparkrca.core.io.ByteSourceProvider {
    @Override
    public boolean supports(String uri) {
      return logs.containsKey(uri);
    }

    @Override
    public io.sparkrca.core.io.ByteSource open(String uri) {
      return logs.get(uri);
    }

    @Override
    public List<SourceEntry> list(String uri) {
      return List.of();
    }

    @Override
    public boolean isDirectory(String uri) {
      return false;
    }
  }

  /** Asks the provider of {@code uri} what the platform knows; a gap when none reads it or it fails. */
  private Optional<WorkloadEvidence> workloadEvidence(String uri, ExecutorService pool, long deadline,
      List<EvidenceGap> gaps) {
    Optional<WorkloadEvidenceProvider> p = workloadProviders.stream().filter(w -> w.supports(uri)).findFirst();
    if (p.isEmpty()) {
      gaps.add(new EvidenceGap(EvidenceKind.WORKLOAD, Redactor.redactUri(uri), GapReason.UNSUPPORTED,
          "no workload provider on the class path reads it"
              + (workloadProviders.isEmpty() ? "" : " (providers: "
                  + String.join(", ", workloadProviders.stream().map(WorkloadEvidenceProvider::name).toList()) + ")"),
          "add the module of that platform (for example sparkrca-gcp for Dataproc) to the class path"));
      return Optional.empty();
    }
    Future<WorkloadEvidence> f = pool.submit(() -> p.get().collect(uri, sources.settings()));
    return await(f, deadline, EvidenceKind.WORKLOAD, uri, "check the workload's id, project and region, and access to them", gaps);
  }

  private ApplicationEvidence load(String uri) {
    SparkApplication a = sources.application(uri);
    a.facts(); // read what analysis needs now, on this worker thread, not later on the caller's
    return new ApplicationEvidence(a, Redactor.redactUri(uri), sources.providerFor(uri).name());
  }

  private static void completenessGap(ApplicationEvidence a, List<EvidenceGap> gaps) {
    Completeness c = a.app().completeness();
    if (c.cutOff()) {
      gaps.add(new EvidenceGap(EvidenceKind.EVENT_LOG, a.uri(), GapReason.CUT_OFF, c.describe(),
          "the application was still running, or its log was cut (a crashed driver, a copy made "
              + "too early); what happened after the cut is unknown"));
    } else if (!c.isComplete()) {
      gaps.add(new EvidenceGap(EvidenceKind.EVENT_LOG, a.uri(), GapReason.PARTIAL, c.describe() + notes(c),
          c.inconsistencies().isEmpty() ? "the numbers cover what could be read"
              : "the numbers cover what could be read; for an intact record, read another copy of the event log or the "
                  + "History Server's, and if every copy is the same, the driver dropped events (its log's "
                  + "AsyncEventQueue warnings)"));
    }
  }

  /** What was not read, as the source labelled it (a stage whose task list failed): at most three, each cut short. */
  private static String notes(Completeness c) {
    if (c.notes().isEmpty()) {
      return "";
    }
    List<String> shown = new ArrayList<>();
    for (String n : c.notes().subList(0, Math.min(3, c.notes().size()))) {
      shown.add(n.length() > 300 ? n.substring(0, 300) + "..." : n);
    }
    int more = c.notes().size() - shown.size();
    return ": " + String.join("; ", shown) + (more > 0 ? "; and " + more + " more" : "");
  }

  /** User frames of the failures' stack traces, task failures first, then the driver's. */
  private static List<StackFrame> userFrames(Optional<ApplicationEvidence> app, List<LogEvidence> logs) {
    Set<StackFrame> frames = new LinkedHashSet<>();
    if (app.isPresent()) {
      for (TaskFailureGroup g : app.get().app().facts().taskFailures()) {
        StackTrace.parse(g.firstDetail()).firstUserFrame().ifPresent(frames::add);
      }
      app.get().app().facts().sqlFailures()
          .forEach(s -> StackTrace.parse(s.errorMessage()).firstUserFrame().ifPresent(frames::add));
    }
    for (LogEvidence l : logs) {
      for (LogExcerpt e : l.excerpts()) {
        if (frames.size() >= MAX_FRAMES) {
          break;
        }
        StackTrace.parse(e.block()).firstUserFrame().ifPresent(frames::add);
      }
    }
    return new ArrayList<>(frames).subList(0, Math.min(MAX_FRAMES, frames.size()));
  }

  private record LogRequest(String uri, Optional<LogRole> role, EvidenceKind kind, String what) {}

  /** Turns each given URI into the logs to scan: a file, or every file under a directory. */
  private static void expand(List<String> uris, Optional<LogRole> role, EvidenceKind kind, ByteSources bytes,
      List<LogRequest> out, List<EvidenceGap> gaps) {
    int room = Math.max(1, MAX_LOG_FILES - (int) out.stream().filter(r -> r.kind() == kind).count());
    SourceFiles.Listing listing = SourceFiles.expand(bytes, uris, room, 2);
    for (String f : listing.files()) {
      out.add(new LogRequest(f, role, kind, kind.displayName()));
    }
    for (SourceFiles.Problem p : listing.problems()) {
      gaps.add(p.cause().map(e -> Gaps.of(kind, kind.displayName(), p.uri(), e, "check the path or URL of the log"))
          .orElseGet(() -> new EvidenceGap(kind, p.uri(), GapReason.NOT_FOUND, p.message(), "check the directory")));
    }
    if (listing.capped()) {
      gaps.add(new EvidenceGap(kind, Redactor.redactUri(String.join(", ", uris)), GapReason.PARTIAL,
          "only the first " + MAX_LOG_FILES + " files were read", "give the logs of the failed executors directly"));
    }
  }

  private <T> Optional<T> await(Future<T> f, long deadline, EvidenceKind kind, String uri, String whatToDo,
      List<EvidenceGap> gaps) {
    return await(f, deadline, kind, kind.displayName(), uri, whatToDo, gaps);
  }

  /** The future's value, or a gap about {@code what} (one piece of {@code kind}) when it failed or took too long. */
  private <T> Optional<T> await(Future<T> f, long deadline, EvidenceKind kind, String what, String uri,
      String whatToDo, List<EvidenceGap> gaps) {
    try {
      long left = Math.max(1, deadline - System.nanoTime());
      return Optional.of(f.get(left, TimeUnit.NANOSECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      gaps.add(Gaps.of(kind, what, uri, e, whatToDo));
    } catch (java.util.concurrent.TimeoutException e) {
      f.cancel(true);
      gaps.add(new EvidenceGap(kind, what, Redactor.redactUri(uri), GapReason.TIMEOUT,
          "not collected within " + timeout.toSeconds() + " s", whatToDo));
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.debug("collecting {} {} failed", what, uri, e.getCause());
      gaps.add(Gaps.of(kind, what, uri, e, whatToDo));
    }
    return Optional.empty();
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "sparkrca-evidence-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Builder for {@link EvidenceCollector}: name the application and whatever else you have. */
  public static final class Builder {
    private SparkSources sources = SparkSources.defaults();
    private Optional<String> applicationUri = Optional.empty();
    private Optional<SparkApplication> givenApplication = Optional.empty();
    private Optional<String> baselineUri = Optional.empty();
    private Optional<SparkApplication> givenBaseline = Optional.empty();
    private final List<String> driverLogs = new ArrayList<>();
    private final List<String> executorLogs = new ArrayList<>();
    private final List<String> otherLogs = new ArrayList<>();
    private final List<String> code = new ArrayList<>();
    private LogSignatures signatures = LogSignatures.standard();
    private final List<CodeInspectionProvider> inspectors = new ArrayList<>();
    private final List<ClusterEvidenceProvider> clusterProviders = new ArrayList<>();
    private final List<WorkloadEvidenceProvider> workloadProviders = new ArrayList<>();
    private Optional<String> workload = Optional.empty();
    private boolean serviceProviders = true;
    private int parallelism = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private Duration timeout = Duration.ofMinutes(10);
    private Optional<LogApplicationProvider> logApplications = Optional.empty();
    private boolean rebuildFromLogs = true;

    private Builder() {}

    /** The application: an event log, or any URI a source of {@link #sources} reads. */
    public Builder application(String uri) {
      this.applicationUri = Optional.of(nonBlank(uri, "application"));
      this.givenApplication = Optional.empty();
      return this;
    }

    /** An application already in hand (from any source). */
    public Builder application(SparkApplication app) {
      this.givenApplication = Optional.of(Objects.requireNonNull(app, "app"));
      this.applicationUri = Optional.empty();
      return this;
    }

    /**
     * A workload on a managed platform, such as {@code dataproc:batches/b-1?project=p&region=r}: its
     * {@link WorkloadEvidenceProvider} says where its application data, logs and code are, and the
     * collector reads them as if they had been named here (what is named here explicitly wins).
     */
    public Builder workload(String uri) {
      this.workload = Optional.of(nonBlank(uri, "workload"));
      return this;
    }

    /** A source of workload evidence, asked before those found on the class path. */
    public Builder workloadEvidence(WorkloadEvidenceProvider provider) {
      workloadProviders.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** A healthy earlier run to compare with. */
    public Builder baseline(String uri) {
      this.baselineUri = Optional.of(nonBlank(uri, "baseline"));
      this.givenBaseline = Optional.empty();
      return this;
    }

    /** A healthy earlier run already in hand. */
    public Builder baseline(SparkApplication app) {
      this.givenBaseline = Optional.of(Objects.requireNonNull(app, "app"));
      this.baselineUri = Optional.empty();
      return this;
    }

    /** A driver log (file, URL or object; any codec). Repeatable. */
    public Builder driverLog(String uri) {
      driverLogs.add(nonBlank(uri, "driver log"));
      return this;
    }

    /** An executor log, or a directory of them (each file's executor is told from its content). Repeatable. */
    public Builder executorLogs(String uriOrDirectory) {
      executorLogs.add(nonBlank(uriOrDirectory, "executor logs"));
      return this;
    }

    /** Logs of any role, or a directory of them: driver and executor logs are told apart by content. */
    public Builder logs(String uriOrDirectory) {
      otherLogs.add(nonBlank(uriOrDirectory, "logs"));
      return this;
    }

    /** The job's code: a JAR, a class file, or a Python/Scala/Java/SQL source. Repeatable. */
    public Builder code(String uri) {
      code.add(nonBlank(uri, "code"));
      return this;
    }

    /** Where applications and bytes come from (default {@link SparkSources#defaults()}). */
    public Builder sources(SparkSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** Shorthand for sources with these settings and the class path's providers. */
    public Builder settings(SourceSettings settings) {
      return sources(SparkSources.builder().settings(settings).loadServiceProviders().build());
    }

    /** The signatures logs are scanned for (default {@link LogSignatures#standard()}). */
    public Builder signatures(LogSignatures signatures) {
      this.signatures = Objects.requireNonNull(signatures, "signatures");
      return this;
    }

    /** A code inspector, asked before those found on the class path. */
    public Builder codeInspector(CodeInspectionProvider inspector) {
      inspectors.add(Objects.requireNonNull(inspector, "inspector"));
      return this;
    }

    /**
     * A source of cluster-manager records, asked with those found on the class path; it replaces
     * the class path's instance of the same class.
     */
    public Builder clusterEvidence(ClusterEvidenceProvider provider) {
      clusterProviders.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /**
     * Whether an application is rebuilt from the logs when there is no event log or it cannot be
     * read (default true): the analysis then runs on what the logs show.
     */
    public Builder rebuildFromLogs(boolean rebuild) {
      this.rebuildFromLogs = rebuild;
      return this;
    }

    /**
     * What rebuilds an application from logs (default: the first {@link LogApplicationProvider} on
     * the class path, sparkrca-core's log replay).
     */
    public Builder logApplications(LogApplicationProvider provider) {
      this.logApplications = Optional.of(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** Whether to add the code inspectors and cluster providers found with ServiceLoader (default true). */
    public Builder loadServiceProviders(boolean load) {
      this.serviceProviders = load;
      return this;
    }

    /** How many fetches run at once (default 2 to 4, with the processors). */
    public Builder parallelism(int threads) {
      if (threads < 1 || threads > 64) {
        throw new InvalidRequestException("evidence parallelism must be between 1 and 64, not " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    /** How long collecting may take in all; what is not in by then is a gap (default 10 min). */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new InvalidRequestException("the evidence timeout must be positive, not " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    public EvidenceCollector build() {
      if (applicationUri.isEmpty() && givenApplication.isEmpty() && driverLogs.isEmpty()
          && executorLogs.isEmpty() && otherLogs.isEmpty() && workload.isEmpty()) {
        throw new InvalidRequestException(
            "nothing to collect: name the application (its event log or another source), a workload, or at least a log");
      }
      List<CodeInspectionProvider> allInspectors = new ArrayList<>(inspectors);
      List<ClusterEvidenceProvider> allClusters = new ArrayList<>(clusterProviders);
      if (serviceProviders) {
        ServiceLoader.load(CodeInspectionProvider.class).forEach(allInspectors::add);
        // A provider added explicitly (configured: a namespace, a context) replaces the class
        // path's instance of the same class, which would otherwise ask the same cluster again.
        for (ClusterEvidenceProvider p : ServiceLoader.load(ClusterEvidenceProvider.class)) {
          if (clusterProviders.stream().noneMatch(c -> c.getClass().equals(p.getClass()))) {
            allClusters.add(p);
          }
        }
      }
      List<WorkloadEvidenceProvider> allWorkloads = new ArrayList<>(workloadProviders);
      if (serviceProviders) {
        ServiceLoader.load(WorkloadEvidenceProvider.class).forEach(allWorkloads::add);
      }
      return new EvidenceCollector(this, allInspectors, allClusters, allWorkloads);
    }

    private static String nonBlank(String uri, String what) {
      Objects.requireNonNull(uri, what);
      if (uri.isBlank()) {
        throw new InvalidRequestException("the " + what + " URI is empty");
      }
      return uri;
    }
  }
}

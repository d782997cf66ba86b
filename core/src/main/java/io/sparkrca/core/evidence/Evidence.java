package io.sparkrca.core.evidence;

import io.sparkrca.core.app.SparkApplication;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything collected about one workload, immutable: the application model and where it came
 * from, a baseline run, the logs (scanned, with excerpts), the code, the cluster manager's records,
 * the gaps: what could not be collected and exactly why, and notes on how it was gathered (what a
 * workload's platform answered, see {@link WorkloadEvidenceProvider}). Nothing missing is ever silently
 * treated as "nothing wrong": an analysis reads {@link #gaps()} as carefully as the rest.
 *
 * <pre>{@code
 * Evidence e = EvidenceCollector.builder().application(uri).driverLog(log).build().collect();
 * e.application().ifPresent(a -> System.out.println(a.app().info().id()));
 * e.excerpts(LogSignatures.JAVA_HEAP_OOM).forEach(x -> System.out.println(x.location()));
 * }</pre>
 */
public record Evidence(
    Optional<ApplicationEvidence> application,
    Optional<ApplicationEvidence> baseline,
    List<LogEvidence> logs,
    List<CodeEvidence> code,
    List<ClusterEvent> clusterEvents,
    List<EvidenceGap> gaps,
    List<String> notes) {
  public Evidence {
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(baseline, "baseline");
    logs = List.copyOf(logs);
    code = List.copyOf(code);
    clusterEvents = List.copyOf(clusterEvents);
    gaps = List.copyOf(gaps);
    notes = List.copyOf(notes);
  }

  /** Evidence without notes on how it was gathered. */
  public Evidence(Optional<ApplicationEvidence> application, Optional<ApplicationEvidence> baseline,
      List<LogEvidence> logs, List<CodeEvidence> code, List<ClusterEvent> clusterEvents, List<EvidenceGap> gaps) {
    this(application, baseline, logs, code, clusterEvents, gaps, List.of());
  }

  /** Evidence holding only an application already in hand, with no gaps recorded. */
  public static Evidence of(SparkApplication app, String uri) {
    return new Evidence(Optional.of(new ApplicationEvidence(app, uri, "given")), Optional.empty(),
        List.of(), List.of(), List.of(), List.of());
  }

  /** The application, when it could be read. */
  public Optional<SparkApplication> app() {
    return application.map(ApplicationEvidence::app);
  }

  /** The driver's logs. */
  public List<LogEvidence> driverLogs() {
    return logs.stream().filter(l -> l.role() == LogRole.DRIVER).toList();
  }

  /** The executors' logs. */
  public List<LogEvidence> executorLogs() {
    return logs.stream().filter(l -> l.role() == LogRole.EXECUTOR).toList();
  }

  /** The logs of executor {@code id}. */
  public List<LogEvidence> executorLogs(String id) {
    return logs.stream()
        .filter(l -> l.role() == LogRole.EXECUTOR && l.executorId().map(id::equals).orElse(false))
        .toList();
  }

  /** Whether a driver log was read. */
  public boolean hasDriverLog() {
    return !driverLogs().isEmpty();
  }

  /** The excerpts of every log where signature {@code id} matched, log by log in log order. */
  public List<LogExcerpt> excerpts(String id) {
    List<LogExcerpt> out = new ArrayList<>();
    for (LogEvidence l : logs) {
      out.addAll(l.excerpts(id));
    }
    return out;
  }

  /** Occurrences of signature {@code id} over every log. */
  public long count(String id) {
    long n = 0;
    for (LogEvidence l : logs) {
      n += l.count(id);
    }
    return n;
  }

  /** The gaps about {@code kind}: about the kind as a whole, and about any piece of it. */
  public List<EvidenceGap> gaps(EvidenceKind kind) {
    return gaps.stream().filter(g -> g.kind() == kind).toList();
  }
}

package io.sparkrca.core.evidence;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.io.ByteSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link WorkloadEvidenceProvider} found about one workload, for the {@link
 * EvidenceCollector} to read on: the application (a URI or in hand), the logs to scan, the code to
 * inspect, cluster records, the gaps with their exact reasons, and notes on how it was gathered
 * (which calls answered what).
 *
 * <pre>{@code
 * WorkloadEvidence w = WorkloadEvidence.builder("dataproc batch b-1")
 *     .note("batches.get: state FAILED, stateMessage 'Job failed with message [...]'")
 *     .log(WorkloadEvidence.Log.ofUri("gs://bucket/out/driveroutput", Optional.of(LogRole.DRIVER), "driver output"))
 *     .code("gs://bucket/jobs/job.py")
 *     .build();
 * }</pre>
 *
 * @param workload how the workload is named in reports, e.g. {@code dataproc batch b-1 (projects/p/locations/r)}
 * @param applicationUri where its application data is, for a {@link io.sparkrca.core.source.SparkHistoryProvider}
 * @param application the application in hand, when the provider read it itself
 * @param applicationSource how {@link #application} was fetched (provenance), e.g. {@code dataproc sparkApplications}
 * @param logs the logs to scan
 * @param code the job's code (main file, JARs)
 * @param events records of the platform about the workload's processes
 * @param gaps what could not be gathered, with the exact call and error
 * @param notes how gathering went, in order, for the report
 */
public record WorkloadEvidence(
    String workload,
    Optional<String> applicationUri,
    Optional<SparkApplication> application,
    String applicationSource,
    List<Log> logs,
    List<String> code,
    List<ClusterEvent> events,
    List<EvidenceGap> gaps,
    List<String> notes) {
  public WorkloadEvidence {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(applicationUri, "applicationUri");
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(applicationSource, "applicationSource");
    logs = List.copyOf(logs);
    code = List.copyOf(code);
    events = List.copyOf(events);
    gaps = List.copyOf(gaps);
    notes = List.copyOf(notes);
  }

  public static Builder builder(String workload) {
    return new Builder(workload);
  }

  /**
   * One log to scan: a URI the collector opens through its byte sources (a {@code gs://} driver
   * output), or bytes the provider already holds (log entries it fetched, rendered one per line).
   *
   * @param uri the URI, or for bytes in hand the name they are shown under
   * @param bytes the bytes in hand, when the provider fetched them itself
   * @param role whose log it is, when the provider knows; otherwise told from the content
   * @param what what it is, in words, for gaps and notes ({@code "driver output"}, {@code "Cloud Logging"})
   */
  public record Log(String uri, Optional<ByteSource> bytes, Optional<LogRole> role, String what) {
    public Log {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(bytes, "bytes");
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(what, "what");
    }

    /** The kind of evidence it is, from its role: a driver log, executors' logs, or a log of either. */
    public EvidenceKind kind() {
      return role.map(r -> switch (r) {
        case DRIVER -> EvidenceKind.DRIVER_LOG;
        case EXECUTOR -> EvidenceKind.EXECUTOR_LOGS;
        case UNKNOWN -> EvidenceKind.LOG;
      }).orElse(EvidenceKind.LOG);
    }

    /** A log the collector opens by URI. */
    public static Log ofUri(String uri, Optional<LogRole> role, String what) {
      return new Log(uri, Optional.empty(), role, what);
    }

    /** A log already in hand. */
    public static Log ofBytes(ByteSource bytes, Optional<LogRole> role, String what) {
      return new Log(bytes.name(), Optional.of(bytes), role, what);
    }
  }

  /** Builder for {@link WorkloadEvidence}. */
  public static final class Builder {
    private final String workload;
    private Optional<String> applicationUri = Optional.empty();
    private Optional<SparkApplication> application = Optional.empty();
    private String applicationSource = "";
    private final List<Log> logs = new ArrayList<>();
    private final List<String> code = new ArrayList<>();
    private final List<ClusterEvent> events = new ArrayList<>();
    private final List<EvidenceGap> gaps = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private Builder(String workload) {
      this.workload = Objects.requireNonNull(workload, "workload");
    }

    /** Where the application data is (replaces an application in hand). */
    public Builder applicationUri(String uri) {
      this.applicationUri = Optional.of(Objects.requireNonNull(uri, "uri"));
      this.application = Optional.empty();
      return this;
    }

    /** The application in hand and how it was fetched (replaces a URI). */
    public Builder application(SparkApplication app, String source) {
      this.application = Optional.of(Objects.requireNonNull(app, "app"));
      this.applicationSource = Objects.requireNonNull(source, "source");
      this.applicationUri = Optional.empty();
      return this;
    }

    public Builder log(Log log) {
      logs.add(Objects.requireNonNull(log, "log"));
      return this;
    }

    public Builder code(String uri) {
      code.add(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder event(ClusterEvent event) {
      events.add(Objects.requireNonNull(event, "event"));
      return this;
    }

    public Builder gap(EvidenceGap gap) {
      gaps.add(Objects.requireNonNull(gap, "gap"));
      return this;
    }

    public Builder note(String note) {
      notes.add(Objects.requireNonNull(note, "note"));
      return this;
    }

    public WorkloadEvidence build() {
      return new WorkloadEvidence(workload, applicationUri, application, applicationSource, logs, code, events,
          gaps, notes);
    }
  }
}

package io.sparkrca.analysis.rca;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to find the root cause of: the application (an event log, a History Server or any
 * source's URI), or a managed platform's workload, or only logs; and whatever else helps: driver
 * and executor logs, the job's code, a healthy baseline run. How the inputs are read (credentials,
 * providers) is the {@link RcaRunner}'s. Immutable.
 *
 * <pre>{@code
 * RcaRequest request = RcaRequest.builder()
 *     .application("/tmp/spark-events/app-1")
 *     .driverLog("/tmp/driver.log")
 *     .timeout(Duration.ofMinutes(5))
 *     .build();
 * RcaReport report = RcaRunner.standard().run(request);
 * }</pre>
 */
public final class RcaRequest {
  /** How long collecting the evidence may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  private final Optional<String> application;
  private final Optional<String> workload;
  private final Optional<String> baseline;
  private final List<String> driverLogs;
  private final List<String> executorLogs;
  private final List<String> logs;
  private final List<String> code;
  private final Duration timeout;

  private RcaRequest(Builder b) {
    this.application = b.application;
    this.workload = b.workload;
    this.baseline = b.baseline;
    this.driverLogs = List.copyOf(b.driverLogs);
    this.executorLogs = List.copyOf(b.executorLogs);
    this.logs = List.copyOf(b.logs);
    this.code = List.copyOf(b.code);
    this.timeout = b.timeout;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The application's URI: an event log (any codec or layout), a History Server's application, ... */
  public Optional<String> application() {
    return application;
  }

  /** A managed platform's workload URI (a Dataproc batch, session or job). */
  public Optional<String> workload() {
    return workload;
  }

  /** A healthy earlier run of the same job to compare with. */
  public Optional<String> baseline() {
    return baseline;
  }

  /** The driver's logs. */
  public List<String> driverLogs() {
    return driverLogs;
  }

  /** Executors' logs, or directories of them. */
  public List<String> executorLogs() {
    return executorLogs;
  }

  /** Logs of any role, or directories of them, told apart by content. */
  public List<String> logs() {
    return logs;
  }

  /** The job's JARs, class files or scripts. */
  public List<String> code() {
    return code;
  }

  /** How long collecting the evidence may take in all; what is not in by then is reported missing. */
  public Duration timeout() {
    return timeout;
  }

  /** Whether anything was named to analyze: the application, a workload or a log. */
  public boolean hasSubject() {
    return application.isPresent() || workload.isPresent() || !driverLogs.isEmpty() || !executorLogs.isEmpty()
        || !logs.isEmpty();
  }

  @Override
  public String toString() {
    return "RcaRequest{application=" + application + ", workload=" + workload + ", baseline=" + baseline
        + ", driverLogs=" + driverLogs + ", executorLogs=" + executorLogs + ", logs=" + logs + ", code=" + code
        + ", timeout=" + timeout + "}";
  }

  /** Builder for an {@link RcaRequest}. */
  public static final class Builder {
    private Optional<String> application = Optional.empty();
    private Optional<String> workload = Optional.empty();
    private Optional<String> baseline = Optional.empty();
    private final List<String> driverLogs = new ArrayList<>();
    private final List<String> executorLogs = new ArrayList<>();
    private final List<String> logs = new ArrayList<>();
    private final List<String> code = new ArrayList<>();
    private Duration timeout = DEFAULT_TIMEOUT;

    private Builder() {}

    public Builder application(String uri) {
      this.application = Optional.of(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder workload(String uri) {
      this.workload = Optional.of(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder baseline(String uri) {
      this.baseline = Optional.of(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder driverLog(String uri) {
      driverLogs.add(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    public Builder executorLogs(String uriOrDirectory) {
      executorLogs.add(Objects.requireNonNull(uriOrDirectory, "uriOrDirectory"));
      return this;
    }

    public Builder logs(String uriOrDirectory) {
      logs.add(Objects.requireNonNull(uriOrDirectory, "uriOrDirectory"));
      return this;
    }

    public Builder code(String uri) {
      code.add(Objects.requireNonNull(uri, "uri"));
      return this;
    }

    /** How long collecting may take in all (default {@link #DEFAULT_TIMEOUT}); positive. */
    public Builder timeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new io.sparkrca.core.error.InvalidRequestException("an RCA's timeout must be positive, not " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    public RcaRequest build() {
      return new RcaRequest(this);
    }
  }
}

package io.sparkrca.testkit;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scenario: a workload run as a real Spark application with the settings that produce its
 * fault, the root cause it is labelled with, and the check that proves the fault happened.
 *
 * @param name directory name of the fixture, such as {@code bad-record}
 * @param rootCause the expected root cause
 * @param description one sentence for the README and the label
 * @param workload the program in {@code io.sparkrca.testkit.scenarios.Workload} to run
 * @param params workload parameters ({@code key=value} program arguments)
 * @param master the Spark master; {@code local-cluster[...]} starts real executor JVMs
 * @param sparkConf the scenario's own Spark settings
 * @param format35 event-log format on Spark 3.x
 * @param format40 event-log format on Spark 4.x
 * @param driverHeapMb heap of the driver JVM
 * @param timeout wall-clock limit of the driver JVM
 * @param baseline name of the scenario this one is compared with, or null
 * @param driverKilled whether the driver JVM is meant to die of SIGKILL (exit 137) and leave its
 *     event log in progress; a killed driver rejects the run of every other scenario
 * @param check the fault check
 */
public record Scenario(
    String name,
    RootCauseKind rootCause,
    String description,
    String workload,
    Map<String, String> params,
    String master,
    Map<String, String> sparkConf,
    EventLogFormat format35,
    EventLogFormat format40,
    int driverHeapMb,
    Duration timeout,
    String baseline,
    boolean driverKilled,
    FaultCheck check) {

  public Scenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rootCause, "rootCause");
    params = Map.copyOf(params);
    sparkConf = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sparkConf));
    Objects.requireNonNull(check, "check");
  }

  /** Whether the run needs real executor JVMs (and so a SPARK_HOME). */
  public boolean localCluster() {
    return master.startsWith("local-cluster");
  }

  /** The event-log format used on {@code spark}. */
  public EventLogFormat format(SparkDistribution spark) {
    return spark.isSpark4() ? format40 : format35;
  }

  /**
   * The exit code of a driver JVM killed by SIGKILL (128 + 9), which {@link #driverKilled}
   * scenarios expect and which rejects the run of any other.
   */
  public static final int KILLED_EXIT_CODE = 137;

  /** Program arguments after the scratch directory. */
  public List<String> paramArgs() {
    return params.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  /** Starts a builder with the common defaults (local[2], 1 GiB driver, 5 minutes). */
  public static Builder builder(String name, RootCauseKind rootCause, String workload) {
    return new Builder(name, rootCause, workload);
  }

  /** Builder for {@link Scenario}. */
  public static final class Builder {
    private final String name;
    private final RootCauseKind rootCause;
    private final String workload;
    private String description = "";
    private final Map<String, String> params = new LinkedHashMap<>();
    private String master = "local[2]";
    private final Map<String, String> conf = new LinkedHashMap<>();
    private EventLogFormat format35 = EventLogFormat.PLAIN;
    private EventLogFormat format40 = EventLogFormat.ROLLING_ZSTD;
    private int heapMb = 1024;
    private Duration timeout = Duration.ofMinutes(5);
    private String baseline;
    private boolean driverKilled;
    private FaultCheck check;

    private Builder(String name, RootCauseKind rootCause, String workload) {
      this.name = name;
      this.rootCause = rootCause;
      this.workload = workload;
    }

    public Builder description(String d) {
      this.description = d;
      return this;
    }

    public Builder param(String k, Object v) {
      params.put(k, String.valueOf(v));
      return this;
    }

    public Builder master(String m) {
      this.master = m;
      return this;
    }

    public Builder conf(String k, Object v) {
      conf.put(k, String.valueOf(v));
      return this;
    }

    public Builder formats(EventLogFormat on35, EventLogFormat on40) {
      this.format35 = on35;
      this.format40 = on40;
      return this;
    }

    public Builder heapMb(int mb) {
      this.heapMb = mb;
      return this;
    }

    public Builder timeout(Duration t) {
      this.timeout = t;
      return this;
    }

    public Builder baseline(String b) {
      this.baseline = b;
      return this;
    }

    /**
     * The driver is meant to be killed (exit {@value Scenario#KILLED_EXIT_CODE}): its event log is
     * kept in progress as Spark left it and the History Server is not waited on for completion.
     */
    public Builder driverKilled() {
      this.driverKilled = true;
      return this;
    }

    public Builder check(FaultCheck c) {
      this.check = c;
      return this;
    }

    public Scenario build() {
      return new Scenario(name, rootCause, description, workload, params, master, conf, format35,
          format40, heapMb, timeout, baseline, driverKilled, check);
    }
  }
}

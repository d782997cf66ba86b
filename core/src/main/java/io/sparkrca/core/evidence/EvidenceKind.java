package io.sparkrca.core.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What kind of evidence a gap, a want or a request is about, with the words reports use for it
 * ({@link #displayName()}) and where to get it, platform by platform ({@link #places()}). Gaps
 * and analyses name evidence by kind, so that a provider's gap and an analyzer's want meet on a
 * value rather than on matching strings.
 *
 * <pre>{@code
 * evidence.gaps(EvidenceKind.EVENT_LOG).forEach(g -> System.err.println(g.describe()));
 * System.out.println(EvidenceKind.EXECUTOR_LOGS.howToGet());
 * // the executors' stderr: the worker's work directory, yarn logs -applicationId, kubectl logs
 * }</pre>
 */
public enum EvidenceKind {
  /** The application's own record: its event log, or whatever source was named for it. */
  EVENT_LOG("event log", List.of(
      new Place(Optional.empty(), "the file named after the application id under spark.eventLog.dir (written "
          + "when spark.eventLog.enabled=true)"),
      new Place(Optional.empty(), "the Spark History Server's copy (its URL works too)"),
      new Place(Optional.of(Platform.DATAPROC), "the cluster's or batch's Spark History Server, or "
          + "spark.eventLog.dir in Cloud Storage"),
      new Place(Optional.of(Platform.KUBERNETES), "the volume or bucket spark.eventLog.dir points at"))),
  /** The application's data as a platform's API serves it (Dataproc Serverless' sparkApplications). */
  APPLICATION_DATA("Spark application data", List.of()),
  /** A healthy earlier run to compare with. */
  BASELINE("baseline", List.of()),
  /** The driver's log. */
  DRIVER_LOG("driver log", List.of(
      new Place(Optional.empty(), "spark-submit's stderr"),
      new Place(Optional.of(Platform.KUBERNETES), "the driver pod's log"),
      new Place(Optional.of(Platform.YARN), "the YARN application master's log"))),
  /** The executors' logs. */
  EXECUTOR_LOGS("executor logs", List.of(
      new Place(Optional.of(Platform.STANDALONE), "the worker's work directory"),
      new Place(Optional.of(Platform.YARN), "yarn logs -applicationId"),
      new Place(Optional.of(Platform.KUBERNETES), "kubectl logs"))),
  /** A log whose role (driver or executor) was not said, told apart by content when read. */
  LOG("log", List.of()),
  /** The job's code: a JAR, a class file, a script. */
  CODE("code", List.of()),
  /** A workload on a managed platform (a Dataproc batch, session or job) and what the platform knows of it. */
  WORKLOAD("workload", List.of()),
  /** The cluster manager's records about the application's processes (pods, containers, nodes). */
  CLUSTER_RECORDS("cluster records", List.of(
      new Place(Optional.of(Platform.KUBERNETES), "the pods' status and events (kubectl describe pod, kubectl get "
          + "events; the sparkrca-kubernetes module reads them given the namespace)"),
      new Place(Optional.of(Platform.YARN), "yarn logs -applicationId and the container exit statuses"),
      new Place(Optional.of(Platform.DATAPROC), "the batch's logs in Cloud Logging")));

  /** Where Spark ran, for advice that differs by platform. */
  public enum Platform {
    STANDALONE("standalone"),
    YARN("YARN"),
    KUBERNETES("Kubernetes"),
    DATAPROC("Dataproc");

    private final String displayName;

    Platform(String displayName) {
      this.displayName = displayName;
    }

    /** The platform's name in advice: {@code "Kubernetes"}, {@code "YARN"}. */
    public String displayName() {
      return displayName;
    }
  }

  /**
   * One place to get a kind of evidence.
   *
   * @param platform the platform it applies to; empty when it applies to any (spark-submit's stderr)
   * @param where where to find it, e.g. {@code "kubectl logs"}
   */
  public record Place(Optional<Platform> platform, String where) {
    public Place {
      Objects.requireNonNull(platform, "platform");
      Objects.requireNonNull(where, "where");
    }
  }

  private final String displayName;
  private final List<Place> places;

  EvidenceKind(String displayName, List<Place> places) {
    this.displayName = displayName;
    this.places = places;
  }

  /** The words for this kind in gaps and reports: {@code "event log"}, {@code "executor logs"}. */
  public String displayName() {
    return displayName;
  }

  /**
   * The name of one piece of this kind: {@code "executor 3 log"} for executor {@code 3}'s log, and
   * otherwise the kind with the piece in parentheses, {@code "cluster records (kubernetes)"}.
   */
  public String qualified(String qualifier) {
    Objects.requireNonNull(qualifier, "qualifier");
    return this == EXECUTOR_LOGS ? "executor " + qualifier + " log" : displayName + " (" + qualifier + ")";
  }

  /** Where to get it, in the order advice names them; empty when the advice is not by platform. */
  public List<Place> places() {
    return places;
  }

  /** The places that apply on {@code platform}: its own, and those that apply anywhere. */
  public List<String> placesOn(Platform platform) {
    Objects.requireNonNull(platform, "platform");
    List<String> out = new ArrayList<>();
    for (Place p : places) {
      if (p.platform().map(platform::equals).orElse(true)) {
        out.add(p.where());
      }
    }
    return out;
  }

  /** How to get it, in one phrase for a report's missing evidence, every platform's way named. */
  public String howToGet() {
    return switch (this) {
      case DRIVER_LOG -> orList(wheres());
      case EXECUTOR_LOGS -> "the executors' stderr: " + String.join(", ", wheres());
      case CLUSTER_RECORDS -> "the cluster manager's view of the executors: " + String.join(", ",
          places.stream().map(p -> "on " + p.platform().map(Platform::displayName).orElse("any platform") + " "
              + p.where()).toList());
      case CODE -> "the job's JAR or script";
      case EVENT_LOG -> "the application's event log: " + String.join("; ", places.stream().map(p ->
          p.platform().map(pl -> "on " + pl.displayName() + " ").orElse("") + p.where()).toList());
      default -> "collect it and run the analysis again";
    };
  }

  /** Every place's words, in order. */
  List<String> wheres() {
    return places.stream().map(Place::where).toList();
  }

  /** {@code "a, b, or c"}. */
  private static String orList(List<String> items) {
    if (items.size() < 2) {
      return String.join("", items);
    }
    return String.join(", ", items.subList(0, items.size() - 1)) + ", or " + items.get(items.size() - 1);
  }
}

package io.sparkrca.gcp.dataproc;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.gcp.GcpSettings;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dataproc workload named by URI: a Serverless batch or session, or a job on a Dataproc cluster.
 * Accepted forms, where project and region not given come from {@link GcpSettings} (flags, the
 * environment, the gcloud configuration):
 *
 * <ul>
 *   <li>{@code dataproc:batches/ID}, {@code dataproc:sessions/ID}, {@code dataproc:jobs/ID}, each
 *       with optional {@code ?project=P&region=R};
 *   <li>the resource names {@code dataproc:projects/P/locations/R/batches/ID} (or {@code
 *       sessions}) and {@code dataproc:projects/P/regions/R/jobs/ID}, also with {@code //} after
 *       the scheme.
 * </ul>
 *
 * <pre>{@code
 * DataprocWorkload w = DataprocWorkload.parse("dataproc:batches/b-1?region=europe-west1", GcpSettings.defaults());
 * w.parent(); // projects/<configured project>/locations/europe-west1/batches/b-1
 * }</pre>
 *
 * @param type batch, session or cluster job
 * @param project the project id
 * @param region the region (Dataproc "location")
 * @param id the batch, session or job id
 */
public record DataprocWorkload(Type type, String project, String region, String id) {
  /** The URI scheme, with its colon. */
  public static final String SCHEME = "dataproc:";

  private static final Pattern SHORT = Pattern.compile("(batches|sessions|jobs)/([^/?]+)");
  private static final Pattern LONG =
      Pattern.compile("projects/([^/]+)/(?:locations|regions)/([^/]+)/(batches|sessions|jobs)/([^/?]+)");

  /** The kinds of workload, with their collection names in resource names. */
  public enum Type {
    // The region label of each monitored resource: cloud_dataproc_batch and cloud_dataproc_session
    // carry {resource_container, location, <kind>_id}; cloud_dataproc_job (like
    // cloud_dataproc_cluster) carries {job_id, job_uuid, region}.
    BATCH("batches", "batch", "cloud_dataproc_batch", "batch_id", "location"),
    SESSION("sessions", "session", "cloud_dataproc_session", "session_id", "location"),
    JOB("jobs", "job", "cloud_dataproc_job", "job_id", "region");

    private final String collection;
    private final String word;
    private final String resourceType;
    private final String idLabel;
    private final String regionLabel;

    Type(String collection, String word, String resourceType, String idLabel, String regionLabel) {
      this.collection = collection;
      this.word = word;
      this.resourceType = resourceType;
      this.idLabel = idLabel;
      this.regionLabel = regionLabel;
    }

    /** {@code batches}, {@code sessions} or {@code jobs}. */
    public String collection() {
      return collection;
    }

    /** {@code batch}, {@code session} or {@code job}. */
    public String word() {
      return word;
    }

    /** The Cloud Logging monitored-resource type, e.g. {@code cloud_dataproc_batch}. */
    public String resourceType() {
      return resourceType;
    }

    /** The monitored resource's label naming the workload, e.g. {@code batch_id}. */
    public String idLabel() {
      return idLabel;
    }

    /**
     * The monitored resource's label naming the region: {@code location} for a batch or session,
     * {@code region} for a cluster job.
     */
    public String regionLabel() {
      return regionLabel;
    }

    static Type of(String collection) {
      for (Type t : values()) {
        if (t.collection.equals(collection)) {
          return t;
        }
      }
      throw new InvalidRequestException("not a Dataproc workload kind: " + collection);
    }
  }

  public DataprocWorkload {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(project, "project");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(id, "id");
  }

  /** Whether {@code uri} is a Dataproc workload URI (by its scheme). */
  public static boolean isUri(String uri) {
    return uri != null && uri.toLowerCase(Locale.ROOT).startsWith(SCHEME);
  }

  /**
   * The workload {@code uri} names; project and region default to those of {@code settings}.
   *
   * @throws InvalidRequestException when it is not a workload URI, or project or region cannot be found
   */
  public static DataprocWorkload parse(String uri, GcpSettings settings) {
    if (!isUri(uri)) {
      throw new InvalidRequestException("not a Dataproc workload URI: " + uri
          + " (write dataproc:batches/ID, dataproc:sessions/ID or dataproc:jobs/ID)");
    }
    String rest = uri.substring(SCHEME.length());
    while (rest.startsWith("/")) {
      rest = rest.substring(1);
    }
    Map<String, String> query = new HashMap<>();
    int q = rest.indexOf('?');
    if (q >= 0) {
      for (String kv : rest.substring(q + 1).split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          query.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
      rest = rest.substring(0, q);
    }
    Matcher l = LONG.matcher(rest);
    if (l.matches()) {
      return new DataprocWorkload(Type.of(l.group(3)), l.group(1), l.group(2), l.group(4));
    }
    Matcher s = SHORT.matcher(rest);
    if (!s.matches()) {
      throw new InvalidRequestException("not a Dataproc workload URI: " + uri
          + " (write dataproc:batches/ID, dataproc:sessions/ID or dataproc:jobs/ID, or a resource name such as "
          + "dataproc:projects/P/locations/R/batches/ID)");
    }
    String project = Optional.ofNullable(query.get("project")).filter(v -> !v.isBlank())
        .orElseGet(settings::requireProject);
    String region = Optional.ofNullable(query.get("region")).filter(v -> !v.isBlank())
        .orElseGet(settings::requireRegion);
    return new DataprocWorkload(Type.of(s.group(1)), project, region, s.group(2));
  }

  /**
   * Workload {@code id} of {@code type}, in the project and region of {@code settings}.
   *
   * <pre>{@code
   * DataprocWorkload w = DataprocWorkload.of(DataprocWorkload.Type.BATCH, "b-1", GcpSettings.defaults());
   * }</pre>
   *
   * @throws InvalidRequestException when {@code id} is not a bare id, or project or region cannot be found
   */
  public static DataprocWorkload of(Type type, String id, GcpSettings settings) {
    Objects.requireNonNull(type, "type");
    if (id == null || id.isBlank() || id.contains("/") || id.contains("?")) {
      throw new InvalidRequestException("'" + id + "' is not a Dataproc " + type.word()
          + " id (give the id alone, e.g. my-" + type.word() + "-1)");
    }
    return new DataprocWorkload(type, settings.requireProject(), settings.requireRegion(), id);
  }

  /**
   * The URI naming a workload; project and region may be empty (then resolved when it is read).
   */
  public static String uri(Type type, String id, Optional<String> project, Optional<String> region) {
    StringBuilder b = new StringBuilder(SCHEME).append(type.collection()).append('/').append(id);
    project.ifPresent(p -> b.append("?project=").append(p));
    region.ifPresent(r -> b.append(project.isPresent() ? "&" : "?").append("region=").append(r));
    return b.toString();
  }

  /** The resource name: {@code projects/P/locations/R/batches/ID}, or {@code projects/P/regions/R/jobs/ID}. */
  public String parent() {
    return "projects/" + project + (type == Type.JOB ? "/regions/" : "/locations/") + region + "/" + type.collection()
        + "/" + id;
  }

  /** The canonical URI, with project and region. */
  public String uri() {
    return SCHEME + parent();
  }

  /** How it is named in reports: {@code Dataproc batch b-1 (projects/p/locations/r)}. */
  public String describe() {
    return "Dataproc " + type.word() + " " + id + " (project " + project + ", region " + region + ")";
  }
}

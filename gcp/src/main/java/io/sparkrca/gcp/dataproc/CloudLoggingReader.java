package io.sparkrca.gcp.dataproc;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.rpc.ApiException;
import com.google.cloud.logging.v2.LoggingClient;
import com.google.cloud.logging.v2.LoggingSettings;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.LogEntry;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.Credentials;
import io.sparkrca.gcp.internal.Deadlines;
import io.sparkrca.gcp.internal.Messages;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A workload's entries in Cloud Logging (google-cloud-logging's gRPC client), read the way the
 * Dataproc troubleshooting skill (gcp-spark-troubleshooting) says: the workload's resource ({@code
 * cloud_dataproc_batch}, {@code cloud_dataproc_session} or {@code cloud_dataproc_job}) in its
 * region ({@code resource.labels.location}, a job's {@code resource.labels.region}) and, for
 * Serverless, its log names (output, spark, startup, agent, autoscaler); {@code (severity>=ERROR OR
 * severity=DEFAULT)} first, newest first and bounded; when the errors are only generic headers
 * ("Job failed"), once more at {@code (severity>=INFO OR severity=DEFAULT)} within five minutes of
 * the state time, where the full traceback is. {@code DEFAULT} (no severity) sorts below {@code
 * DEBUG} in Cloud Logging, and a Python traceback written to the driver's stderr often has none:
 * without the {@code DEFAULT} clause both queries would drop it. Both {@code textPayload} and
 * {@code jsonPayload.message} are read.
 */
final class CloudLoggingReader implements AutoCloseable {
  /** The most entries one query returns. */
  static final int MAX_ENTRIES = 200;
  /** The most characters kept of one entry's message. */
  static final int MAX_MESSAGE = 16 * 1024;
  static final List<String> LOG_NAMES = List.of("output", "spark", "startup", "agent", "autoscaler");
  static final Duration WINDOW = Duration.ofMinutes(5);
  /** The errors query's severities: an entry with no severity may be the traceback next to an ERROR line. */
  static final String ERRORS = "(severity>=ERROR OR severity=DEFAULT)";
  /** The escalated query's severities, within {@link #WINDOW} of the state time. */
  static final String WINDOW_SEVERITIES = "(severity>=INFO OR severity=DEFAULT)";
  private static final Pattern INFORMATIVE = Pattern.compile(
      "(?i)(exception|error:|traceback|caused by|killed|outofmemory|no such file|not found|denied|exit code|errno)");

  private final GcpSettings settings;
  private LoggingClient client;

  CloudLoggingReader(GcpSettings settings) {
    this.settings = settings;
  }

  /** One entry, flattened. */
  record Entry(Optional<Instant> time, String severity, String log, String component, String message) {
    /** The entry as log text: a timestamped first line, the message's further lines as they are. */
    String render() {
      return time.map(Instant::toString).orElse("-") + " " + severity + " [" + log
          + (component.isEmpty() ? "" : "/" + component) + "] " + message;
    }
  }

  /** What was read: the entries (oldest first), each query with how many it returned, and whether it escalated. */
  record Result(List<Entry> entries, List<String> queries, boolean escalated) {}

  Result read(WorkloadRecord r) {
    List<String> queries = new ArrayList<>();
    String base = baseFilter(r);
    String errors = base + " AND " + ERRORS;
    List<Entry> found = query(r, errors, queries);
    boolean escalate = found.stream().noneMatch(e -> INFORMATIVE.matcher(e.message()).find());
    if (escalate && (r.failed() || !found.isEmpty())) {
      Optional<Instant> at = r.stateTime();
      String window = base + " AND " + WINDOW_SEVERITIES + at.map(t -> " AND timestamp>=" + quote(t.minus(WINDOW).toString())
          + " AND timestamp<=" + quote(t.plus(WINDOW).toString())).orElse("");
      List<Entry> more = query(r, window, queries);
      if (!more.isEmpty()) {
        List<Entry> merged = new ArrayList<>(more);
        for (Entry e : found) {
          if (!merged.contains(e)) {
            merged.add(e);
          }
        }
        merged.sort((a, b) -> a.time().orElse(Instant.EPOCH).compareTo(b.time().orElse(Instant.EPOCH)));
        return new Result(List.copyOf(merged), queries, true);
      }
    }
    return new Result(found, queries, false);
  }

  /**
   * The resource, its region (so a same-named workload in another region cannot mix in) and, for
   * Serverless, the log names of the workload; every value quoted with {@link #quote}.
   */
  static String baseFilter(WorkloadRecord r) {
    DataprocWorkload w = r.workload();
    DataprocWorkload.Type t = w.type();
    StringBuilder f = new StringBuilder("resource.type=").append(quote(t.resourceType()))
        .append(" AND resource.labels.").append(t.idLabel()).append('=').append(quote(w.id()))
        .append(" AND resource.labels.").append(t.regionLabel()).append('=').append(quote(w.region()));
    if (t != DataprocWorkload.Type.JOB) {
      f.append(" AND logName=(");
      for (int i = 0; i < LOG_NAMES.size(); i++) {
        f.append(i == 0 ? "" : " OR ")
            .append(quote("projects/" + w.project() + "/logs/dataproc.googleapis.com%2F" + LOG_NAMES.get(i)));
      }
      f.append(')');
    }
    r.createTime().ifPresent(c -> f.append(" AND timestamp>=").append(quote(c.minus(Duration.ofMinutes(1)).toString())));
    return f.toString();
  }

  /**
   * {@code value} as a Cloud Logging filter string: in double quotes, with backslashes and double
   * quotes escaped, so an id or region cannot end the string and add terms of its own.
   */
  static String quote(String value) {
    StringBuilder b = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' || c == '"') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.append('"').toString();
  }

  private List<Entry> query(WorkloadRecord r, String filter, List<String> queries) {
    ListLogEntriesRequest req = ListLogEntriesRequest.newBuilder()
        .addResourceNames("projects/" + r.workload().project())
        .setFilter(filter)
        .setOrderBy("timestamp desc")
        .setPageSize(Math.min(100, MAX_ENTRIES))
        .build();
    List<Entry> out = new ArrayList<>();
    try {
      for (LogEntry e : client().listLogEntries(req).iterateAll()) {
        if (out.size() >= MAX_ENTRIES) {
          break;
        }
        out.add(entry(e));
      }
    } catch (ApiException e) {
      // The workload's part of the filter is long and the evidence gap names it: the message keeps
      // to the call, this query's own terms and the cause.
      String own = baseFilter(r) + " AND ";
      String call = "entries.list(projects/" + r.workload().project() + ", "
          + (filter.startsWith(own) ? "the workload's entries with " + filter.substring(own.length())
              : "filter=" + filter) + ")";
      switch (e.getStatusCode().getCode()) {
        case PERMISSION_DENIED:
          throw new AccessDeniedException(call, e.getStatusCode().getCode() + ": " + Messages.oneLine(e.getMessage()),
              "grant the caller roles/logging.viewer on project " + r.workload().project(), e);
        case UNAUTHENTICATED:
          throw new AccessDeniedException(call, "UNAUTHENTICATED: " + Messages.oneLine(e.getMessage()),
              "run 'gcloud auth application-default login'", e);
        case DEADLINE_EXCEEDED:
          throw new SparkRcaException(Messages.timedOut(call, "no answer", settings.timeout(), ""), e);
        default:
          throw new SparkRcaException(call + " failed (" + e.getStatusCode().getCode() + ": "
              + Messages.oneLine(e.getMessage()) + ")", e);
      }
    }
    queries.add(filter + " -> " + out.size() + " entr" + (out.size() == 1 ? "y" : "ies")
        + (out.size() >= MAX_ENTRIES ? " (the newest " + MAX_ENTRIES + ")" : ""));
    Collections.reverse(out); // newest first from the API; a log reads oldest first
    return out;
  }

  static Entry entry(LogEntry e) {
    String message = e.getTextPayload();
    String component = e.getLabelsMap().getOrDefault("dataproc.googleapis.com/component", "");
    if (message.isEmpty() && e.hasJsonPayload()) {
      Struct p = e.getJsonPayload();
      message = text(p, "message");
      if (component.isEmpty()) {
        component = text(p, "component");
      }
      if (message.isEmpty()) {
        try {
          message = com.google.protobuf.util.JsonFormat.printer().omittingInsignificantWhitespace().print(p);
        } catch (com.google.protobuf.InvalidProtocolBufferException ex) {
          message = p.toString().replace("\n", " ");
        }
      }
    }
    if (message.length() > MAX_MESSAGE) {
      message = message.substring(0, MAX_MESSAGE) + " ...[cut at " + MAX_MESSAGE + " characters]";
    }
    String log = e.getLogName();
    int slash = log.lastIndexOf("%2F");
    log = slash >= 0 ? log.substring(slash + 3) : log.substring(log.lastIndexOf('/') + 1);
    Optional<Instant> t = e.getTimestamp().getSeconds() <= 0 ? Optional.empty()
        : Optional.of(Instant.ofEpochSecond(e.getTimestamp().getSeconds(), e.getTimestamp().getNanos()));
    return new Entry(t, e.getSeverity().name(), log, component, message);
  }

  private static String text(Struct s, String field) {
    Value v = s.getFieldsMap().get(field);
    return v == null || !v.hasStringValue() ? "" : v.getStringValue();
  }

  private synchronized LoggingClient client() {
    if (client == null) {
      try {
        LoggingSettings.Builder b =
            LoggingSettings.newBuilder().applyToAllUnaryMethods(Deadlines.within(settings.timeout()));
        if (settings.loggingTransport().isPresent()) {
          b.setTransportChannelProvider(settings.loggingTransport().get());
          Credentials c = Credentials.forInProcess(settings);
          b.setCredentialsProvider(c.none() ? NoCredentialsProvider.create() : c.provider());
        } else {
          String endpoint = settings.loggingEndpoint();
          InstantiatingGrpcChannelProvider.Builder channel = InstantiatingGrpcChannelProvider.newBuilder().setEndpoint(endpoint);
          if (GcpSettings.isLoopback(endpoint)) {
            channel.setChannelConfigurator(m -> m.usePlaintext());
          }
          b.setTransportChannelProvider(channel.build());
          b.setCredentialsProvider(Credentials.forEndpoint(settings, endpoint).provider());
          b.setEndpoint(endpoint);
        }
        client = LoggingClient.create(b.build());
      } catch (IOException e) {
        throw new SparkRcaException("the Cloud Logging client could not be created: " + Messages.oneLine(e.getMessage()), e);
      }
    }
    return client;
  }

  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
    }
  }
}

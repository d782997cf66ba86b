package io.sparkrca.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.kubernetes.internal.Render;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The log tails of an application's driver and failed executors (current and previous runs), with
 * the failure signatures each holds, and what could not be read.
 *
 * <pre>{@code
 * LogsView v = k8s.logs(SparkPods.Target.of(appId), Optional.of("3"), false);
 * System.out.println(v.toMarkdown());
 * }</pre>
 *
 * @param server the API server
 * @param namespace the namespace read
 * @param applicationId the Spark application id
 * @param logs the log tails
 * @param gaps what could not be read
 */
public record LogsView(String server, String namespace, String applicationId, List<LogTail> logs,
    List<EvidenceGap> gaps) implements KubernetesView {
  private static final Set<String> NOT_FAILURES = Set.of("SPARK_STARTED", "ERROR_LINE", "EXIT_CODE");

  public LogsView {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(applicationId, "applicationId");
    logs = List.copyOf(logs);
    gaps = List.copyOf(gaps);
  }

  /** 1 when a log holds a failure signature (an OutOfMemoryError, a lost executor, an exception); else 0. */
  @Override
  public int exitCode() {
    return logs.stream().anyMatch(l -> l.scan().signatureCounts().keySet().stream()
        .anyMatch(s -> !NOT_FAILURES.contains(s))) ? 1 : 0;
  }

  @Override
  public boolean nothingRead() {
    return logs.isEmpty();
  }

  @Override
  public String summary() {
    return logs.size() + " log(s) read, in namespace " + namespace;
  }

  @Override
  public String toMarkdown() {
    StringBuilder sb = Render.heading("Kubernetes logs of " + applicationId, server, namespace, applicationId);
    Render.logs(sb, logs);
    Render.gaps(sb, gaps, List.of());
    return sb.toString();
  }

  @Override
  public String toJson() {
    ObjectNode o = Render.header("logs", server, namespace, applicationId);
    o.set("logs", Render.logsJson(logs));
    o.set("missingEvidence", Render.gapsJson(gaps, List.of()));
    return Render.json(o);
  }
}

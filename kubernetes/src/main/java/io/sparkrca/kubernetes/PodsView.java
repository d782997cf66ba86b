package io.sparkrca.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.kubernetes.internal.Render;
import java.util.List;
import java.util.Objects;

/**
 * An application's pods as the cluster holds them: each pod's phase and reason, its containers'
 * termination records, restarts and memory limits; the nodes they ran on with their conditions;
 * its SparkApplication; and what could not be read.
 *
 * <pre>{@code
 * PodsView v = k8s.pods(SparkPods.Target.of(appId));
 * System.out.println(v.toMarkdown());
 * System.exit(v.exitCode());
 * }</pre>
 *
 * @param server the API server
 * @param namespace the namespace read
 * @param applicationId the Spark application id
 * @param pods its pods, the driver first
 * @param nodes the nodes they ran on
 * @param applications its SparkApplication, when an operator launched it
 * @param gaps what could not be read, with the exact reason
 * @param notes how reading went
 */
public record PodsView(String server, String namespace, String applicationId, List<PodInfo> pods,
    List<NodeInfo> nodes, List<SparkApplicationInfo> applications, List<EvidenceGap> gaps, List<String> notes)
    implements KubernetesView {
  public PodsView {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(applicationId, "applicationId");
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
    applications = List.copyOf(applications);
    gaps = List.copyOf(gaps);
    notes = List.copyOf(notes);
  }

  /** 1 when a pod failed, was evicted or disrupted, or a node is under pressure; else 0. */
  @Override
  public int exitCode() {
    boolean bad = pods.stream().anyMatch(PodInfo::failed)
        || nodes.stream().anyMatch(n -> n.conditions().stream().anyMatch(NodeInfo.Condition::abnormal))
        || applications.stream().anyMatch(a -> a.state().contains("FAIL"));
    return bad ? 1 : 0;
  }

  @Override
  public boolean nothingRead() {
    return pods.isEmpty() && applications.isEmpty();
  }

  @Override
  public String summary() {
    return pods.size() + " pod(s), " + pods.stream().filter(PodInfo::failed).count() + " failed, in namespace " + namespace;
  }

  @Override
  public String toMarkdown() {
    StringBuilder sb = Render.heading("Kubernetes pods of " + applicationId, server, namespace, applicationId);
    Render.pods(sb, pods);
    Render.nodes(sb, nodes);
    Render.applications(sb, applications);
    Render.gaps(sb, gaps, notes);
    return sb.toString();
  }

  @Override
  public String toJson() {
    ObjectNode o = Render.header("pods", server, namespace, applicationId);
    o.set("pods", Render.podsJson(pods));
    o.set("nodes", Render.nodesJson(nodes));
    o.set("sparkApplications", Render.applicationsJson(applications));
    o.set("missingEvidence", Render.gapsJson(gaps, notes));
    return Render.json(o);
  }
}

package io.sparkrca.kubernetes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.kubernetes.internal.Render;
import java.util.List;
import java.util.Objects;

/**
 * The events about an application's pods, their nodes and its SparkApplication, oldest first,
 * with what could not be read (events older than the API server's TTL are gone).
 *
 * <pre>{@code
 * EventsView v = k8s.events(SparkPods.Target.of(appId));
 * v.events().stream().filter(EventInfo::warning).forEach(e -> System.out.println(e.reason()));
 * }</pre>
 *
 * @param server the API server
 * @param namespace the namespace read
 * @param applicationId the Spark application id
 * @param events the events
 * @param gaps what could not be read
 * @param notes how reading went
 */
public record EventsView(String server, String namespace, String applicationId, List<EventInfo> events,
    List<EvidenceGap> gaps, List<String> notes) implements KubernetesView {
  public EventsView {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(applicationId, "applicationId");
    events = List.copyOf(events);
    gaps = List.copyOf(gaps);
    notes = List.copyOf(notes);
  }

  /** 1 when any event is a warning; else 0. */
  @Override
  public int exitCode() {
    return events.stream().anyMatch(EventInfo::warning) ? 1 : 0;
  }

  @Override
  public boolean nothingRead() {
    return events.isEmpty();
  }

  @Override
  public String summary() {
    return events.size() + " event(s), " + events.stream().filter(EventInfo::warning).count() + " warning(s), in namespace "
        + namespace;
  }

  @Override
  public String toMarkdown() {
    StringBuilder sb = Render.heading("Kubernetes events of " + applicationId, server, namespace, applicationId);
    Render.events(sb, events);
    Render.gaps(sb, gaps, notes);
    return sb.toString();
  }

  @Override
  public String toJson() {
    ObjectNode o = Render.header("events", server, namespace, applicationId);
    o.set("events", Render.eventsJson(events));
    o.set("missingEvidence", Render.gapsJson(gaps, notes));
    return Render.json(o);
  }
}

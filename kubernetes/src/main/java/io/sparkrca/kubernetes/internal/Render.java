package io.sparkrca.kubernetes.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Markdown;
import io.sparkrca.kubernetes.ContainerInfo;
import io.sparkrca.kubernetes.EventInfo;
import io.sparkrca.kubernetes.LogTail;
import io.sparkrca.kubernetes.NodeInfo;
import io.sparkrca.kubernetes.PodInfo;
import io.sparkrca.kubernetes.SparkApplicationInfo;
import io.sparkrca.kubernetes.Termination;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Markdown and JSON for the Kubernetes views, one shape for pods, events and logs. */
public final class Render {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  /** The most log lines a Markdown view shows per log (JSON has the whole bounded tail). */
  public static final int MARKDOWN_LOG_LINES = 60;

  private Render() {}

  /** The heading every view starts with. */
  public static StringBuilder heading(String title, String server, String namespace, String appId) {
    StringBuilder sb = new StringBuilder();
    sb.append("### ").append(Markdown.text(title, 200)).append("\n\n");
    sb.append("- **Application**: ").append(Markdown.code(appId)).append("\n");
    sb.append("- **Namespace**: ").append(Markdown.code(namespace)).append("\n");
    sb.append("- **API server**: ").append(Markdown.code(server)).append("\n\n");
    return sb;
  }

  public static ObjectNode header(String kind, String server, String namespace, String appId) {
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", kind);
    o.put("applicationId", appId);
    o.put("namespace", namespace);
    o.put("server", server);
    return o;
  }

  public static String json(ObjectNode o) {
    return io.sparkrca.core.json.JsonText.indented(o, "the cluster records");
  }

  public static void pods(StringBuilder sb, List<PodInfo> pods) {
    sb.append("#### Pods (").append(pods.size()).append(")\n\n");
    if (pods.isEmpty()) {
      sb.append("No pod found.\n\n");
      return;
    }
    sb.append("| Pod | Role | Executor | Phase | Node | Spark container | Restarts | Memory limit |\n");
    sb.append("|---|---|---|---|---|---|---|---|\n");
    for (PodInfo p : pods) {
      Optional<ContainerInfo> c = p.sparkContainer();
      sb.append("| ").append(Markdown.code(p.name(), 120)).append(" | ").append(p.role()).append(" | ")
          .append(Markdown.text(p.executorId().orElse(""), 40)).append(" | ")
          .append(Markdown.text(p.phase() + (p.reason().isEmpty() ? "" : " (" + p.reason() + ")"), 80)).append(" | ")
          .append(Markdown.text(p.node().orElse(""), 80)).append(" | ")
          .append(Markdown.text(c.map(Render::state).orElse(""), 200)).append(" | ")
          .append(c.map(x -> Integer.toString(x.restartCount())).orElse("")).append(" | ")
          .append(c.flatMap(ContainerInfo::memoryLimitBytes).map(Formats::humanBytes).orElse("")).append(" |\n");
    }
    sb.append("\n");
    for (PodInfo p : pods) {
      if (!p.message().isEmpty() || !p.disruption().isEmpty()) {
        sb.append("- ").append(Markdown.code(p.name(), 120)).append(": ")
            .append(Markdown.text(p.message().isEmpty() ? p.disruption() : p.message(), 500)).append("\n");
      }
      for (ContainerInfo c : p.containers()) {
        c.lastTerminated().ifPresent(t -> sb.append("- ").append(Markdown.code(p.name(), 120)).append(" container ")
            .append(Markdown.code(c.name(), 80)).append(" previous run: ").append(Markdown.text(termination(t), 300))
            .append("\n"));
      }
    }
  }

  /** A container's state in a few words: {@code terminated OOMKilled, exit 137 at 2026-...}. */
  public static String state(ContainerInfo c) {
    return switch (c.state()) {
      case "terminated" -> "terminated " + c.terminated().map(Render::termination).orElse("");
      case "waiting" -> "waiting" + (c.stateReason().isEmpty() ? "" : " (" + c.stateReason() + ")");
      case "running" -> "running" + c.runningSince().map(t -> " since " + t).orElse("");
      default -> c.state();
    };
  }

  static String termination(Termination t) {
    return (t.reason().isEmpty() ? "" : t.reason() + ", ") + "exit " + t.exitCode()
        + t.signal().map(s -> " (signal " + s + ")").orElse("") + t.finishedAt().map(x -> " at " + x).orElse("");
  }

  public static void nodes(StringBuilder sb, List<NodeInfo> nodes) {
    if (nodes.isEmpty()) {
      return;
    }
    sb.append("#### Nodes (").append(nodes.size()).append(")\n\n");
    for (NodeInfo n : nodes) {
      List<NodeInfo.Condition> bad = n.conditions().stream().filter(NodeInfo.Condition::abnormal).toList();
      sb.append("- ").append(Markdown.code(n.name(), 120)).append(": ")
          .append(bad.isEmpty() ? "no pressure, ready" : String.join(", ", bad.stream().map(c -> Markdown.text(
              c.name() + c.since().map(t -> " since " + t).orElse("") + (c.message().isEmpty() ? "" : " (" + c.message()
                  + ")"), 300)).toList()))
          .append(n.memoryAllocatableBytes().map(m -> "; allocatable memory " + Formats.humanBytes(m)).orElse(""))
          .append(n.unschedulable() ? "; cordoned" : "")
          .append(n.labels().isEmpty() ? "" : "; " + Markdown.text(n.labels().toString(), 300)).append("\n");
    }
    sb.append("\n");
  }

  public static void applications(StringBuilder sb, List<SparkApplicationInfo> apps) {
    for (SparkApplicationInfo a : apps) {
      sb.append("#### SparkApplication ").append(Markdown.code(a.name(), 120)).append("\n\n");
      sb.append("- **State**: ").append(Markdown.text(a.state(), 80)).append(a.errorMessage().isEmpty() ? ""
          : ": " + Markdown.text(a.errorMessage(), 1000)).append("\n");
      a.sparkApplicationId().ifPresent(id -> sb.append("- **Spark application id**: ").append(Markdown.code(id)).append("\n"));
      a.driverPod().ifPresent(d -> sb.append("- **Driver pod**: ").append(Markdown.code(d)).append("\n"));
      if (!a.executorStates().isEmpty()) {
        sb.append("- **Executor pods**: ").append(Markdown.text(a.executorStates().toString(), 1000)).append("\n");
      }
      sb.append("\n");
    }
  }

  public static void events(StringBuilder sb, List<EventInfo> events) {
    sb.append("#### Events (").append(events.size()).append(")\n\n");
    if (events.isEmpty()) {
      sb.append("No event found.\n\n");
      return;
    }
    sb.append("| Last seen | Type | Object | Reason | Message | Count |\n|---|---|---|---|---|---|\n");
    for (EventInfo e : events) {
      sb.append("| ").append(e.time().map(Instant::toString).orElse("")).append(" | ").append(Markdown.text(e.type(), 20))
          .append(" | ").append(Markdown.text(e.involvedKind().toLowerCase(java.util.Locale.ROOT) + "/" + e.involvedName(), 160))
          .append(" | ").append(Markdown.text(e.reason(), 80)).append(" | ").append(Markdown.text(e.message(), 400))
          .append(" | ").append(e.count()).append(" |\n");
    }
    sb.append("\n");
  }

  public static void logs(StringBuilder sb, List<LogTail> logs) {
    sb.append("#### Logs (").append(logs.size()).append(")\n\n");
    if (logs.isEmpty()) {
      sb.append("No log read.\n\n");
    }
    for (LogTail t : logs) {
      sb.append("##### ").append(Markdown.text(t.pod() + " / " + t.container() + (t.previous() ? " (previous run)" : ""), 200))
          .append("\n\n");
      Map<String, Long> counts = t.scan().signatureCounts();
      sb.append("- **Signatures**: ").append(counts.isEmpty() ? "none" : Markdown.text(counts.toString(), 500)).append("\n");
      sb.append("- **Read**: ").append(t.scan().linesScanned()).append(" lines").append(t.cut()
          ? ", cut to the last " + Formats.humanBytes(t.text().length()) : "").append("\n");
      for (LogExcerpt e : t.scan().excerpts()) {
        if (e.signatures().stream().anyMatch(s -> !s.equals("SPARK_STARTED") && !s.equals("ERROR_LINE"))) {
          sb.append("- line ").append(e.line()).append(" ").append(Markdown.text(String.join(", ", e.signatures()), 200))
              .append(": ").append(Markdown.code(e.text(), 300)).append("\n");
        }
      }
      String[] lines = t.text().split("\n", -1);
      int from = Math.max(0, lines.length - MARKDOWN_LOG_LINES - 1);
      sb.append("\n").append(from > 0 ? "The last " + MARKDOWN_LOG_LINES + " lines:\n\n" : "")
          .append(Markdown.codeBlock(String.join("\n", java.util.Arrays.asList(lines).subList(from, lines.length)),
              MARKDOWN_LOG_LINES + 1)).append("\n\n");
    }
  }

  public static void gaps(StringBuilder sb, List<EvidenceGap> gaps, List<String> notes) {
    if (gaps.isEmpty() && notes.isEmpty()) {
      return;
    }
    sb.append("#### Missing evidence\n\n");
    for (EvidenceGap g : gaps) {
      sb.append("- ").append(Markdown.text(g.describe(), 1500)).append("\n");
    }
    for (String n : notes) {
      sb.append("- ").append(Markdown.text(n, 500)).append("\n");
    }
    sb.append("\n");
  }

  // JSON

  public static ArrayNode podsJson(List<PodInfo> pods) {
    ArrayNode a = JSON.createArrayNode();
    for (PodInfo p : pods) {
      ObjectNode o = a.addObject();
      o.put("name", p.name());
      o.put("role", p.role());
      p.executorId().ifPresent(x -> o.put("executorId", x));
      o.put("phase", p.phase());
      o.put("reason", p.reason());
      o.put("message", p.message());
      p.node().ifPresent(x -> o.put("node", x));
      p.startTime().ifPresent(x -> o.put("startTime", x.toString()));
      p.deletedAt().ifPresent(x -> o.put("deletionTimestamp", x.toString()));
      o.put("disruption", p.disruption());
      p.disruptedAt().ifPresent(x -> o.put("disruptedAt", x.toString()));
      o.put("qosClass", p.qosClass());
      o.put("restartPolicy", p.restartPolicy());
      ObjectNode labels = o.putObject("labels");
      p.labels().forEach(labels::put);
      ArrayNode cs = o.putArray("containers");
      for (ContainerInfo c : p.containers()) {
        ObjectNode co = cs.addObject();
        co.put("name", c.name());
        co.put("image", c.image());
        co.put("state", c.state());
        co.put("stateReason", c.stateReason());
        co.put("restartCount", c.restartCount());
        c.runningSince().ifPresent(x -> co.put("runningSince", x.toString()));
        c.terminated().ifPresent(t -> termination(co.putObject("terminated"), t));
        c.lastTerminated().ifPresent(t -> termination(co.putObject("lastTerminated"), t));
        c.memoryRequestBytes().ifPresent(x -> co.put("memoryRequestBytes", x));
        c.memoryLimitBytes().ifPresent(x -> co.put("memoryLimitBytes", x));
        co.put("cpuRequest", c.cpuRequest());
        co.put("cpuLimit", c.cpuLimit());
      }
    }
    return a;
  }

  private static void termination(ObjectNode o, Termination t) {
    o.put("reason", t.reason());
    o.put("exitCode", t.exitCode());
    t.signal().ifPresent(s -> o.put("signal", s));
    t.startedAt().ifPresent(x -> o.put("startedAt", x.toString()));
    t.finishedAt().ifPresent(x -> o.put("finishedAt", x.toString()));
    o.put("message", t.message());
  }

  public static ArrayNode nodesJson(List<NodeInfo> nodes) {
    ArrayNode a = JSON.createArrayNode();
    for (NodeInfo n : nodes) {
      ObjectNode o = a.addObject();
      o.put("name", n.name());
      n.memoryCapacityBytes().ifPresent(x -> o.put("memoryCapacityBytes", x));
      n.memoryAllocatableBytes().ifPresent(x -> o.put("memoryAllocatableBytes", x));
      o.put("unschedulable", n.unschedulable());
      ObjectNode labels = o.putObject("labels");
      n.labels().forEach(labels::put);
      ArrayNode cs = o.putArray("conditions");
      for (NodeInfo.Condition c : n.conditions()) {
        ObjectNode co = cs.addObject();
        co.put("type", c.type());
        co.put("status", c.status());
        co.put("abnormal", c.abnormal());
        co.put("reason", c.reason());
        co.put("message", c.message());
        c.since().ifPresent(x -> co.put("lastTransitionTime", x.toString()));
      }
    }
    return a;
  }

  public static ArrayNode applicationsJson(List<SparkApplicationInfo> apps) {
    ArrayNode a = JSON.createArrayNode();
    for (SparkApplicationInfo s : apps) {
      ObjectNode o = a.addObject();
      o.put("name", s.name());
      o.put("state", s.state());
      o.put("errorMessage", s.errorMessage());
      s.sparkApplicationId().ifPresent(x -> o.put("sparkApplicationId", x));
      s.driverPod().ifPresent(x -> o.put("driverPod", x));
      ObjectNode ex = o.putObject("executorStates");
      s.executorStates().forEach(ex::put);
      o.put("submissionAttempts", s.submissionAttempts());
      s.terminationTime().ifPresent(x -> o.put("terminationTime", x.toString()));
    }
    return a;
  }

  public static ArrayNode eventsJson(List<EventInfo> events) {
    ArrayNode a = JSON.createArrayNode();
    for (EventInfo e : events) {
      ObjectNode o = a.addObject();
      o.put("namespace", e.namespace());
      o.put("name", e.name());
      o.put("involvedKind", e.involvedKind());
      o.put("involvedName", e.involvedName());
      o.put("type", e.type());
      o.put("reason", e.reason());
      o.put("message", e.message());
      o.put("count", e.count());
      e.first().ifPresent(x -> o.put("firstTimestamp", x.toString()));
      e.last().ifPresent(x -> o.put("lastTimestamp", x.toString()));
      o.put("source", e.source());
    }
    return a;
  }

  public static ArrayNode logsJson(List<LogTail> logs) {
    ArrayNode a = JSON.createArrayNode();
    for (LogTail t : logs) {
      ObjectNode o = a.addObject();
      o.put("pod", t.pod());
      o.put("container", t.container());
      o.put("previous", t.previous());
      t.executorId().ifPresent(x -> o.put("executorId", x));
      o.put("uri", t.scan().uri());
      o.put("lines", t.scan().linesScanned());
      o.put("cut", t.cut());
      ObjectNode counts = o.putObject("signatureCounts");
      t.scan().signatureCounts().forEach(counts::put);
      ArrayNode ex = o.putArray("excerpts");
      for (LogExcerpt e : t.scan().excerpts()) {
        ObjectNode eo = ex.addObject();
        eo.put("line", e.line());
        ArrayNode sigs = eo.putArray("signatures");
        e.signatures().forEach(sigs::add);
        eo.put("text", e.block());
      }
      o.put("text", t.text());
    }
    return a;
  }

  public static ArrayNode gapsJson(List<EvidenceGap> gaps, List<String> notes) {
    ArrayNode a = JSON.createArrayNode();
    for (EvidenceGap g : gaps) {
      ObjectNode o = a.addObject();
      o.put("what", g.what());
      o.put("uri", g.uri());
      o.put("reason", g.reason().name());
      o.put("detail", g.detail());
      o.put("whatToDo", g.whatToDo());
    }
    for (String n : notes) {
      ObjectNode o = a.addObject();
      o.put("what", "note");
      o.put("detail", n);
    }
    return a;
  }
}

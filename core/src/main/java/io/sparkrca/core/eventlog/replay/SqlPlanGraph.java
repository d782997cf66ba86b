package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.SqlEdge;
import io.sparkrca.core.model.SqlMetric;
import io.sparkrca.core.model.SqlNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A SQL execution's plan graph, built from the {@code sparkPlanInfo} of an execution start or
 * adaptive update event exactly as Spark's {@code SparkPlanGraph} builds it: node ids in
 * depth-first order from 0, {@code WholeStageCodegen} nodes as clusters holding the operators
 * compiled into them, {@code InputAdapter} and query-stage wrappers skipped, re-used exchanges and
 * subqueries drawn as an edge to the node they re-use. This follows Spark 4.0, which also skips
 * {@code ResultQueryStage} (a node that only 4.0 writes).
 *
 * <p>Only the graph is kept, not the event's JSON: names, metric names and accumulator ids.
 */
final class SqlPlanGraph {
  static final SqlPlanGraph EMPTY = new SqlPlanGraph(List.of(), new long[0]);
  private static final String WHOLE_STAGE_CODEGEN = "WholeStageCodegen";

  /** A metric of a plan node: Spark's {@code SQLPlanMetric}. */
  record Metric(String name, long accumulatorId, String metricType) {}

  /** A node, or a cluster ({@code WholeStageCodegen}) with the nodes compiled into it. */
  static final class Node {
    final long id;
    final String name;
    final List<Metric> metrics;
    final List<Node> clusterNodes;

    Node(long id, String name, List<Metric> metrics, boolean cluster) {
      this.id = id;
      this.name = name;
      this.metrics = metrics;
      this.clusterNodes = cluster ? new ArrayList<>() : null;
    }

    boolean isCluster() {
      return clusterNodes != null;
    }
  }

  /** Top-level nodes and clusters, in creation order. */
  final List<Node> nodes;
  /** Edges as (from, to) pairs: from a child to its parent. */
  final long[] edges;

  private SqlPlanGraph(List<Node> nodes, long[] edges) {
    this.nodes = nodes;
    this.edges = edges;
  }

  /** Every node, cluster members before their cluster (Spark's {@code allNodes}). */
  List<Node> allNodes() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (n.isCluster()) {
        out.addAll(n.clusterNodes);
      }
      out.add(n);
    }
    return out;
  }

  /**
   * The nodes as the History Server answers them: highest id first, names trimmed, each metric
   * that has a value (leading newline dropped), and the id of the cluster a node is compiled into.
   */
  List<SqlNode> toApiNodes(Map<Long, String> metricValues) {
    List<Node> all = allNodes();
    Map<Long, Optional<Long>> codegenIds = new HashMap<>();
    for (Node n : all) {
      if (n.isCluster() && n.name.trim().startsWith(WHOLE_STAGE_CODEGEN)) {
        Optional<Long> id = codegenId(n.name.trim());
        for (Node member : n.clusterNodes) {
          codegenIds.put(member.id, id);
        }
      }
    }
    List<SqlNode> out = new ArrayList<>(all.size());
    for (Node n : all) {
      List<SqlMetric> metrics = new ArrayList<>();
      for (Metric m : n.metrics) {
        String value = metricValues.get(m.accumulatorId());
        if (value != null) {
          metrics.add(new SqlMetric(m.name().trim(), value.startsWith("\n") ? value.substring(1) : value));
        }
      }
      out.add(new SqlNode(n.id, n.name.trim(), codegenIds.getOrDefault(n.id, Optional.empty()), metrics));
    }
    // Spark sorts ascending (stable) and reverses; ids are unique, so this is a descending sort.
    out.sort(Comparator.comparingLong(SqlNode::nodeId).reversed());
    return out;
  }

  List<SqlEdge> toApiEdges() {
    List<SqlEdge> out = new ArrayList<>(edges.length / 2);
    for (int i = 0; i < edges.length; i += 2) {
      out.add(new SqlEdge(edges[i], edges[i + 1]));
    }
    return out;
  }

  /** {@code "WholeStageCodegen (3)"} gives 3; a name without a number (Spark 2.x) gives none. */
  static Optional<Long> codegenId(String trimmedName) {
    int start = (WHOLE_STAGE_CODEGEN + " (").length();
    if (trimmedName.length() - 1 < start) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(trimmedName.substring(start, trimmedName.length() - 1)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** All the metrics of the graph's nodes, clusters included, in node order. */
  List<Metric> allMetrics() {
    List<Metric> out = new ArrayList<>();
    for (Node n : allNodes()) {
      out.addAll(n.metrics);
    }
    return out;
  }

  /**
   * Builds the graph of a {@code sparkPlanInfo} tree. Problems (a missing or malformed plan, a
   * wrapper node without a child) are added to {@code problems}; what can be built is built.
   */
  static SqlPlanGraph build(JsonNode planInfo, List<String> problems) {
    if (!Json.present(planInfo)) {
      problems.add("the event has no sparkPlanInfo");
      return EMPTY;
    }
    if (!planInfo.isObject()) {
      problems.add("its sparkPlanInfo is not an object");
      return EMPTY;
    }
    PlanInfo root = PlanInfo.parse(planInfo, problems, new HashMap<>());
    Builder b = new Builder(problems);
    b.build(root, null, null);
    long[] edges = new long[b.edges.size()];
    for (int i = 0; i < edges.length; i++) {
      edges[i] = b.edges.get(i);
    }
    return new SqlPlanGraph(b.nodes, edges);
  }

  /**
   * Spark's {@code SparkPlanInfo}: equal when name, simple string and children are equal (metrics
   * and metadata do not count), hashed by the simple string. Re-used exchanges are found by this
   * equality.
   */
  static final class PlanInfo {
    final String nodeName;
    final String simpleString;
    final List<PlanInfo> children;
    final List<Metric> metrics;

    PlanInfo(String nodeName, String simpleString, List<PlanInfo> children, List<Metric> metrics) {
      this.nodeName = nodeName;
      this.simpleString = simpleString;
      this.children = children;
      this.metrics = metrics;
    }

    static PlanInfo parse(JsonNode n, List<String> problems, Map<String, String> strings) {
      if (n == null || !n.isObject()) {
        problems.add("a plan node is not an object");
        return new PlanInfo("", "", List.of(), List.of());
      }
      String name = text(n, "nodeName", problems, strings);
      String simple = text(n, "simpleString", problems, strings);
      List<PlanInfo> children = new ArrayList<>();
      JsonNode c = n.get("children");
      if (Json.present(c)) {
        if (c.isArray()) {
          for (JsonNode child : c) {
            children.add(parse(child, problems, strings));
          }
        } else {
          problems.add("the children of plan node '" + name + "' are not a list");
        }
      }
      List<Metric> metrics = new ArrayList<>();
      JsonNode ms = n.get("metrics");
      if (Json.present(ms) && ms.isArray()) {
        for (JsonNode m : ms) {
          JsonNode id = m == null ? null : m.get("accumulatorId");
          if (id == null || !id.isIntegralNumber()) {
            problems.add("a metric of plan node '" + name + "' has no accumulatorId");
            continue;
          }
          metrics.add(
              new Metric(
                  intern(Json.optText(m, "name").orElse(""), strings),
                  id.longValue(),
                  intern(Json.optText(m, "metricType").orElse(SqlMetricFormat.SUM), strings)));
        }
      }
      return new PlanInfo(name, simple, children, metrics);
    }

    private static String text(JsonNode n, String field, List<String> problems, Map<String, String> strings) {
      JsonNode v = n.get(field);
      if (!Json.present(v)) {
        problems.add("a plan node has no " + field);
        return "";
      }
      return intern(v.asText(), strings);
    }

    private static String intern(String s, Map<String, String> strings) {
      String old = strings.putIfAbsent(s, s);
      return old == null ? s : old;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof PlanInfo p)) {
        return false;
      }
      return nodeName.equals(p.nodeName) && simpleString.equals(p.simpleString)
          && children.equals(p.children);
    }

    @Override
    public int hashCode() {
      return simpleString.hashCode();
    }
  }

  /** Spark's {@code SparkPlanGraph.buildSparkPlanGraphNode}. */
  private static final class Builder {
    final List<String> problems;
    final List<Node> nodes = new ArrayList<>();
    final List<Long> edges = new ArrayList<>();
    final Map<PlanInfo, Node> exchanges = new HashMap<>();
    long nextId;

    Builder(List<String> problems) {
      this.problems = problems;
    }

    void edge(Node from, Node to) {
      if (to != null) {
        edges.add(from.id);
        edges.add(to.id);
      }
    }

    PlanInfo head(PlanInfo p) {
      if (p.children.isEmpty()) {
        problems.add("plan node '" + p.nodeName + "' has no child");
        return null;
      }
      return p.children.get(0);
    }

    void build(PlanInfo p, Node parent, Node subgraph) {
      String name = p.nodeName;
      if (name.startsWith(WHOLE_STAGE_CODEGEN)) {
        Node cluster = new Node(nextId++, name, p.metrics, true);
        nodes.add(cluster);
        PlanInfo child = head(p);
        if (child != null) {
          build(child, parent, cluster);
        }
        return;
      }
      switch (name) {
        case "InputAdapter":
        case "TableCacheQueryStage":
        case "ResultQueryStage":
          {
            PlanInfo child = head(p);
            if (child != null) {
              build(child, parent, null);
            }
            return;
          }
        case "BroadcastQueryStage":
        case "ShuffleQueryStage":
          {
            PlanInfo child = head(p);
            if (child == null) {
              return;
            }
            Node reused = exchanges.get(child);
            if (reused != null) {
              edge(reused, parent);
            } else {
              build(child, parent, null);
            }
            return;
          }
        case "ReusedSubquery":
          {
            PlanInfo child = head(p);
            if (child != null) {
              build(child, parent, subgraph);
            }
            return;
          }
        case "Subquery":
          if (subgraph != null) {
            // A subquery is never drawn inside a WholeStageCodegen cluster.
            build(p, parent, null);
            return;
          }
          Node reusedSubquery = exchanges.get(p);
          if (reusedSubquery != null) {
            edge(reusedSubquery, parent);
            return;
          }
          break;
        case "ReusedExchange":
          if (!p.children.isEmpty()) {
            Node reused = exchanges.get(p.children.get(0));
            if (reused != null) {
              edge(reused, parent);
              return;
            }
          }
          break;
        default:
          break;
      }
      Node node = new Node(nextId++, name, p.metrics, false);
      if (subgraph == null) {
        nodes.add(node);
      } else {
        subgraph.clusterNodes.add(node);
      }
      if (name.contains("Exchange") || name.equals("Subquery")) {
        exchanges.put(p, node);
      }
      edge(node, parent);
      for (PlanInfo child : p.children) {
        build(child, node, subgraph);
      }
    }
  }
}

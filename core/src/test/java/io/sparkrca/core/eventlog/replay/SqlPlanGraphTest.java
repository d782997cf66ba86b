package io.sparkrca.core.eventlog.replay;

import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.metrics;
import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.plan;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.model.SqlEdge;
import io.sparkrca.core.model.SqlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Spark's {@code SparkPlanGraph} rules, one at a time. */
class SqlPlanGraphTest {
  private static ObjectNode leaf(String name, String simple) {
    return plan(name, simple, metrics());
  }

  private static List<String> names(SqlPlanGraph g) {
    List<String> out = new ArrayList<>();
    for (SqlPlanGraph.Node n : g.allNodes()) {
      out.add(n.id + ":" + n.name);
    }
    return out;
  }

  private static List<String> edges(SqlPlanGraph g) {
    List<String> out = new ArrayList<>();
    for (SqlEdge e : g.toApiEdges()) {
      out.add(e.fromId() + "->" + e.toId());
    }
    return out;
  }

  private static SqlPlanGraph build(JsonNode plan) {
    List<String> problems = new ArrayList<>();
    SqlPlanGraph g = SqlPlanGraph.build(plan, problems);
    assertThat(problems).isEmpty();
    return g;
  }

  @Test
  void codegenClustersHoldTheirOperatorsAndInputAdaptersVanish() {
    SqlPlanGraph g = build(
        plan("WholeStageCodegen (2)", "WholeStageCodegen (2)", metrics("duration", 1, "timing"),
            plan("HashAggregate", "HashAggregate(keys=[])", metrics("rows", 2, "sum"),
                plan("InputAdapter", "InputAdapter", metrics(),
                    plan("Exchange", "Exchange SinglePartition", metrics(),
                        plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics(),
                            leaf("Range", "Range (0, 10)")))))));
    // Members are listed before their cluster.
    assertThat(names(g)).containsExactly("1:HashAggregate", "0:WholeStageCodegen (2)", "2:Exchange",
        "4:Range", "3:WholeStageCodegen (1)");
    // The parent of a cluster's top operator is the cluster's parent (none here).
    assertThat(edges(g)).containsExactly("2->1", "4->2");
    List<SqlNode> api = g.toApiNodes(Map.of(1L, "\n5 ms", 2L, "7"));
    assertThat(api).extracting(SqlNode::nodeId).containsExactly(4L, 3L, 2L, 1L, 0L);
    assertThat(api.get(0).wholeStageCodegenId()).contains(1L);
    assertThat(api.get(1).wholeStageCodegenId()).isEmpty();
    assertThat(api.get(3).wholeStageCodegenId()).contains(2L);
    assertThat(api.get(3).metrics()).singleElement().satisfies(m -> assertThat(m.value()).isEqualTo("7"));
    // A leading newline is dropped.
    assertThat(api.get(4).metrics()).singleElement().satisfies(m -> assertThat(m.value()).isEqualTo("5 ms"));
  }

  @Test
  void aReusedExchangePointsAtTheExchangeItReuses() {
    ObjectNode exchange = plan("Exchange", "Exchange hashpartitioning(k)", metrics("size", 5, "size"), leaf("Range", "Range r"));
    SqlPlanGraph g = build(
        plan("SortMergeJoin", "SortMergeJoin [k]", metrics(), exchange,
            plan("ReusedExchange", "ReusedExchange [k]", metrics(), exchange.deepCopy())));
    assertThat(names(g)).containsExactly("0:SortMergeJoin", "1:Exchange", "2:Range");
    assertThat(edges(g)).containsExactly("1->0", "2->1", "1->0");
  }

  @Test
  void aReusedExchangeWithoutItsOriginalIsANode() {
    SqlPlanGraph g = build(plan("Join", "Join", metrics(),
        plan("ReusedExchange", "ReusedExchange [k]", metrics(), leaf("Exchange", "Exchange other"))));
    assertThat(names(g)).containsExactly("0:Join", "1:ReusedExchange", "2:Exchange");
  }

  @Test
  void queryStagesAreSkippedAndReuseTheirExchange() {
    ObjectNode exchange = plan("Exchange", "Exchange e", metrics(), leaf("Range", "Range r"));
    SqlPlanGraph g = build(
        plan("ResultQueryStage", "ResultQueryStage 3", metrics(),
            plan("Union", "Union", metrics(),
                plan("ShuffleQueryStage", "ShuffleQueryStage 0", metrics(), exchange),
                plan("BroadcastQueryStage", "BroadcastQueryStage 1", metrics(), exchange.deepCopy()),
                plan("TableCacheQueryStage", "TableCacheQueryStage 2", metrics(),
                    leaf("InMemoryTableScan", "InMemoryTableScan [a]")))));
    // ResultQueryStage is skipped as Spark 4.0 does (3.5 would draw it as node 0).
    assertThat(names(g)).containsExactly("0:Union", "1:Exchange", "2:Range", "3:InMemoryTableScan");
    assertThat(edges(g)).containsExactly("1->0", "2->1", "1->0", "3->0");
  }

  @Test
  void subqueriesLeaveCodegenClustersAndAreReused() {
    ObjectNode subquery = plan("Subquery", "Subquery subquery#1", metrics("data size", 9, "size"), leaf("Range", "Range s"));
    SqlPlanGraph g = build(
        plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics(),
            plan("Filter", "Filter (v > scalar-subquery#1)", metrics(), subquery,
                plan("ReusedSubquery", "ReusedSubquery subquery#1", metrics(), subquery.deepCopy()))));
    assertThat(names(g)).containsExactly("1:Filter", "0:WholeStageCodegen (1)", "2:Subquery", "3:Range");
    assertThat(edges(g)).containsExactly("2->1", "3->2", "2->1");
  }

  @Test
  void codegenIds() {
    assertThat(SqlPlanGraph.codegenId("WholeStageCodegen (12)")).contains(12L);
    assertThat(SqlPlanGraph.codegenId("WholeStageCodegen")).isEmpty();
    assertThat(SqlPlanGraph.codegenId("WholeStageCodegen (x)")).isEmpty();
    assertThat(SqlPlanGraph.codegenId("WholeStageCodegen ()")).isEmpty();
  }

  @Test
  void equalityIgnoresMetricsButNotChildren() {
    List<String> p = new ArrayList<>();
    SqlPlanGraph.PlanInfo a = SqlPlanGraph.PlanInfo.parse(
        plan("Exchange", "Exchange e", metrics("x", 1, "sum"), leaf("Range", "Range r")), p, new java.util.HashMap<>());
    SqlPlanGraph.PlanInfo b = SqlPlanGraph.PlanInfo.parse(
        plan("Exchange", "Exchange e", metrics("y", 2, "size"), leaf("Range", "Range r")), p, new java.util.HashMap<>());
    SqlPlanGraph.PlanInfo c = SqlPlanGraph.PlanInfo.parse(
        plan("Exchange", "Exchange e", metrics(), leaf("Range", "Range other")), p, new java.util.HashMap<>());
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(c);
  }

  @Test
  void malformedPlansGiveWhatCanBeReadAndSaySo() {
    List<String> problems = new ArrayList<>();
    assertThat(SqlPlanGraph.build(null, problems).nodes).isEmpty();
    assertThat(problems).containsExactly("the event has no sparkPlanInfo");

    problems.clear();
    assertThat(SqlPlanGraph.build(com.fasterxml.jackson.databind.node.TextNode.valueOf("x"), problems).nodes).isEmpty();
    assertThat(problems).containsExactly("its sparkPlanInfo is not an object");

    problems.clear();
    ObjectNode bad = plan("Project", "Project", metrics(), plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics()));
    ((com.fasterxml.jackson.databind.node.ArrayNode) bad.get("metrics")).addObject().put("name", "no id");
    bad.withArray("children").addObject().put("simpleString", "nameless");
    bad.withArray("children").add(7);
    SqlPlanGraph g = SqlPlanGraph.build(bad, problems);
    assertThat(names(g)).containsExactly("0:Project", "1:WholeStageCodegen (1)", "2:", "3:");
    assertThat(problems).containsExactly(
        "a plan node has no nodeName", "a plan node is not an object",
        "a metric of plan node 'Project' has no accumulatorId", "plan node 'WholeStageCodegen (1)' has no child");
    assertThat(g.toApiNodes(Map.of())).extracting(SqlNode::wholeStageCodegenId)
        .containsOnly(Optional.empty());
  }
}

package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.SqlEdge;
import io.sparkrca.core.model.SqlMetric;
import io.sparkrca.core.model.SqlNode;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what analysis needs from a SQL execution: its joins (type, keys, from the formatted
 * physical plan) and the data that reached each side (from the plan graph's exchange metrics),
 * and SQL metric values as the UI formats them ({@code 45.8 MiB}, {@code 2,000,000}, {@code total
 * (min, med, max (stageId: taskId))\n45.8 MiB (...)}). Public only for {@link io.sparkrca.analysis.rca.SortMergeJoin}.
 */
public final class Plans {
  private static final Pattern FORMATTED_JOIN = Pattern.compile(
      "\\(\\d+\\) (SortMergeJoin|ShuffledHashJoin|BroadcastHashJoin)[^\\n]*\\n(?:[^\\n]*\\n)*?Left keys \\[\\d+\\]: \\[([^\\]]*)\\]\\n"
          + "Right keys \\[\\d+\\]: \\[([^\\]]*)\\]\\nJoin type: (\\w+)");
  private static final Pattern INLINE_JOIN = Pattern.compile(
      "(SortMergeJoin|ShuffledHashJoin|BroadcastHashJoin) \\[([^\\]]*)\\], \\[([^\\]]*)\\], (\\w+)");
  private static final Pattern FORMATTED_AGG_KEYS = Pattern.compile("\\(\\d+\\) HashAggregate[^\\n]*\\n(?:Input[^\\n]*\\n)?Keys \\[\\d+\\]: \\[([^\\]]+)\\]");
  private static final Pattern SIZE = Pattern.compile("([\\d.,]+) (B|KiB|MiB|GiB|TiB)\\b");

  private Plans() {}

  /** A join of the plan. */
  public record Join(String type, String leftKeys, String rightKeys, String joinType) {
    /** As the label and the inline plan print it: {@code SortMergeJoin [k#1L], [k#2L], Inner}. */
    public String display() {
      return type + " [" + leftKeys + "], [" + rightKeys + "], " + joinType;
    }
  }

  /** The joins of the physical plan, formatted or inline, in plan order. */
  public static List<Join> joins(String plan) {
    List<Join> out = new ArrayList<>();
    if (!plan.contains("Join")) {
      return out; // most plans: the expressions below would try every position of a long text
    }
    Matcher f = FORMATTED_JOIN.matcher(plan);
    while (f.find()) {
      out.add(new Join(f.group(1), f.group(2), f.group(3), f.group(4)));
    }
    if (out.isEmpty()) {
      Matcher i = INLINE_JOIN.matcher(plan);
      while (i.find()) {
        out.add(new Join(i.group(1), i.group(2), i.group(3), i.group(4)));
      }
    }
    return out;
  }

  /** The grouping keys of the plan's first aggregation that has any. */
  static Optional<String> aggregateKeys(String plan) {
    if (!plan.contains("HashAggregate")) {
      return Optional.empty();
    }
    Matcher m = FORMATTED_AGG_KEYS.matcher(plan);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** For each sort-merge join node of the graph, the data size that reached each side. */
  public static List<long[]> sortMergeJoinSides(ExecutionData x) {
    List<long[]> out = new ArrayList<>();
    for (SqlNode n : x.nodes()) {
      if (!n.nodeName().equals("SortMergeJoin")) {
        continue;
      }
      List<Long> sides = new ArrayList<>();
      for (SqlEdge e : x.edges()) {
        if (e.toId() == n.nodeId()) {
          exchangeBytes(x, e.fromId(), 0).ifPresent(sides::add);
        }
      }
      if (sides.size() == 2) {
        out.add(new long[] {sides.get(0), sides.get(1)});
      }
    }
    return out;
  }

  /** The data size of the first exchange at or below node {@code id}. */
  private static OptionalLong exchangeBytes(ExecutionData x, long id, int depth) {
    if (depth > 20) {
      return OptionalLong.empty();
    }
    Optional<SqlNode> node = x.nodes().stream().filter(n -> n.nodeId() == id).findFirst();
    if (node.isEmpty()) {
      return OptionalLong.empty();
    }
    if (node.get().nodeName().equals("Exchange")) {
      return metric(node.get(), "data size").map(Plans::bytes).orElse(OptionalLong.empty());
    }
    for (SqlEdge e : x.edges()) {
      if (e.toId() == id) {
        OptionalLong b = exchangeBytes(x, e.fromId(), depth + 1);
        if (b.isPresent()) {
          return b;
        }
      }
    }
    return OptionalLong.empty();
  }

  static Optional<String> metric(SqlNode n, String name) {
    return n.metrics().stream().filter(m -> m.name().equals(name)).map(SqlMetric::value).findFirst();
  }

  /** A size as the UI formats it; with a {@code total (min, med, max ...)} header, the total. */
  static OptionalLong bytes(String value) {
    String v = value.contains("\n") ? value.substring(value.indexOf('\n') + 1) : value;
    Matcher m = SIZE.matcher(v);
    if (!m.find()) {
      return OptionalLong.empty();
    }
    String unit = switch (m.group(2)) {
      case "KiB" -> "k";
      case "MiB" -> "m";
      case "GiB" -> "g";
      case "TiB" -> "t";
      default -> "";
    };
    return EffectiveConf.parseBytes(m.group(1).replace(",", "") + unit);
  }
}

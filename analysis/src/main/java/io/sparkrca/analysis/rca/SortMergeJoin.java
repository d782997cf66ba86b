package io.sparkrca.analysis.rca;

import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.analysis.rca.internal.Plans;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sort-merge join of one SQL execution with the data that reached each of its sides, observed
 * in the plan graph's exchange metrics ({@code data size}): what the join-strategy analysis reads
 * to tell a join whose small side should have been broadcast.
 *
 * <pre>{@code
 * for (ExecutionData x : app.sqlExecutions()) {
 *   for (SortMergeJoin j : SortMergeJoin.of(x)) {
 *     System.out.println(j.operator() + ": smaller side " + j.smallerSideBytes() + " bytes");
 *   }
 * }
 * }</pre>
 *
 * @param executionId the SQL execution
 * @param operator the join as the plan prints it, e.g. {@code SortMergeJoin [k#1L], [k#2L], Inner},
 *     or {@code SortMergeJoin} when the plan text does not show its keys
 * @param smallerSideBytes the data size that reached the smaller side's exchange
 * @param largerSideBytes the data size that reached the larger side's exchange
 */
public record SortMergeJoin(long executionId, String operator, long smallerSideBytes, long largerSideBytes) {
  public SortMergeJoin {
    Objects.requireNonNull(operator, "operator");
  }

  /**
   * The sort-merge joins of {@code execution} whose two sides' sizes the plan graph shows, in plan
   * order; empty for an execution without one (or whose exchanges reported no size).
   */
  public static List<SortMergeJoin> of(ExecutionData execution) {
    Objects.requireNonNull(execution, "execution");
    List<Plans.Join> named = Plans.joins(execution.planDescription()).stream()
        .filter(j -> j.type().equals("SortMergeJoin")).toList();
    List<long[]> sides = Plans.sortMergeJoinSides(execution);
    List<SortMergeJoin> out = new ArrayList<>();
    for (int i = 0; i < sides.size(); i++) {
      long[] s = sides.get(i);
      // The graph and the plan text list the joins in the same order (the text may repeat the final plan's).
      String operator = named.isEmpty() ? "SortMergeJoin" : named.get(Math.min(i, named.size() - 1)).display();
      out.add(new SortMergeJoin(execution.id(), operator, Math.min(s[0], s[1]), Math.max(s[0], s[1])));
    }
    return out;
  }
}

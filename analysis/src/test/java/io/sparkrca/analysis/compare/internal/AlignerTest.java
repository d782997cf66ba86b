package io.sparkrca.analysis.compare.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.analysis.compare.Comparison;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stages matched by what they are, never by id, in the candidate's order, for any number of stages. */
class AlignerTest {
  private static Comparison.StageStats stage(int id, String callSite, String query, String role, int lineage) {
    return new Comparison.StageStats(id, 0, callSite, query, role, lineage, 8, 1000, 8000, 100, 1000, 0, 0, 0, 0, 0,
        1000, 1000, 0, 0);
  }

  @Test
  void stagesMatchByCallSiteQueryRoleAndLineageWhateverTheirIds() {
    List<Comparison.StageStats> baseline = List.of(stage(0, "load at Job.scala:10", "q1", "input+shuffle-write", 4),
        stage(1, "save at Job.scala:20", "q1", "shuffle-read", 3));
    // One more job before them shifts every id; the new one matches nothing.
    List<Comparison.StageStats> candidate = List.of(stage(0, "count at Job.scala:5", "q0", "input", 2),
        stage(1, "load at Job.scala:10", "q1", "input+shuffle-write", 4), stage(2, "save at Job.scala:20", "q1",
            "shuffle-read", 3));
    Aligner.Alignment a = Aligner.align(baseline, candidate);
    assertThat(a.matches()).extracting(m -> m.baseline().stageId() + "->" + m.candidate().stageId())
        .containsExactly("0->1", "1->2");
    assertThat(a.matches()).allSatisfy(m -> assertThat(m.how()).isEqualTo("call site and lineage"));
    assertThat(a.unmatchedCandidate()).extracting(Comparison.StageStats::stageId).containsExactly(0);
    assertThat(a.unmatchedBaseline()).isEmpty();
  }

  @Test
  void aQueryWhoseMapStagesAreNamedAfterAnotherThreadStillMatchesByQueryAndLineage() {
    List<Comparison.StageStats> baseline = List.of(stage(3, "run at ThreadPoolExecutor.java:1136", "q7", "input", 5));
    List<Comparison.StageStats> candidate = List.of(stage(9, "$anonfun$withThreadLocalCaptured$1 at FutureTask.java:264",
        "q7", "input", 5));
    Aligner.Alignment a = Aligner.align(baseline, candidate);
    assertThat(a.matches()).singleElement().satisfies(m -> assertThat(m.how()).isEqualTo("query and lineage"));
  }

  @Test
  void tenThousandStagesOfOneCallSiteMatchInSubmissionOrderAndEqualStatsStayDistinct() {
    List<Comparison.StageStats> baseline = new ArrayList<>();
    List<Comparison.StageStats> candidate = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      // Equal records in both runs (same id, same numbers): matched by identity, each exactly once.
      baseline.add(stage(i, "map at Job.scala:1", "loop", "input", 2));
      candidate.add(stage(i, "map at Job.scala:1", "loop", "input", 2));
    }
    candidate.add(stage(10_000, "map at Job.scala:1", "loop", "input", 2));
    Aligner.Alignment a = Aligner.align(baseline, candidate);
    assertThat(a.matches()).hasSize(10_000);
    for (int i = 0; i < 10_000; i++) {
      assertThat(a.matches().get(i).baseline()).isSameAs(baseline.get(i));
      assertThat(a.matches().get(i).candidate()).isSameAs(candidate.get(i));
    }
    assertThat(a.unmatchedCandidate()).singleElement().isSameAs(candidate.get(10_000));
    assertThat(a.unmatchedBaseline()).isEmpty();
  }
}

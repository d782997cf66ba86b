package io.sparkrca.analysis.compare.internal;

import io.sparkrca.analysis.compare.Comparison;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Matches the stages of two runs of one job by what they are, never by id (ids shift when a run
 * has one more job, when AQE splits a query into jobs, or when a stage is re-tried). Passes, each
 * over the stages the previous ones left, pairing stages in submission order within equal keys:
 * <ol>
 *   <li>the SQL execution (or job) they ran for, their call site, their shuffle role (reads
 *       input, reads or writes shuffle data) and their RDD lineage's length;
 *   <li>the SQL execution, role and lineage length (AQE names a query's map stages after the
 *       thread that submitted them, not after the action);
 *   <li>the call site, role and lineage length, across executions;
 *   <li>the SQL execution and role.
 * </ol>
 * What is left has no counterpart and is reported as such.
 */
final class Aligner {
  private Aligner() {}

  record Match(Comparison.StageStats baseline, Comparison.StageStats candidate, String how) {}

  record Alignment(List<Match> matches, List<Comparison.StageStats> unmatchedCandidate,
      List<Comparison.StageStats> unmatchedBaseline) {}

  static Alignment align(List<Comparison.StageStats> baseline, List<Comparison.StageStats> candidate) {
    List<Comparison.StageStats> b = new ArrayList<>(baseline);
    List<Comparison.StageStats> c = new ArrayList<>(candidate);
    List<Match> matches = new ArrayList<>();
    pass(b, c, matches, "call site and lineage", s -> s.group() + "\u0000" + s.name() + "\u0000" + s.role() + "\u0000"
        + lineage(s));
    pass(b, c, matches, "query and lineage", s -> s.group() + "\u0000" + s.role() + "\u0000" + lineage(s));
    pass(b, c, matches, "call site and lineage, in another query", s -> s.name() + "\u0000" + s.role() + "\u0000"
        + lineage(s));
    pass(b, c, matches, "query and shuffle role", s -> s.group() + "\u0000" + s.role());
    // The candidate's order, so that "first divergent" means first in the candidate's run.
    Map<Comparison.StageStats, Match> byCandidate = new IdentityHashMap<>();
    matches.forEach(m -> byCandidate.put(m.candidate(), m));
    List<Match> ordered = new ArrayList<>();
    for (Comparison.StageStats s : candidate) {
      Match m = byCandidate.get(s);
      if (m != null) {
        ordered.add(m);
      }
    }
    return new Alignment(ordered, c, b);
  }

  /** RDD ids are not comparable across runs, but how many RDDs a stage's lineage holds is. */
  private static String lineage(Comparison.StageStats s) {
    return Integer.toString(s.lineage());
  }

  private static void pass(List<Comparison.StageStats> b, List<Comparison.StageStats> c, List<Match> out, String how,
      Function<Comparison.StageStats, String> key) {
    Map<String, ArrayDeque<Comparison.StageStats>> byKey = new LinkedHashMap<>();
    for (Comparison.StageStats s : b) {
      byKey.computeIfAbsent(key.apply(s), k -> new ArrayDeque<>()).add(s);
    }
    // Identity sets, removed from the lists once: an application of 10,000 stages stays linear.
    Set<Comparison.StageStats> matchedB = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<Comparison.StageStats> matchedC = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Comparison.StageStats s : c) {
      ArrayDeque<Comparison.StageStats> same = byKey.get(key.apply(s));
      if (same != null && !same.isEmpty()) {
        Comparison.StageStats match = same.removeFirst();
        out.add(new Match(match, s, how));
        matchedB.add(match);
        matchedC.add(s);
      }
    }
    b.removeIf(matchedB::contains);
    c.removeIf(matchedC::contains);
  }
}

package io.sparkrca.inspector;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the first findings of each pattern, and the first in all, and counts the rest: a generated
 * script with ten thousand {@code .collect()} calls gives a report someone can read (and a
 * bounded one), saying how many more there were, rather than megabytes of the same finding.
 */
final class FindingCap {
  /** Findings kept of one pattern: past a few dozen, more of the same add nothing to act on. */
  static final int PER_PATTERN = 50;
  /** Findings kept in all. */
  static final int TOTAL = 200;

  private final List<Finding> kept = new ArrayList<>();
  private final Map<AntiPattern, Integer> perPattern = new EnumMap<>(AntiPattern.class);
  private int omitted;

  /** Whether a finding of {@code p} would be kept; when not, the caller may skip building it. */
  boolean hasRoom(AntiPattern p) {
    return kept.size() < TOTAL && perPattern.getOrDefault(p, 0) < PER_PATTERN;
  }

  /** Keeps {@code f}, or counts it as omitted when its pattern or the total is full. */
  void add(Finding f) {
    if (hasRoom(f.pattern())) {
      kept.add(f);
      perPattern.merge(f.pattern(), 1, Integer::sum);
    } else {
      omitted++;
    }
  }

  void addAll(List<Finding> findings) {
    findings.forEach(this::add);
  }

  /** Counts {@code n} findings left out before they reached this cap (by another cap). */
  void omit(int n) {
    omitted += n;
  }

  List<Finding> findings() {
    return kept;
  }

  int omitted() {
    return omitted;
  }

  /** What the text and JSON renderings say about the cut, when there was one. */
  static String describe(int shown, int omitted) {
    return Texts.count(shown + omitted) + " found, the first " + Texts.count(shown) + " shown (at "
        + "most " + PER_PATTERN + " of each pattern and " + TOTAL + " in all); "
        + Texts.plural(omitted, "more finding") + " not shown: fix those shown and inspect "
        + "again, or inspect one file or class at a time";
  }
}

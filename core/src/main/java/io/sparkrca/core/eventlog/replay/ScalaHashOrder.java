package io.sparkrca.core.eventlog.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The iteration order of a Scala 2.13 immutable {@code Map[Int, _]} or {@code Set[Int]} built by
 * adding keys (never removing), which is the order in which the History Server lists a SQL
 * execution's job ids and visits its stages.
 *
 * <p>Up to four keys, Scala keeps them in insertion order ({@code Map1}..{@code Map4}). From five
 * on, the collection is a CHAMP trie ({@code HashMap}/{@code HashSet}) keyed by the improved hash
 * of the key; its iterator visits a node's own entries by 5-bit hash fragment, then its sub-nodes
 * by fragment, depth first. Checked against scala-library 2.13.16 (Spark 4.0) on random key sets;
 * 2.13.8 (Spark 3.5) has the same implementation.
 */
final class ScalaHashOrder {
  private ScalaHashOrder() {}

  /** The keys, given distinct and in insertion order, in the order Scala iterates them. */
  static List<Integer> order(Collection<Integer> insertionOrder) {
    List<Integer> keys = new ArrayList<>(insertionOrder);
    if (keys.size() <= 4) {
      return keys;
    }
    List<Integer> out = new ArrayList<>(keys.size());
    visit(keys, 0, out);
    return out;
  }

  /** {@code scala.collection.Hashing.improve} of an {@code Int}'s hash (the int itself). */
  static int improve(int hcode) {
    int h = hcode + ~(hcode << 9);
    h ^= h >>> 14;
    h += h << 4;
    return h ^ (h >>> 10);
  }

  private static void visit(List<Integer> keys, int shift, List<Integer> out) {
    // Group the keys by their hash fragment at this level, fragments ascending.
    @SuppressWarnings("unchecked")
    List<Integer>[] byFragment = new List[32];
    for (int k : keys) {
      int f = (improve(k) >>> shift) & 31;
      if (byFragment[f] == null) {
        byFragment[f] = new ArrayList<>(2);
      }
      byFragment[f].add(k);
    }
    for (List<Integer> g : byFragment) {
      if (g != null && g.size() == 1) {
        out.add(g.get(0));
      }
    }
    for (List<Integer> g : byFragment) {
      if (g != null && g.size() > 1) {
        // improve() is a bijection on ints, so distinct keys part before the hash runs out.
        visit(g, shift + 5, out);
      }
    }
  }
}

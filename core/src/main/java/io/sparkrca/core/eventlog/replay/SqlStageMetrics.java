package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The SQL metric values of one attempt of one stage of a running SQL execution: Spark's {@code
 * LiveStageMetrics}, with the same semantics (one value per task index, the latest report of an
 * index wins until a successful attempt of that index completes it; the task holding the largest
 * value is remembered for every type but {@code sum}) in less memory:
 *
 * <ul>
 *   <li>a {@code sum} metric keeps its running sum, plus the value of each index that reported
 *       without completing (failed or killed attempts, heartbeats), so that a later report of the
 *       index replaces it: nothing per completed task;
 *   <li>other metrics need every value for their min, median and max: one value per task index, in
 *       1, 2, 4 or 8 bytes as the values require (Spark keeps 8);
 *   <li>task ids are mapped to indices (for heartbeat updates, which carry no index) while the
 *       tasks run, in an open-addressing table sized by the stage's peak concurrency. Spark keeps
 *       ended tasks too, which only matters for a heartbeat that arrives after its task's end event
 *       (Spark's event logger writes no heartbeats at all).
 * </ul>
 *
 * Everything here is dropped when the execution ends, leaving only the formatted values.
 */
final class SqlStageMetrics {
  final int stageId;
  final int attemptId;
  final int numTasks;
  /** Accumulator id to metric type, shared with the execution (Spark 4.0's semantics). */
  final Map<Long, String> types;

  private final LongIntMap taskIndices = new LongIntMap();
  private final BitSet completed = new BitSet();
  private final Map<Long, Slot> slots = new HashMap<>();
  private long call;
  private long[] cacheIds = new long[0];
  private Slot[] cacheSlots = new Slot[0];
  private int cachedTypes = -1;
  /** Whether any sum metric holds the value of an index that has not completed. */
  private boolean anyPending;

  SqlStageMetrics(int stageId, int attemptId, int numTasks, Map<Long, String> types) {
    this.stageId = stageId;
    this.attemptId = attemptId;
    this.numTasks = numTasks;
    this.types = types;
  }

  void registerTask(long taskId, int index) {
    taskIndices.put(taskId, index);
  }

  void taskEnded(long taskId) {
    taskIndices.remove(taskId);
  }

  /**
   * Applies one task's updates: {@code count} (accumulator id, value) pairs.
   *
   * @param eventIndex the task's index, or -1 for a heartbeat (the index is then looked up)
   * @param finished whether the task attempt succeeded, completing its index
   */
  void update(long taskId, int eventIndex, boolean finished, long[] ids, long[] values, int count) {
    int index;
    if (eventIndex < 0) {
      index = taskIndices.get(taskId);
      if (index < 0) {
        return; // the task start was never seen
      }
    } else {
      index = eventIndex;
    }
    if (completed.get(index)) {
      return;
    }
    if (index >= numTasks) {
      // Spark's array store fails here and the update is lost (a job start without stage infos).
      return;
    }
    call++;
    boolean touchedSum = false;
    if (cachedTypes != types.size()) {
      // A metric was registered: what an id resolves to may have changed.
      cachedTypes = types.size();
      Arrays.fill(cacheIds, Long.MIN_VALUE);
    }
    for (int i = 0; i < count; i++) {
      long id = ids[i];
      long value = values[i];
      Slot slot = slotOf(id, i);
      if (slot == null) {
        continue;
      }
      if (slot instanceof SumSlot s) {
        s.set(index, value, call);
        touchedSum = true;
      } else {
        ValuesSlot v = (ValuesSlot) slot;
        v.values.set(index, value);
        if (!v.hasMax) {
          v.hasMax = true;
          v.maxValue = value;
          v.maxTaskId = taskId;
        } else if (value > v.maxValue) {
          v.maxValue = value;
          v.maxTaskId = taskId;
        }
      }
    }
    if (finished) {
      completed.set(index);
      if (anyPending) {
        // Values an earlier attempt of this index left are final now.
        for (Slot slot : slots.values()) {
          if (slot instanceof SumSlot s) {
            s.complete(index);
          }
        }
      }
    } else if (touchedSum) {
      for (Slot slot : slots.values()) {
        if (slot instanceof SumSlot s && s.lastCall == call) {
          s.keepPending(index);
          anyPending = true;
        }
      }
    }
  }

  /**
   * The slot of an accumulator, or null if it is no metric of the execution. Tasks of a stage
   * report the same accumulators in the same order, so the answer is cached by position.
   */
  private Slot slotOf(long id, int position) {
    if (position < cacheIds.length && cacheIds[position] == id) {
      return cacheSlots[position];
    }
    String type = types.get(id);
    Slot slot = null;
    if (type != null) {
      slot = slots.get(id);
      if (slot == null) {
        slot = SqlMetricFormat.needsMax(type) ? new ValuesSlot(numTasks) : new SumSlot();
        slots.put(id, slot);
      }
    }
    if (position >= cacheIds.length) {
      int n = Math.max(position + 1, cacheIds.length * 2);
      int old = cacheIds.length;
      cacheIds = Arrays.copyOf(cacheIds, n);
      Arrays.fill(cacheIds, old, n, Long.MIN_VALUE);
      cacheSlots = Arrays.copyOf(cacheSlots, n);
    }
    cacheIds[position] = id;
    cacheSlots[position] = slot;
    return slot;
  }

  /** The metrics this stage attempt has values for. */
  Map<Long, Slot> slots() {
    return slots;
  }

  /** Approximate bytes held, for tests and accounting. */
  long retainedBytes() {
    long bytes = 64 + taskIndices.retainedBytes() + completed.size() / 8;
    for (Slot s : slots.values()) {
      bytes += 48 + s.retainedBytes();
    }
    return bytes;
  }

  /** The values of one metric in one stage attempt. */
  abstract static class Slot {
    abstract long retainedBytes();
  }

  /** A {@code sum} metric: the sum, and the values of indices reported but not completed. */
  static final class SumSlot extends Slot {
    long sum;
    private Map<Integer, Long> pending;
    private long lastCall;
    private long lastValue;

    void set(int index, long value, long call) {
      long old;
      if (lastCall == call) {
        old = lastValue; // the same accumulator twice in one report: the last one wins
      } else if (pending != null && !pending.isEmpty()) {
        Long p = pending.remove(index);
        old = p == null ? 0 : p;
      } else {
        old = 0;
      }
      sum += value - old;
      lastCall = call;
      lastValue = value;
    }

    void keepPending(int index) {
      if (pending == null) {
        pending = new HashMap<>();
      }
      pending.put(index, lastValue);
    }

    void complete(int index) {
      if (pending != null && !pending.isEmpty()) {
        pending.remove(index);
      }
    }

    @Override
    long retainedBytes() {
      return 40 + (pending == null ? 0 : 48L * pending.size());
    }
  }

  /** Any other metric: one value per task index, and the task that reported the largest. */
  static final class ValuesSlot extends Slot {
    final PackedValues values;
    boolean hasMax;
    long maxValue;
    long maxTaskId;

    ValuesSlot(int numTasks) {
      values = new PackedValues(numTasks);
    }

    @Override
    long retainedBytes() {
      return values.retainedBytes() + 24;
    }
  }

  /** A fixed-size array of longs, all 0 at first, in the narrowest width its values need. */
  static final class PackedValues {
    private final int size;
    private byte[] bytes;
    private short[] shorts;
    private int[] ints;
    private long[] longs;
    private int width = 1;

    PackedValues(int size) {
      this.size = size;
      this.bytes = new byte[size];
    }

    int size() {
      return size;
    }

    long get(int i) {
      switch (width) {
        case 1:
          return bytes[i];
        case 2:
          return shorts[i];
        case 4:
          return ints[i];
        default:
          return longs[i];
      }
    }

    void set(int i, long v) {
      int needed =
          v == (byte) v ? 1 : v == (short) v ? 2 : v == (int) v ? 4 : 8;
      if (needed > width) {
        widen(needed);
      }
      switch (width) {
        case 1:
          bytes[i] = (byte) v;
          break;
        case 2:
          shorts[i] = (short) v;
          break;
        case 4:
          ints[i] = (int) v;
          break;
        default:
          longs[i] = v;
      }
    }

    /** Copies the values into {@code out} from {@code offset}. */
    void copyTo(long[] out, int offset) {
      for (int i = 0; i < size; i++) {
        out[offset + i] = get(i);
      }
    }

    private void widen(int newWidth) {
      long[] all = new long[size];
      copyTo(all, 0);
      bytes = null;
      shorts = null;
      ints = null;
      longs = null;
      width = newWidth;
      switch (newWidth) {
        case 2:
          shorts = new short[size];
          for (int i = 0; i < size; i++) {
            shorts[i] = (short) all[i];
          }
          break;
        case 4:
          ints = new int[size];
          for (int i = 0; i < size; i++) {
            ints[i] = (int) all[i];
          }
          break;
        default:
          longs = all;
      }
    }

    long retainedBytes() {
      return 16L + (long) size * width;
    }
  }

  /** Task id to task index: open addressing over primitive arrays. */
  static final class LongIntMap {
    private long[] keys = new long[16];
    private int[] vals = new int[16];
    private boolean[] used = new boolean[16];
    private int size;

    void put(long key, int value) {
      if ((size + 1) * 4 > keys.length * 3) {
        grow();
      }
      int i = slot(key, keys.length);
      while (used[i]) {
        if (keys[i] == key) {
          vals[i] = value;
          return;
        }
        i = (i + 1) & (keys.length - 1);
      }
      used[i] = true;
      keys[i] = key;
      vals[i] = value;
      size++;
    }

    void remove(long key) {
      int mask = keys.length - 1;
      int i = slot(key, keys.length);
      while (used[i] && keys[i] != key) {
        i = (i + 1) & mask;
      }
      if (!used[i]) {
        return;
      }
      // Backward-shift deletion: move later entries of the probe run into the hole.
      int hole = i;
      int j = i;
      while (true) {
        j = (j + 1) & mask;
        if (!used[j]) {
          break;
        }
        int home = slot(keys[j], keys.length);
        boolean between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!between) {
          keys[hole] = keys[j];
          vals[hole] = vals[j];
          hole = j;
        }
      }
      used[hole] = false;
      size--;
    }

    int size() {
      return size;
    }

    /** The value, or -1. */
    int get(long key) {
      int i = slot(key, keys.length);
      while (used[i]) {
        if (keys[i] == key) {
          return vals[i];
        }
        i = (i + 1) & (keys.length - 1);
      }
      return -1;
    }

    private static int slot(long key, int length) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h >>> 40) & (length - 1);
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldVals = vals;
      boolean[] oldUsed = used;
      int n = oldKeys.length * 2;
      keys = new long[n];
      vals = new int[n];
      used = new boolean[n];
      size = 0;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldUsed[i]) {
          put(oldKeys[i], oldVals[i]);
        }
      }
    }

    long retainedBytes() {
      return 48L + keys.length * 13L;
    }
  }

  static long[] grow(long[] a, int needed) {
    return needed <= a.length ? a : Arrays.copyOf(a, Math.max(needed, a.length * 2));
  }
}

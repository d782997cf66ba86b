package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.AccumulableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Reads {@code Stage Info} and {@code RDD Info} trees the way Spark's JsonProtocol does. */
final class StageInfos {
  private StageInfos() {}

  static StageInfo parse(JsonNode n) {
    int stageId = Json.requiredInt(n, "Stage ID");
    int attemptId = Json.optInt(n, "Stage Attempt ID", 0);
    String name = Json.requiredString(n, "Stage Name");
    int numTasks = Json.requiredInt(n, "Number of Tasks");
    List<RddInfo> rdds = new ArrayList<>();
    List<Integer> rddIds = new ArrayList<>();
    JsonNode rddNode = n.get("RDD Info");
    if (Json.present(rddNode)) {
      for (JsonNode r : rddNode) {
        RddInfo info = rdd(r);
        rdds.add(info);
        rddIds.add(info.id());
      }
    }
    String details = Json.optText(n, "Details").orElse("");
    long[] spill = spill(n.get("Accumulables"));
    return new StageInfo(
        stageId,
        attemptId,
        name,
        numTasks,
        rddIds,
        rdds,
        Json.intList(n.get("Parent IDs")),
        details,
        Json.optLong(n, "Submission Time"),
        Json.optLong(n, "Completion Time"),
        Json.optText(n, "Failure Reason"),
        userAccumulables(n.get("Accumulables")),
        spill[0],
        spill[1],
        Json.optInt(n, "Resource Profile Id", 0),
        Json.optBool(n, "Shuffle Push Enabled", false),
        Json.optInt(n, "Shuffle Push Mergers Count", 0));
  }

  /**
   * Memory and disk spill from a stage's accumulators, matched the way spark_gcs_log_reader.py's
   * summarizer matched them (name lowercased, spaces and underscores removed); the last match wins.
   */
  private static long[] spill(JsonNode accumulables) {
    long[] out = new long[2];
    if (!Json.present(accumulables)) {
      return out;
    }
    for (JsonNode a : accumulables) {
      String name = Json.optText(a, "Name").orElse("").toLowerCase(java.util.Locale.ROOT)
          .replace(" ", "").replace("_", "");
      JsonNode v = a.get("Value");
      long value = 0;
      if (Json.present(v)) {
        value = v.isNumber() ? v.longValue() : StreamingEvents.parseLongOrMin(v.asText().trim());
        if (value == Long.MIN_VALUE) {
          continue;
        }
      }
      if (name.contains("memorybytesspilled")) {
        out[0] = value;
      } else if (name.contains("diskbytesspilled")) {
        out[1] = value;
      }
    }
    return out;
  }

  static RddInfo rdd(JsonNode r) {
    return new RddInfo(
        Json.requiredInt(r, "RDD ID"),
        Json.requiredString(r, "Name"),
        Json.requiredInt(r, "Number of Partitions"),
        storageLevel(r.get("Storage Level")),
        Json.optText(r, "Callsite").orElse(""),
        Json.intList(r.get("Parent IDs")));
  }

  static StorageLevel storageLevel(JsonNode n) {
    if (!Json.present(n)) {
      return StorageLevel.NONE;
    }
    return new StorageLevel(
        Json.optBool(n, "Use Disk", false),
        Json.optBool(n, "Use Memory", false),
        Json.optBool(n, "Use Off Heap", false),
        Json.optBool(n, "Deserialized", false),
        Json.optInt(n, "Replication", 1));
  }

  /**
   * The user accumulators of a stage (not internal, not SQL), in the order the History Server
   * lists them: the iteration order of the Scala {@code mutable.HashMap[Long, _]} Spark keeps
   * them in, which for small ids is ascending id order.
   */
  static List<AccumulableInfo> userAccumulables(JsonNode n) {
    List<AccumulableInfo> out = new ArrayList<>();
    if (!Json.present(n)) {
      return out;
    }
    for (JsonNode a : n) {
      if (Json.optBool(a, "Internal", false)) {
        continue;
      }
      Optional<String> metadata = Json.optText(a, "Metadata");
      if (metadata.isPresent() && metadata.get().equals("sql")) {
        continue;
      }
      long id = Json.requiredLong(a, "ID");
      out.removeIf(x -> x.id() == id);
      out.add(
          new AccumulableInfo(
              id, Json.optText(a, "Name"), Json.optText(a, "Update"), Json.optText(a, "Value")));
    }
    int capacity = 16;
    while (out.size() > capacity * 3 / 4) {
      capacity *= 2;
    }
    final int mask = capacity - 1;
    out.sort(
        Comparator.comparingInt((AccumulableInfo a) -> scalaHash(a.id()) & mask)
            .thenComparingInt(a -> scalaHash(a.id())));
    return out;
  }

  /** Scala 2.13's improved hash of a boxed Long key. */
  private static int scalaHash(long id) {
    int h = (id == (int) id) ? (int) id : Long.hashCode(id);
    return h ^ (h >>> 16);
  }
}

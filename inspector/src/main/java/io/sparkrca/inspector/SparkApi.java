package io.sparkrca.inspector;

import java.util.Optional;
import java.util.Set;

/** What a JVM method call means in Spark terms, judged from its owner, name and descriptor. */
final class SparkApi {
  private SparkApi() {}

  enum Role {
    /** Runs a job and brings (possibly) every row to the driver. */
    COLLECT,
    /** Runs a job. */
    ACTION,
    /** Writes data out: runs a job. */
    WRITE,
    /** Returns a new Dataset/RDD: grows the plan. */
    TRANSFORMATION,
    /** Bounds what a later collect brings back. */
    BOUNDING,
    CACHE,
    UNPERSIST,
    REPARTITION,
    BROADCAST,
    /** Returns a writer; the write itself comes later. */
    WRITER
  }

  private static final Set<String> DATASETS = Set.of("Dataset", "DataFrame");
  private static final Set<String> RDDS = Set.of("RDD", "JavaRDD", "JavaPairRDD", "JavaDoubleRDD",
      "JavaRDDLike", "AbstractJavaRDDLike", "PairRDDFunctions", "OrderedRDDFunctions",
      "DoubleRDDFunctions", "SequenceFileRDDFunctions", "AsyncRDDActions");
  private static final Set<String> WRITERS = Set.of("DataFrameWriter", "DataFrameWriterV2",
      "DataStreamWriter");
  private static final Set<String> CONTEXTS = Set.of("SparkContext", "JavaSparkContext");

  private static final Set<String> DATASET_COLLECT = Set.of("collect", "collectAsList", "toPandas",
      "collectAsArrowToPython", "collectToPython");
  private static final Set<String> DATASET_ACTIONS = Set.of("count", "show", "first", "head",
      "take", "takeAsList", "tail", "foreach", "foreachPartition", "reduce", "toLocalIterator",
      "isEmpty", "checkpoint", "localCheckpoint", "toJSON$action");
  private static final Set<String> RDD_COLLECT = Set.of("collect", "collectAsMap",
      "collectPartitions");
  private static final Set<String> RDD_ACTIONS = Set.of("count", "take", "first", "reduce", "fold",
      "aggregate", "treeReduce", "treeAggregate", "foreach", "foreachPartition", "saveAsTextFile",
      "saveAsObjectFile", "saveAsSequenceFile", "saveAsHadoopFile", "saveAsNewAPIHadoopFile",
      "saveAsHadoopDataset", "saveAsNewAPIHadoopDataset", "countByKey", "countByValue", "top",
      "takeOrdered", "takeSample", "max", "min", "sum", "mean", "stats", "isEmpty", "lookup",
      "countApprox", "toLocalIterator", "countAsync", "collectAsync", "foreachAsync");
  private static final Set<String> WRITER_ACTIONS = Set.of("save", "saveAsTable", "insertInto",
      "parquet", "csv", "json", "orc", "text", "jdbc", "start", "append", "overwrite", "create",
      "replace", "createOrReplace", "overwritePartitions", "toTable");
  private static final Set<String> BOUNDING = Set.of("limit", "sample", "head", "take", "tail",
      "agg", "summary", "describe", "first", "count", "randomSplit", "takeAsList");

  static boolean isSpark(String owner) {
    return owner.startsWith("org/apache/spark/");
  }

  static String simpleOwner(String owner) {
    String s = owner.substring(owner.lastIndexOf('/') + 1);
    int dollar = s.indexOf('$');
    return dollar > 0 ? s.substring(0, dollar) : s;
  }

  /** The role of a call, when it is one that matters for the anti-patterns. */
  static Optional<Role> role(String owner, String name, String desc) {
    if (!isSpark(owner)) {
      return Optional.empty();
    }
    String o = simpleOwner(owner);
    boolean noArgs = desc.startsWith("()");
    if (DATASETS.contains(o)) {
      if (DATASET_COLLECT.contains(name) && noArgs) {
        return Optional.of(Role.COLLECT);
      }
      if (DATASET_ACTIONS.contains(name)) {
        return Optional.of(Role.ACTION);
      }
      if (name.equals("cache") || name.equals("persist")) {
        return Optional.of(Role.CACHE);
      }
      if (name.equals("unpersist")) {
        return Optional.of(Role.UNPERSIST);
      }
      if (name.equals("repartition")) {
        return Optional.of(Role.REPARTITION);
      }
      if (name.equals("write") || name.equals("writeTo") || name.equals("writeStream")) {
        return Optional.of(Role.WRITER);
      }
      if (name.equals("limit") || name.equals("sample")) {
        return Optional.of(Role.BOUNDING);
      }
      if (returnsDataset(desc)) {
        return Optional.of(Role.TRANSFORMATION);
      }
      return Optional.empty();
    }
    if (RDDS.contains(o)) {
      if (RDD_COLLECT.contains(name) && noArgs) {
        return Optional.of(Role.COLLECT);
      }
      if (RDD_ACTIONS.contains(name) && !returnsDataset(desc)) {
        return Optional.of(Role.ACTION);
      }
      if (name.equals("cache") || name.equals("persist")) {
        return Optional.of(Role.CACHE);
      }
      if (name.equals("unpersist")) {
        return Optional.of(Role.UNPERSIST);
      }
      if (name.equals("repartition")) {
        return Optional.of(Role.REPARTITION);
      }
      if (name.equals("sample")) {
        return Optional.of(Role.BOUNDING);
      }
      if (returnsDataset(desc)) {
        return Optional.of(Role.TRANSFORMATION);
      }
      return Optional.empty();
    }
    if (WRITERS.contains(o) && WRITER_ACTIONS.contains(name)) {
      return Optional.of(Role.WRITE);
    }
    if (CONTEXTS.contains(o) && name.equals("broadcast")) {
      return Optional.of(Role.BROADCAST);
    }
    if (o.equals("RelationalGroupedDataset") || o.equals("KeyValueGroupedDataset")) {
      return Optional.of(Role.BOUNDING); // an aggregation: one row per group
    }
    return Optional.empty();
  }

  /** Whether the call bounds its input, so a collect after it is not "unbounded". */
  static boolean bounds(String owner, String name, String desc) {
    if (!isSpark(owner)) {
      return false;
    }
    Optional<Role> r = role(owner, name, desc);
    return r.isPresent() && r.get() == Role.BOUNDING || BOUNDING.contains(name);
  }

  /** Whether the descriptor returns a Dataset, DataFrame or RDD type. */
  static boolean returnsDataset(String desc) {
    int close = desc.lastIndexOf(')');
    if (close < 0 || close + 1 >= desc.length() || desc.charAt(close + 1) != 'L') {
      return false;
    }
    String ret = desc.substring(close + 2, desc.length() - 1);
    if (!isSpark(ret)) {
      return false;
    }
    String o = simpleOwner(ret);
    return DATASETS.contains(o) || o.equals("RDD") || o.equals("JavaRDD")
        || o.equals("JavaPairRDD") || o.equals("JavaDoubleRDD");
  }

  /** {@code Dataset.count()}: owner's simple name and the method. */
  static String shortName(String owner, String name) {
    return simpleOwner(owner) + "." + name + "()";
  }

  /** The label shown in call graphs. */
  static Optional<String> label(String owner, String name, String desc) {
    return role(owner, name, desc).map(r -> switch (r) {
      case COLLECT -> "Spark action: collects to the driver";
      case ACTION -> "Spark action";
      case WRITE -> "Spark action: write";
      case TRANSFORMATION, BOUNDING -> "Spark transformation";
      case CACHE -> "Spark cache";
      case UNPERSIST -> "Spark unpersist";
      case REPARTITION -> "Spark repartition (full shuffle)";
      case BROADCAST -> "Spark broadcast variable";
      case WRITER -> "Spark writer";
    });
  }

  /** Whether a call with a function argument iterates on the driver (a loop in disguise). */
  static boolean isDriverIteration(String owner, String name) {
    if (isSpark(owner)) {
      return false;
    }
    boolean collectionOwner = owner.startsWith("scala/collection/")
        || owner.startsWith("scala/runtime/Rich") || owner.equals("scala/Option")
        || owner.startsWith("java/util/") || owner.equals("java/lang/Iterable")
        || owner.startsWith("scala/Array") || owner.startsWith("scala/Predef");
    return collectionOwner && (name.equals("foreach") || name.startsWith("foreach$")
        || name.equals("forEach") || name.equals("forEachOrdered") || name.equals("map")
        || name.equals("flatMap") || name.equals("mapToObj") || name.startsWith("map$")
        || isFold(owner, name) || name.equals("foreachEntry") || name.equals("withFilter")
        || name.equals("replaceAll") || name.equals("computeIfAbsent"));
  }

  /** Whether a driver-side iteration threads an accumulator through (fold/reduce). */
  static boolean isFold(String owner, String name) {
    return !isSpark(owner) && (name.equals("foldLeft") || name.equals("foldRight")
        || name.equals("fold") || name.equals("reduce") || name.equals("reduceLeft")
        || name.equals("reduceRight") || name.equals("reduceOption")
        || name.equals("reduceLeftOption"));
  }
}

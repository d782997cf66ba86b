package io.sparkrca.analysis.rca;

import io.sparkrca.core.app.SparkDefaults;
import java.util.List;
import java.util.Map;

/**
 * The Spark properties a recommendation may name, with the Spark release that introduced each
 * (from Spark's configuration pages, {@code docs/configuration.md} and {@code sql-performance-tuning.md}
 * of each release); every key of {@link SparkDefaults#DEFAULTS} is known too. Keys under a prefix
 * Spark passes through to another system (Hadoop, a plugin, a platform) are not Spark's to know.
 */
final class SparkConfigs {
  private SparkConfigs() {}

  private static final Map<String, String> SINCE = Map.ofEntries(
      Map.entry("spark.decommission.enabled", "3.1"),
      Map.entry("spark.default.parallelism", "0.5"),
      Map.entry("spark.driver.maxResultSize", "1.2"),
      Map.entry("spark.driver.memory", "1.0"),
      Map.entry("spark.driver.memoryOverhead", "2.3"),
      Map.entry("spark.driver.cores", "1.3"),
      Map.entry("spark.dynamicAllocation.cachedExecutorIdleTimeout", "1.4"),
      Map.entry("spark.dynamicAllocation.enabled", "1.2"),
      Map.entry("spark.dynamicAllocation.executorIdleTimeout", "1.2"),
      Map.entry("spark.dynamicAllocation.initialExecutors", "1.3"),
      Map.entry("spark.dynamicAllocation.maxExecutors", "1.2"),
      Map.entry("spark.dynamicAllocation.minExecutors", "1.2"),
      Map.entry("spark.dynamicAllocation.shuffleTracking.enabled", "3.0"),
      Map.entry("spark.excludeOnFailure.enabled", "3.1"),
      Map.entry("spark.executor.cores", "1.0"),
      Map.entry("spark.executor.heartbeatInterval", "1.1"),
      Map.entry("spark.executor.instances", "1.0"),
      Map.entry("spark.executor.memory", "0.7"),
      Map.entry("spark.executor.memoryOverhead", "2.3"),
      Map.entry("spark.executor.memoryOverheadFactor", "3.3"),
      Map.entry("spark.executor.pyspark.memory", "2.4"),
      Map.entry("spark.kubernetes.memoryOverheadFactor", "2.4"),
      Map.entry("spark.kryoserializer.buffer.max", "1.4"),
      Map.entry("spark.locality.wait", "0.5"),
      Map.entry("spark.maxRemoteBlockSizeFetchToMem", "3.0"),
      Map.entry("spark.memory.fraction", "1.6"),
      Map.entry("spark.memory.offHeap.enabled", "1.6"),
      Map.entry("spark.memory.offHeap.size", "1.6"),
      Map.entry("spark.memory.storageFraction", "1.6"),
      Map.entry("spark.network.timeout", "1.3"),
      Map.entry("spark.reducer.maxSizeInFlight", "1.4"),
      Map.entry("spark.rpc.message.maxSize", "2.0"),
      Map.entry("spark.shuffle.file.buffer", "1.4"),
      Map.entry("spark.shuffle.io.maxRetries", "1.2"),
      Map.entry("spark.shuffle.io.retryWait", "1.2"),
      Map.entry("spark.shuffle.service.enabled", "1.2"),
      Map.entry("spark.speculation", "0.6"),
      Map.entry("spark.sql.adaptive.advisoryPartitionSizeInBytes", "3.0"),
      Map.entry("spark.sql.adaptive.coalescePartitions.enabled", "3.0"),
      Map.entry("spark.sql.adaptive.enabled", "1.6"),
      Map.entry("spark.sql.adaptive.skewJoin.enabled", "3.0"),
      Map.entry("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "3.0"),
      Map.entry("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "3.0"),
      Map.entry("spark.sql.ansi.enabled", "3.0"),
      Map.entry("spark.sql.autoBroadcastJoinThreshold", "1.1"),
      Map.entry("spark.sql.broadcastTimeout", "1.3"),
      Map.entry("spark.sql.files.maxPartitionBytes", "2.0"),
      Map.entry("spark.sql.files.openCostInBytes", "2.0"),
      Map.entry("spark.sql.shuffle.partitions", "1.1"),
      Map.entry("spark.sql.sources.outputCommitterClass", "1.4"),
      Map.entry("spark.stage.maxConsecutiveAttempts", "2.2"),
      Map.entry("spark.storage.decommission.enabled", "3.1"),
      Map.entry("spark.storage.decommission.shuffleBlocks.enabled", "3.1"),
      Map.entry("spark.task.cpus", "0.5"),
      Map.entry("spark.task.maxFailures", "0.8"));

  /** Prefixes Spark hands to another system: Hadoop's configuration, the RAPIDS plugin, Dataproc. */
  private static final List<String> PASSED_THROUGH = List.of("spark.hadoop.", "spark.rapids.", "spark.dataproc.");

  /** Whether {@code key} is a property of Spark {@code version} (an unknown version is taken as recent). */
  static boolean known(String key, String version) {
    if (PASSED_THROUGH.stream().anyMatch(key::startsWith)) {
      return true;
    }
    String since = SINCE.get(key);
    if (since == null) {
      return SparkDefaults.DEFAULTS.containsKey(key);
    }
    return version.isBlank() || compare(since, version) <= 0;
  }

  private static int compare(String a, String b) {
    String[] x = a.split("[.-]");
    String[] y = b.split("[.-]");
    for (int i = 0; i < 2; i++) {
      int p = i < x.length ? parse(x[i]) : 0;
      int q = i < y.length ? parse(y[i]) : 0;
      if (p != q) {
        return Integer.compare(p, q);
      }
    }
    return 0;
  }

  private static int parse(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}

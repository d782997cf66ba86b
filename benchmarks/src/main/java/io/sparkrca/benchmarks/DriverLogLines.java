package io.sparkrca.benchmarks;

import java.util.SplittableRandom;

/**
 * Generates realistic Spark driver log lines (log4j layout, the usual scheduler, block manager and
 * shuffle chatter), with rare failure lines (OutOfMemoryError, FetchFailedException, containers
 * killed for memory) followed by stack frames, occasional long plan lines and non-ASCII paths.
 *
 * <pre>{@code
 * StringBuilder sb = new StringBuilder();
 * DriverLogLines.next(new SplittableRandom(42), 1, sb); // appends one or more lines
 * }</pre>
 */
final class DriverLogLines {
  private DriverLogLines() {}

  private static final String[] CLASSES = {
    "TaskSetManager", "BlockManagerInfo", "DAGScheduler", "MemoryStore", "ShuffleBlockFetcherIterator",
    "CodeGenerator", "Executor", "YarnAllocator", "FileSourceStrategy", "SparkContext"
  };

  /** Appends the next line(s) for line number {@code n}. */
  static void next(SplittableRandom r, long n, StringBuilder sb) {
    long seconds = n / 400;
    sb.append("24/05/01 ").append(two(seconds / 3600 % 24)).append(':').append(two(seconds / 60 % 60))
        .append(':').append(two(seconds % 60)).append(' ');
    int kind = r.nextInt(10_000);
    int stage = (int) (n / 20_000) % 500;
    int task = r.nextInt(2000);
    int exec = 1 + r.nextInt(40);
    if (kind < 5) {
      failure(r, sb, stage, task, exec);
      return;
    }
    if (kind < 7) {
      sb.append("INFO SparkSQLExecution: plan ");
      int end = sb.length() + 4000 + r.nextInt(16000);
      for (int i = 0; sb.length() < end; i++) {
        sb.append("Project [col_").append(i).append("#").append(r.nextInt(99999)).append(" AS c").append(i).append("], ");
      }
      sb.append('\n');
      return;
    }
    if (kind < 20) {
      sb.append("INFO Utils: Fetching file:/tmp/donn\u00e9es/\u5de5\u4f5c/app-").append(r.nextInt(100)).append(".jar to /tmp/spark-")
          .append(Long.toHexString(r.nextLong())).append('\n');
      return;
    }
    if (kind < 3500) {
      int ms = kind < 23 ? 10_000 + r.nextInt(90_000) : 5 + r.nextInt(9_000);
      sb.append("INFO TaskSetManager: Finished task ").append(task).append(".0 in stage ").append(stage)
          .append(".0 (TID ").append(n % 1_000_000).append(") in ").append(ms).append(" ms on 10.0.")
          .append(exec / 10).append('.').append(exec).append(" (executor ").append(exec).append(") (")
          .append(task).append("/2000)\n");
      return;
    }
    if (kind < 5500) {
      sb.append("INFO TaskSetManager: Starting task ").append(task).append(".0 in stage ").append(stage)
          .append(".0 (TID ").append(n % 1_000_000).append(") (10.0.").append(exec / 10).append('.').append(exec)
          .append(", executor ").append(exec).append(", partition ").append(task).append(", NODE_LOCAL, 7650 bytes)\n");
      return;
    }
    if (kind < 7000) {
      sb.append("INFO BlockManagerInfo: Added broadcast_").append(stage).append("_piece0 in memory on 10.0.")
          .append(exec / 10).append('.').append(exec).append(":4").append(1000 + r.nextInt(8999)).append(" (size: ")
          .append(r.nextInt(100)).append('.').append(r.nextInt(10)).append(" KiB, free: ").append(r.nextInt(8))
          .append('.').append(r.nextInt(10)).append(" GiB)\n");
      return;
    }
    if (kind < 8000) {
      sb.append("INFO ShuffleBlockFetcherIterator: Getting ").append(r.nextInt(2000)).append(" (")
          .append(r.nextInt(900)).append(".").append(r.nextInt(10)).append(" MiB) non-empty blocks including ")
          .append(r.nextInt(50)).append(" local and ").append(r.nextInt(2000)).append(" remote blocks\n");
      return;
    }
    if (kind < 8600) {
      sb.append("WARN TaskSetManager: Lost task ").append(task).append(".1 in stage ").append(stage)
          .append(".0 (TID ").append(n % 1_000_000).append(") (10.0.").append(exec / 10).append('.').append(exec)
          .append(" executor ").append(exec).append("): TaskKilled (another attempt succeeded)\n");
      return;
    }
    String cls = CLASSES[r.nextInt(CLASSES.length)];
    sb.append(r.nextInt(20) == 0 ? "DEBUG " : "INFO ").append(cls).append(": ");
    switch (r.nextInt(4)) {
      case 0:
        sb.append("Code generated in ").append(r.nextInt(300)).append('.').append(r.nextInt(1000)).append(" ms\n");
        break;
      case 1:
        sb.append("Block rdd_").append(stage).append('_').append(task).append(" stored as values in memory (estimated size ")
            .append(r.nextInt(500)).append(".0 KiB, free ").append(r.nextInt(4)).append(".2 GiB)\n");
        break;
      case 2:
        sb.append("Submitting ").append(r.nextInt(2000)).append(" missing tasks from ShuffleMapStage ").append(stage)
            .append(" (MapPartitionsRDD[").append(r.nextInt(9999)).append("] at save at Job.scala:").append(r.nextInt(400))
            .append(")\n");
        break;
      default:
        sb.append("Pruning directories with: isnotnull(dt#").append(r.nextInt(9999)).append(")\n");
        break;
    }
  }

  private static void failure(SplittableRandom r, StringBuilder sb, int stage, int task, int exec) {
    switch (r.nextInt(3)) {
      case 0:
        sb.append("WARN TaskSetManager: Lost task ").append(task).append(".0 in stage ").append(stage)
            .append(".0 (TID ").append(r.nextInt(999999)).append(") (10.0.0.").append(exec).append(" executor ")
            .append(exec).append("): java.lang.OutOfMemoryError: Java heap space\n");
        break;
      case 1:
        sb.append("WARN TaskSetManager: Lost task ").append(task).append(".0 in stage ").append(stage)
            .append(".1: FetchFailed(BlockManagerId(").append(exec).append(", 10.0.0.").append(exec)
            .append(", 7337, None), shuffleId=").append(stage).append(", mapIndex=").append(task)
            .append("), org.apache.spark.shuffle.FetchFailedException: Connection reset by peer\n");
        break;
      default:
        sb.append("ERROR YarnScheduler: Lost executor ").append(exec).append(" on worker-").append(exec)
            .append(": Container killed by YARN for exceeding physical memory limits. 12.4 GB of 12 GB physical memory used.\n");
        break;
    }
    sb.append("\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.next(ShuffleBlockFetcherIterator.scala:")
        .append(r.nextInt(1200)).append(")\n");
    sb.append("\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:").append(r.nextInt(600)).append(")\n");
  }

  private static String two(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }
}

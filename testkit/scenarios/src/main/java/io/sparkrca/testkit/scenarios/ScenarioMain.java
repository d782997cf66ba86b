package io.sparkrca.testkit.scenarios;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * Entry point of a scenario's driver JVM: {@code ScenarioMain <workload> <scratchDir> [key=value...]}.
 *
 * <p>Spark settings (master, application name, event-log directory and codec, the scenario's own
 * configuration)
 * arrive as {@code -Dspark.*} system properties, which {@code SparkConf} reads, so the workload code
 * never decides where or how its log is written. The JVM exits 0 on success and 1 when the workload
 * throws, like {@code spark-submit} does.
 */
public final class ScenarioMain {
  private ScenarioMain() {}

  public static void main(String[] args) {
    if (args.length < 2) {
      System.err.println("usage: ScenarioMain <workload> <scratchDir> [key=value...]");
      System.exit(2);
    }
    Workload workload = Workload.byName(args[0]);
    Path scratch = Path.of(args[1]);
    Map<String, String> params = new LinkedHashMap<>();
    for (String kv : Arrays.copyOfRange(args, 2, args.length)) {
      int eq = kv.indexOf('=');
      params.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    int exit = 0;
    SparkSession spark = SparkSession.builder().getOrCreate();
    try {
      workload.run(spark, scratch, params);
      System.out.println("WORKLOAD_FINISHED " + args[0]);
    } catch (Throwable t) {
      // Printed like an uncaught exception in spark-submit's driver, then a non-zero exit.
      System.err.print("Exception in thread \"main\" ");
      t.printStackTrace();
      exit = 1;
    } finally {
      spark.stop();
    }
    System.exit(exit);
  }
}

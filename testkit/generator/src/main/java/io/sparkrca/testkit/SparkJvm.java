package io.sparkrca.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JVM options and environment every forked Spark JVM (driver or History Server) needs on Java 17. */
public final class SparkJvm {
  private static final List<String> OPENED_PACKAGES = List.of(
      "java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio",
      "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref",
      "sun.nio.ch", "sun.nio.cs", "sun.security.action", "sun.util.calendar");

  private SparkJvm() {}

  /** The {@code --add-opens} flags and properties Spark needs on Java 17 (see DESIGN.md). */
  public static List<String> javaModuleOptions() {
    List<String> o = new ArrayList<>();
    for (String p : OPENED_PACKAGES) {
      o.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    o.add("-Djdk.reflect.useDirectMethodHandle=false");
    o.add("-Dio.netty.tryReflectionSetAccessible=true");
    return o;
  }

  /**
   * Environment of a forked Spark JVM: loopback only, and, for local-cluster, the SPARK_HOME
   * whose {@code jars/} the workers build executor class paths from.
   *
   * @param sparkHome SPARK_HOME, or null when no executor JVM is started
   */
  public static Map<String, String> environment(Path sparkHome) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put("SPARK_LOCAL_HOSTNAME", "localhost");
    // Without it, Spark's launcher looks for a source build's target/scala-* directories.
    env.put("SPARK_SCALA_VERSION", "2.13");
    // Never let an outer SPARK_HOME or SPARK_CONF_DIR leak settings into a run.
    env.put("SPARK_HOME", sparkHome == null ? "/nonexistent-spark-home" : sparkHome.toString());
    env.put("SPARK_CONF_DIR", sparkHome == null ? "/nonexistent-spark-conf" : sparkHome.resolve("conf").toString());
    return env;
  }
}

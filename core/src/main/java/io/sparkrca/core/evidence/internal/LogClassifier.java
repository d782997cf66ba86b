package io.sparkrca.core.evidence.internal;

import io.sparkrca.core.evidence.LogChannel;
import io.sparkrca.core.evidence.LogRole;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells whose log a file is (driver or executor, and which executor) and whether it is stdout or
 * stderr, from its first lines and then its name: Spark's executors announce themselves ({@code
 * Starting executor ID 3}, the standalone worker's {@code Spark Executor Command: ...
 * --executor-id 3}, {@code CoarseGrainedExecutorBackend}), the driver logs {@code Running Spark
 * version}. Names follow YARN, standalone, Kubernetes and testkit layouts.
 */
public final class LogClassifier {
  private static final Pattern EXECUTOR_ID_LINE = Pattern.compile("Starting executor ID (\\S+)");
  private static final Pattern EXECUTOR_ID_ARG = Pattern.compile("\"?--executor-id\"? \"?([^\" ]+)");
  private static final Pattern EXECUTOR_NAME = Pattern.compile(
      "(?:^|[/_.-])(?:exec(?:utor)?[-_]?)(\\d+)(?:[/_.-]|$)|(?:^|/)(\\d+)\\.(?:stderr|stdout|log)$|-exec-(\\d+)(?:[/_.-]|$)");

  private LogClassifier() {}

  /** The outcome: role, executor id when known, channel, and how it was decided. */
  public record Classification(LogRole role, Optional<String> executorId, LogChannel channel, String classifiedBy) {}

  /**
   * Classifies a log from its name and first lines. {@code forcedRole} is the role the caller
   * stated (a log given as a driver log), which wins over the content.
   */
  public static Classification classify(String uri, List<String> head, Optional<LogRole> forcedRole) {
    String name = uri.replace('\\', '/');
    LogChannel channel = channel(name);
    if (forcedRole.isPresent()) {
      Optional<String> id = forcedRole.get() == LogRole.EXECUTOR ? executorId(name, head) : Optional.empty();
      return new Classification(forcedRole.get(), id, channel, switch (forcedRole.get()) {
        case DRIVER -> "given as a driver log";
        case EXECUTOR -> "given as an executor log";
        case UNKNOWN -> "given as neither a driver's nor an executor's log";
      });
    }
    // The first line that tells wins: a driver in local-cluster mode logs its workers' executor
    // launch commands, but only after its own "Running Spark version".
    for (String line : head) {
      Matcher m = EXECUTOR_ID_LINE.matcher(line);
      if (m.find()) {
        return new Classification(LogRole.EXECUTOR, Optional.of(m.group(1)), channel,
            "content: 'Starting executor ID " + m.group(1) + "'");
      }
      if (line.startsWith("Spark Executor Command:")) {
        Matcher a = EXECUTOR_ID_ARG.matcher(line);
        Optional<String> id = a.find() ? Optional.of(a.group(1)) : executorIdFromName(name);
        return new Classification(LogRole.EXECUTOR, id, channel, "content: 'Spark Executor Command'");
      }
      if (line.contains("CoarseGrainedExecutorBackend: ") || line.contains("KubernetesExecutorBackend: ")) {
        return new Classification(LogRole.EXECUTOR, executorId(name, head), channel,
            "content: the executor backend's log lines");
      }
      if (line.contains("SparkContext: Running Spark version") || line.contains("SparkSubmit")
          || line.contains("Submitted application:") || line.contains("ApplicationMaster: ")) {
        return new Classification(LogRole.DRIVER, Optional.empty(), channel,
            "content: the driver's log lines");
      }
    }
    String lower = name.toLowerCase(Locale.ROOT);
    Optional<String> fromName = executorIdFromName(lower);
    if (fromName.isPresent()) {
      return new Classification(LogRole.EXECUTOR, fromName, channel, "file name");
    }
    if (lower.contains("driver")) {
      return new Classification(LogRole.DRIVER, Optional.empty(), channel, "file name");
    }
    return new Classification(LogRole.UNKNOWN, Optional.empty(), channel,
        "neither its name nor its first lines say whose log it is");
  }

  private static Optional<String> executorId(String name, List<String> head) {
    for (String line : head) {
      Matcher m = EXECUTOR_ID_LINE.matcher(line);
      if (m.find()) {
        return Optional.of(m.group(1));
      }
      if (line.startsWith("Spark Executor Command:")) {
        Matcher a = EXECUTOR_ID_ARG.matcher(line);
        if (a.find()) {
          return Optional.of(a.group(1));
        }
      }
    }
    return executorIdFromName(name.toLowerCase(Locale.ROOT));
  }

  private static Optional<String> executorIdFromName(String name) {
    String file = name;
    Matcher m = EXECUTOR_NAME.matcher(file);
    while (m.find()) {
      for (int g = 1; g <= m.groupCount(); g++) {
        if (m.group(g) != null) {
          return Optional.of(m.group(g));
        }
      }
    }
    return Optional.empty();
  }

  private static LogChannel channel(String name) {
    String file = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    if (file.contains("stderr") || file.endsWith(".err")) {
      return LogChannel.STDERR;
    }
    if (file.contains("stdout") || file.endsWith(".out")) {
      return LogChannel.STDOUT;
    }
    return LogChannel.UNKNOWN;
  }
}

package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The one place where a History Server 3.5 legitimately answers differently from the 4.0 one we
 * follow, for logs that 3.5 writes: a metric that an adaptive re-plan registers while a job of the
 * execution runs. 4.0 counts the running job's task updates of it; 3.5 fixed the tracked metrics
 * when the job started and ignores them (see {@link SqlScenarios#main()}, execution 4). This finds
 * such metrics in a log and removes them from both answers before they are compared.
 */
final class Spark35Tolerance {
  /** Per execution: the accumulator ids registered while one of its jobs ran. */
  private final Map<Long, Set<Long>> late = new HashMap<>();
  /** Per execution: its last plan graph. */
  private final Map<Long, SqlPlanGraph> graphs = new HashMap<>();

  private Spark35Tolerance() {}

  static Spark35Tolerance scan(Path log) throws IOException {
    Spark35Tolerance t = new Spark35Tolerance();
    Map<Long, Set<Long>> known = new HashMap<>();
    Map<Long, Set<Integer>> runningJobs = new HashMap<>();
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(log)) {
      try (Stream<Path> s = Files.list(log)) {
        s.filter(p -> p.getFileName().toString().startsWith("events_"))
            .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().split("_")[1])))
            .forEach(files::add);
      }
    } else {
      files.add(log);
    }
    for (Path f : files) {
      try (DecodedStream in = DecodedStream.open(ByteSources.defaults().open(f.toString()), true);
          LineReader lines = new LineReader(in, 256 << 20)) {
        while (lines.next()) {
          JsonNode e;
          try {
            e = SqlShsComparison.JSON.readTree(lines.lineAsString());
          } catch (IOException bad) {
            continue;
          }
          String event = e.path("Event").asText();
          String simple = event.substring(event.lastIndexOf('.') + 1);
          switch (simple) {
            case "SparkListenerSQLExecutionStart", "SparkListenerSQLAdaptiveExecutionUpdate" -> {
              long id = e.path("executionId").asLong();
              SqlPlanGraph g = SqlPlanGraph.build(e.get("sparkPlanInfo"), new ArrayList<>());
              t.graphs.put(id, g);
              register(t, known, runningJobs, id, g.allMetrics().stream().map(SqlPlanGraph.Metric::accumulatorId).toList());
            }
            case "SparkListenerSQLAdaptiveSQLMetricUpdates" -> {
              long id = e.path("executionId").asLong();
              List<Long> ids = new ArrayList<>();
              e.path("sqlPlanMetrics").forEach(m -> ids.add(m.path("accumulatorId").asLong()));
              register(t, known, runningJobs, id, ids);
            }
            case "SparkListenerJobStart" -> {
              String sqlId = e.path("Properties").path("spark.sql.execution.id").asText(null);
              if (sqlId != null) {
                runningJobs.computeIfAbsent(Long.parseLong(sqlId.trim()), k -> new HashSet<>())
                    .add(e.path("Job ID").asInt());
              }
            }
            case "SparkListenerJobEnd" -> runningJobs.values().forEach(s -> s.remove(e.path("Job ID").asInt()));
            default -> { }
          }
        }
      }
    }
    return t;
  }

  private static void register(Spark35Tolerance t, Map<Long, Set<Long>> known, Map<Long, Set<Integer>> running,
      long execId, List<Long> ids) {
    Set<Long> k = known.computeIfAbsent(execId, x -> new HashSet<>());
    boolean jobRunning = !running.getOrDefault(execId, Set.of()).isEmpty();
    for (long id : ids) {
      if (k.add(id) && jobRunning) {
        t.late.computeIfAbsent(execId, x -> new HashSet<>()).add(id);
      }
    }
  }

  /** Whether any execution has such metrics. */
  boolean applies() {
    return !late.isEmpty();
  }

  /** Removes the metrics in question from an answer (one execution or a list). */
  JsonNode strip(JsonNode answer) {
    if (answer instanceof ArrayNode a) {
      a.forEach(this::strip);
    } else if (answer instanceof ObjectNode exec && exec.has("nodes")) {
      long id = exec.path("id").asLong();
      Set<Long> ids = late.getOrDefault(id, Set.of());
      SqlPlanGraph g = graphs.get(id);
      if (ids.isEmpty() || g == null) {
        return answer;
      }
      for (JsonNode node : exec.get("nodes")) {
        long nodeId = node.path("nodeId").asLong();
        Set<String> names = new HashSet<>();
        for (SqlPlanGraph.Node n : g.allNodes()) {
          if (n.id == nodeId) {
            n.metrics.stream().filter(m -> ids.contains(m.accumulatorId())).forEach(m -> names.add(m.name().trim()));
          }
        }
        for (Iterator<JsonNode> it = node.path("metrics").elements(); it.hasNext(); ) {
          if (names.contains(it.next().path("name").asText())) {
            it.remove();
          }
        }
      }
    }
    return answer;
  }
}

package io.sparkrca.benchmarks.replay;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayReport;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.model.JobData;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/** Our full replay, exactly as a user calls it: {@code EventLogs.replay(path)}. */
public final class OursWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    ReplayedApplication app = EventLogs.replay(Path.of(file));
    return () -> describe(app);
  }

  static Map<String, Object> describe(ReplayedApplication app) {
    ReplayReport report = app.report();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", "ours");
    m.put("lines", report.lines());
    m.put("events", report.events());
    m.put("badLines", report.badLineCount());
    m.put("overlongLines", report.overlongLines());
    m.put("truncated", report.truncated());
    m.put("completed", report.completed());
    m.put("taskEndEvents", report.eventCounts().getOrDefault("SparkListenerTaskEnd", 0L));
    m.put("decodedAs", report.sources().isEmpty() ? "?" : report.sources().get(0).codec());
    List<JobData> jobs = app.jobs(Set.of());
    long tasks = 0;
    long failedTasks = 0;
    long stages = 0;
    for (JobData j : jobs) {
      tasks += j.numCompletedTasks() + j.numFailedTasks() + j.numKilledTasks();
      failedTasks += j.numFailedTasks();
      stages += j.stageIds().size();
    }
    m.put("jobs", jobs.size());
    m.put("stages", stages);
    m.put("tasks", tasks);
    m.put("failedTasks", failedTasks);
    m.put("executors", app.executors(false).size());
    m.put("sqlExecutions", app.sqlExecutions().size());
    m.put("firstBadLine", report.badLines().isEmpty() ? "" : report.badLines().get(0).toString());
    return m;
  }
}

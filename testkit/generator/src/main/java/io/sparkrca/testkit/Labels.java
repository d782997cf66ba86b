package io.sparkrca.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes {@code label.json}, the answer key of one fixture. The schema (version
 * {@value #SCHEMA_VERSION}) is documented in testkit/README.md.
 */
public final class Labels {
  /** Bumped whenever a field changes meaning or disappears. */
  public static final int SCHEMA_VERSION = 1;

  static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private Labels() {}

  /**
   * The parts of a label that are not measured.
   *
   * @param scenario scenario name (the fixture directory's name)
   * @param description what the scenario does
   * @param rootCause expected root cause
   * @param sparkVersion the Spark version that ran
   * @param format how the event log was written
   * @param postProcessing none, gzip or truncated
   * @param inProgress whether the committed log is an {@code .inprogress} log
   * @param workload the workload program and its parameters
   * @param sparkConf the settings the run started with
   * @param baseline the baseline scenario, or null
   * @param derivedFrom the scenario whose log this one was made from, or null
   */
  public record Header(
      String scenario,
      String description,
      io.sparkrca.core.knowledge.RootCauseKind rootCause,
      String sparkVersion,
      EventLogFormat format,
      String postProcessing,
      boolean inProgress,
      Map<String, Object> workload,
      Map<String, String> sparkConf,
      String baseline,
      String derivedFrom) {}

  /**
   * Builds and writes {@code dir/label.json}; file paths are made relative to {@code dir}.
   * {@code executorStdout} (non-empty executor stdout files) is written as
   * {@code logs.executorStdout} only when there is any.
   */
  public static ObjectNode write(Path dir, Header h, LogFacts facts, Integer driverExitCode,
      Path eventLog, Map<String, Path> executorLogs, Map<String, Path> executorStdout,
      boolean historyServer, Findings findings)
      throws IOException {
    ObjectNode l = JSON.createObjectNode();
    l.put("schemaVersion", SCHEMA_VERSION);
    l.put("scenario", h.scenario());
    l.put("description", h.description());
    l.put("rootCause", h.rootCause().name());
    l.put("rootCauseTitle", h.rootCause().title());
    l.put("sparkVersion", h.sparkVersion());
    l.put("baseline", h.baseline());
    l.put("derivedFrom", h.derivedFrom());

    ObjectNode app = l.putObject("application");
    app.put("id", facts.appId());
    app.put("name", facts.appName());
    app.put("sparkVersionInLog", facts.sparkVersion());
    app.put("master", h.sparkConf().get("spark.master"));
    if (driverExitCode == null) {
      app.putNull("driverExitCode");
    } else {
      app.put("driverExitCode", driverExitCode);
    }
    app.put("completed", facts.endTime() >= 0);

    ObjectNode log = l.putObject("eventLog");
    log.put("path", rel(dir, eventLog));
    log.put("layout", h.format().layout());
    log.put("codec", h.postProcessing().equals("gzip") ? "gzip" : h.format().codec());
    log.put("postProcessing", h.postProcessing());
    log.put("inProgress", h.inProgress());
    var files = log.putArray("files");
    for (Path f : EventLogFiles.dataFiles(eventLog)) {
      files.add(rel(dir, f));
    }
    if (Files.isDirectory(eventLog)) {
      try (var s = Files.list(eventLog)) {
        s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("appstatus_")).sorted()
            .forEach(n -> log.put("appStatusFile", rel(dir, eventLog.resolve(n))));
      }
    }
    log.put("bytes", FixtureFiles.size(eventLog));

    ObjectNode logs = l.putObject("logs");
    logs.put("driverStdout", Files.exists(dir.resolve("driver-stdout.log")) ? "driver-stdout.log" : null);
    logs.put("driverStderr", Files.exists(dir.resolve("driver-stderr.log")) ? "driver-stderr.log" : null);
    ObjectNode ex = logs.putObject("executors");
    executorLogs.forEach((id, p) -> ex.put(id, rel(dir, p)));
    if (!executorStdout.isEmpty()) {
      ObjectNode out = logs.putObject("executorStdout");
      executorStdout.forEach((id, p) -> out.put(id, rel(dir, p)));
    }
    l.put("historyServer", historyServer ? "shs/manifest.json" : null);

    l.set("workload", JSON.valueToTree(h.workload()));
    l.set("sparkConf", JSON.valueToTree(h.sparkConf()));

    ObjectNode culprit = l.putObject("culprit");
    culprit.set("stageIds", JSON.valueToTree(findings.stageIds()));
    culprit.set("partition", JSON.valueToTree(findings.partition()));
    culprit.put("executorId", findings.executorId());
    l.set("evidence", JSON.valueToTree(findings.evidence()));
    l.set("measured", JSON.valueToTree(findings.measured()));
    l.set("summary", JSON.valueToTree(FaultChecks.summary(facts)));
    Files.write(dir.resolve("label.json"), JSON.writeValueAsBytes(l));
    return l;
  }

  private static String rel(Path dir, Path p) {
    return dir.relativize(p).toString().replace('\\', '/');
  }
}

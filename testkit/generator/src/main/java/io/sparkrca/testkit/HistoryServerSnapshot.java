package io.sparkrca.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the real Spark History Server of one Spark version about one application and records its
 * answers byte for byte. The server runs in a forked JVM with that version's class path
 * ({@code HistoryServerMain}), over a log directory that holds only that application's log.
 */
public final class HistoryServerSnapshot {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryServerSnapshot.class);
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Stages with more tasks than this get a capped task list and a stage view without details. */
  public static final int TASK_LIST_CAP = 200;

  /** The History Server settings used for every snapshot (also written to the manifest). */
  public static Map<String, String> settings(Path logDir) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("spark.history.fs.logDirectory", logDir.toUri().toString());
    s.put("spark.history.fs.update.interval", "1s");
    s.put("spark.history.fs.cleaner.enabled", "false");
    s.put("spark.history.ui.port", "0");
    return s;
  }

  private final SparkDistribution spark;
  private final Path tempRoot;
  private final Duration timeout;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public HistoryServerSnapshot(SparkDistribution spark, Path tempRoot, Duration timeout) {
    this.spark = spark;
    this.tempRoot = tempRoot;
    this.timeout = timeout;
  }

  /**
   * Starts a History Server over a copy of {@code eventLog} (file or rolling directory), waits
   * until it lists the application, and writes every answer under {@code outDir}.
   *
   * @param expectComplete whether to wait until the server sees the application as completed
   */
  public void capture(Path eventLog, Path outDir, boolean expectComplete) throws IOException {
    try (TempDir tmp = TempDir.create(tempRoot, "shs-")) {
      Path logDir = Files.createDirectories(tmp.path().resolve("logs"));
      FixtureFiles.copyTree(eventLog, logDir.resolve(eventLog.getFileName().toString()));
      Map<String, String> settings = settings(logDir);
      try (HistoryServerProcess shs = HistoryServerProcess.start(spark, logDir, tmp.path(), timeout)) {
        String base = shs.url() + "/api/v1/";
        JsonNode app = awaitApplication(base, expectComplete, shs);
        record(base, app, outDir, settings, expectComplete);
      }
    }
  }

  private JsonNode awaitApplication(String base, boolean expectComplete, HistoryServerProcess shs) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> r;
      try {
        r = get(base + "applications");
      } catch (java.net.ConnectException notYet) {
        sleep(500);
        continue;
      }
      if (r.statusCode() == 200) {
        JsonNode apps = JSON.readTree(r.body());
        if (apps.size() == 1) {
          JsonNode attempt = apps.get(0).path("attempts").path(0);
          if (!expectComplete || attempt.path("completed").asBoolean()) {
            return apps.get(0);
          }
        }
      }
      sleep(500);
    }
    throw new IOException("History Server did not list the application within " + timeout + ":\n" + shs.tailOfLog());
  }

  private void record(String base, JsonNode app, Path outDir, Map<String, String> settings,
      boolean expectComplete) throws IOException {
    Files.createDirectories(outDir);
    String id = app.path("id").asText();
    JsonNode attempt = app.path("attempts").path(0);
    String appPath = "applications/" + id
        + (attempt.hasNonNull("attemptId") ? "/" + attempt.path("attemptId").asText() : "");
    ArrayNode endpoints = JSON.createArrayNode();
    Fetcher f = new Fetcher(base, outDir, endpoints);
    f.fetch("applications", "applications.json");
    f.fetch("applications/" + id, "application.json");
    f.fetch(appPath + "/jobs", "jobs.json");
    JsonNode stages = f.fetch(appPath + "/stages", "stages.json");
    f.fetch(appPath + "/stages?withSummaries=true", "stages-withSummaries.json");
    for (JsonNode s : stages == null ? JSON.createArrayNode() : stages) {
      int sid = s.path("stageId").asInt();
      int att = s.path("attemptId").asInt();
      String stagePath = appPath + "/stages/" + sid + "/" + att;
      String prefix = "stages/" + sid + "-" + att;
      int tasks = s.path("numCompleteTasks").asInt() + s.path("numFailedTasks").asInt()
          + s.path("numKilledTasks").asInt() + s.path("numActiveTasks").asInt();
      boolean capped = tasks > TASK_LIST_CAP;
      // A stage's detail view lists every task; for thousands of tasks that alone would be
      // megabytes, so large stages are recorded without details.
      f.fetch(stagePath + (capped ? "?details=false" : ""), prefix + ".json");
      f.fetch(stagePath + "/taskSummary", prefix + "-taskSummary.json");
      f.fetch(stagePath + "/taskList?length=" + (capped ? TASK_LIST_CAP : Math.max(tasks, 1)),
          prefix + "-taskList.json");
    }
    f.fetch(appPath + "/executors", "executors.json");
    f.fetch(appPath + "/allexecutors", "allexecutors.json");
    f.fetch(appPath + "/environment", "environment.json");
    JsonNode sql = f.fetch(appPath + "/sql", "sql.json");
    for (JsonNode x : sql == null || !sql.isArray() ? JSON.createArrayNode() : sql) {
      long xid = x.path("id").asLong();
      f.fetch(appPath + "/sql/" + xid, "sql/" + xid + ".json");
    }
    ObjectNode manifest = JSON.createObjectNode();
    manifest.put("sparkVersion", spark.version());
    manifest.put("server", "org.apache.spark.deploy.history.HistoryServer with FsHistoryProvider,"
        + " in-process in a forked JVM on Spark " + spark.version() + "'s class path");
    ObjectNode st = manifest.putObject("settings");
    settings.forEach((k, v) -> st.put(k, k.equals("spark.history.fs.logDirectory") ? "(temporary directory holding only this log)" : v));
    manifest.put("applicationId", id);
    manifest.put("applicationCompleted", attempt.path("completed").asBoolean());
    manifest.put("waitedForCompletion", expectComplete);
    manifest.put("taskListCap", TASK_LIST_CAP);
    manifest.put("note", "Bodies are stored exactly as the server sent them. Stages with more than "
        + TASK_LIST_CAP + " task attempts are fetched with details=false and a task list of "
        + TASK_LIST_CAP + ".");
    manifest.set("endpoints", endpoints);
    Files.write(outDir.resolve("manifest.json"), JSON.writeValueAsBytes(manifest));
    LOG.info("Recorded {} History Server answers for {} in {}", endpoints.size(), id, outDir);
  }

  /** Fetches one endpoint, stores the raw body, and notes it in the manifest. */
  private final class Fetcher {
    private final String base;
    private final Path outDir;
    private final ArrayNode endpoints;

    Fetcher(String base, Path outDir, ArrayNode endpoints) {
      this.base = base;
      this.outDir = outDir;
      this.endpoints = endpoints;
    }

    JsonNode fetch(String path, String file) throws IOException {
      HttpResponse<byte[]> r = get(base + path);
      Path target = outDir.resolve(file);
      Files.createDirectories(target.getParent());
      Files.write(target, r.body());
      ObjectNode e = endpoints.addObject();
      e.put("path", "/api/v1/" + path);
      e.put("file", file);
      e.put("status", r.statusCode());
      e.put("contentType", r.headers().firstValue("Content-Type").orElse(null));
      e.put("bytes", r.body().length);
      if (r.statusCode() != 200) {
        LOG.warn("History Server answered {} for {}", r.statusCode(), path);
        return null;
      }
      try {
        return JSON.readTree(r.body());
      } catch (IOException notJson) {
        return null;
      }
    }
  }

  private HttpResponse<byte[]> get(String url) throws IOException {
    HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build();
    try {
      return http.send(req, HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static void sleep(long ms) {
    HistoryServerProcess.sleep(ms);
  }
}

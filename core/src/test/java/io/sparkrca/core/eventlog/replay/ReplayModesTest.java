package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.testing.SharedData;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The replay answers the same whichever way it reads: every line with Jackson on the calling
 * thread (the reference), with the byte-level readers, and with the byte-level readers behind the
 * reading thread ({@link LinePipeline}). Compared over every endpoint the History Server was asked
 * for the testkit logs, and over the jobs, stages, task lists, summaries, executors, environment
 * and SQL executions of every conformance log; the replay reports (lines, events by type, bad
 * lines, notes) too.
 */
class ReplayModesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> logs() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      out.add(Arguments.of(f.sparkVersion() + "/" + f.scenario(), f.eventLog().toString()));
    }
    Optional<Path> conformance =
        SharedData.dir().map(d -> d.resolve("conformance/spark-shs/spark-events")).filter(Files::isDirectory);
    if (conformance.isPresent()) {
      try (Stream<Path> s = Files.list(conformance.get())) {
        s.sorted().forEach(p -> out.add(Arguments.of("conformance/" + p.getFileName(), p.toString())));
      }
    }
    assertThat(out).isNotEmpty();
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void everyModeAnswersTheSame(String name, String uri) {
    List<EventLogRef> refs = EventLogs.reader().build().find(uri);
    for (EventLogRef ref : refs) {
      Map<String, String> reference = answers(ref, false, false);
      assertThat(answers(ref, true, false)).as("%s, byte-level readers", ref.name()).isEqualTo(reference);
      assertThat(answers(ref, true, true)).as("%s, byte-level readers and reading thread", ref.name())
          .isEqualTo(reference);
    }
  }

  /**
   * A real log with damage between its lines (bad JSON, blank and over-long lines, CR LF, lone CR,
   * a cut last line): the same answers and the same report (bad lines with their numbers, notes)
   * in every mode, with a small line cap so that over-long lines occur.
   */
  @org.junit.jupiter.api.Test
  void damagedLinesAreReportedTheSameInEveryMode(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    Path source =
        TestkitFixtures.all().stream()
            .map(TestkitFixtures.Fixture::eventLog)
            .filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().contains("."))
            .findFirst()
            .orElseThrow();
    List<String> lines = Files.readAllLines(source);
    StringBuilder out = new StringBuilder();
    java.util.SplittableRandom random = new java.util.SplittableRandom(5);
    for (int i = 0; i < lines.size(); i++) {
      out.append(lines.get(i)).append(i % 7 == 0 ? "\r\n" : i % 11 == 0 ? "\r" : "\n");
      switch (random.nextInt(12)) {
        case 0:
          out.append("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\n");
          break;
        case 1:
          out.append("   \n");
          break;
        case 2:
          out.append("{\"Event\":\"x\",\"pad\":\"").append("y".repeat(5000)).append("\"}\n");
          break;
        case 3:
          out.append("not json at all\n");
          break;
        case 4:
          out.append("{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":\"one\"}\n");
          break;
        default:
          break;
      }
    }
    out.append("{\"Event\":\"SparkListenerJobEnd\",\"Job I");
    Path log = dir.resolve("local-1700000000999");
    Files.writeString(log, out.toString());
    EventLogRef ref = EventLogs.reader().build().find(log.toString()).get(0);
    ReplayOptions small = new ReplayOptions(false, 4096, Integer.MAX_VALUE);
    Map<String, String> reference = answers(ref, small, false, false);
    assertThat(reference.get("report")).contains("badLineCount=").doesNotContain("badLineCount=0,");
    assertThat(answers(ref, small, true, false)).isEqualTo(reference);
    assertThat(answers(ref, small, true, true)).isEqualTo(reference);
  }

  private static Map<String, String> answers(EventLogRef ref, boolean fastPath, boolean pipelined) {
    return answers(ref, ReplayOptions.DEFAULTS, fastPath, pipelined);
  }

  /** The answers of one replay mode, by path. */
  private static Map<String, String> answers(
      EventLogRef ref, ReplayOptions options, boolean fastPath, boolean pipelined) {
    ReplayedApplication app;
    try {
      app = replay(ref, options, fastPath, pipelined);
    } catch (RuntimeException e) {
      return Map.of("failure", e.toString());
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put("report", app.report().toString());
    out.put("facts", app.facts().toString());
    RestRouter router = RestRouter.over(single(app));
    String base = "applications/" + app.appId() + app.attemptId().map(a -> "/" + a).orElse("");
    List<String> paths = new ArrayList<>(List.of(
        "applications", base + "/jobs", base + "/stages?details=true&withSummaries=true",
        base + "/executors", base + "/allexecutors", base + "/environment", base + "/storage/rdd",
        base + "/sql?details=true&planDescription=true", base + "/allmiscellaneousprocess"));
    for (StageData s : app.stages(io.sparkrca.core.app.StageQuery.all())) {
      String stage = base + "/stages/" + s.stageId() + "/" + s.attemptId();
      paths.add(stage + "/taskList?length=1000000");
      paths.add(stage + "/taskSummary?quantiles=0,0.25,0.5,0.75,1");
    }
    for (String path : paths) {
      ApiResponse r = router.get(path);
      out.put(path, r.status() + " " + normalized(r.body()));
    }
    return out;
  }

  private static String normalized(String body) {
    try {
      JsonNode n = JSON.readTree(body);
      return n == null ? body : JSON.writeValueAsString(n);
    } catch (IOException e) {
      return body;
    }
  }

  private static ReplayedApplication replay(
      EventLogRef ref, ReplayOptions options, boolean fastPath, boolean pipelined) {
    try {
      Replayer replayer = new Replayer(options, fastPath, pipelined);
      ByteSources sources = ByteSources.defaults();
      long lastUpdate = 1_000_000_000_000L;
      replayer.lastUpdateTime(lastUpdate);
      for (var file : ref.files()) {
        ByteSource source = sources.open(file);
        replayer.read(source, ref.inProgress());
      }
      return ReplayedApplication.of(replayer.finish(lastUpdate), lastUpdate, ref.name());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static SparkHistory single(ReplayedApplication app) {
    return new SparkHistory() {
      @Override
      public List<ApplicationInfo> applications() {
        return List.of(app.info());
      }

      @Override
      public Optional<ReplayedApplication> application(String appId, Optional<String> attemptId) {
        return appId.equals(app.appId()) && attemptId.equals(app.attemptId())
            ? Optional.of(app)
            : Optional.empty();
      }
    };
  }
}

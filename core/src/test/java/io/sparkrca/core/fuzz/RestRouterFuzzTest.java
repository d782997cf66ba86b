package io.sparkrca.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The History Server REST API over real event logs ({@link RestRouter}), asked random paths and
 * query strings made of its own words, numbers out of range and junk: every request gets an answer
 * within a time bound, never an exception: 200 with a JSON body, or 400/404 with a one-line message
 * (as the History Server answers errors, {@link ApiResponse}).
 */
class RestRouterFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> WORDS = List.of(
      "applications", "local-1795962689745", "local-1795962701117", "1", "jobs", "stages", "0", "1", "-1",
      "2147483648", "taskSummary", "taskList", "executors", "allexecutors", "sql", "environment", "storage", "rdd",
      "logs", "threads", "allmiscellaneousprocess", "version", "..", "%", "%zz", "", " ", "{}", "é");
  private static final List<String> QUERIES = List.of(
      "status=failed", "status=nonsense", "quantiles=0.5,x", "quantiles=2", "offset=-1", "length=abc", "length=0",
      "details=true", "withSummaries=true", "sortBy=-runtime", "sortBy=x", "minDate=yesterday", "limit=-5",
      "taskStatus=FAILED", "planDescription=false", "attemptId=x", "=", "&&", "a=%");
  private static Path dir;
  private static RestRouter router;

  @BeforeContainer
  static void history() throws IOException {
    dir = Files.createTempDirectory("sparkrca-fuzz-api");
    Files.copy(Fuzz.fixturePath("bad-record", "eventlog/local-1795962689745"), dir.resolve("local-1795962689745"));
    Files.copy(Fuzz.fixturePath("flaky-task", "eventlog/local-1795962701117.zstd"), dir.resolve("local-1795962701117.zstd"));
    router = RestRouter.over(EventLogs.reader().build().history(dir.toString()));
  }

  @AfterContainer
  static void removeFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void everyRequestGetsJsonOrAOneLineError(@ForAll long seed) {
    Random r = new Random(seed);
    StringBuilder path = new StringBuilder(r.nextInt(4) == 0 ? "/api/v1/" : "");
    int segments = 1 + r.nextInt(7);
    for (int i = 0; i < segments; i++) {
      path.append(i == 0 ? "" : "/").append(WORDS.get(r.nextInt(WORDS.size())));
    }
    int queries = r.nextInt(4);
    for (int i = 0; i < queries; i++) {
      path.append(i == 0 ? '?' : '&').append(QUERIES.get(r.nextInt(QUERIES.size())));
    }
    String request = path.toString();
    Object answer = Fuzz.holdsContract("GET " + request, () -> router.get(request));
    assertThat(answer).as("GET %s", request).isInstanceOf(ApiResponse.class);
    ApiResponse response = (ApiResponse) answer;
    assertThat(response.status()).as("GET %s", request).isIn(200, 400, 404);
    if (!response.ok()) {
      assertThat(response.body()).as("GET %s: the error", request).isNotBlank().doesNotContain("\n");
      return;
    }
    try {
      JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("GET " + request + " answered " + response.status() + " with a body that is not JSON: " + response.body(), e);
    }
  }
}

package io.sparkrca.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testing.JsonDiff;
import io.sparkrca.core.testing.SharedData;
import io.sparkrca.core.testing.ShsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The acceptance test of event-log replay: every case of Spark's own History Server suite (60
 * REST paths over 16 real logs, Spark 1.x to 3.3) must answer the golden JSON, under the suite's
 * comparison rules ({@code lastUpdated} blanked, {@code lastUpdatedEpoch} zeroed, key order free,
 * array order significant).
 */
class HistoryServerConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static RestRouter router;

  @BeforeAll
  static void replayTheCorpus() {
    Optional<Path> corpus = SharedData.shsConformance();
    if (corpus.isPresent()) {
      router = RestRouter.over(EventLogs.reader().build().history(corpus.get().resolve("spark-events").toString()));
    }
  }

  static Stream<Arguments> cases() throws IOException {
    Optional<Path> corpus = SharedData.shsConformance();
    if (corpus.isEmpty()) {
      return Stream.of(Arguments.of("(conformance data absent)", "", ""));
    }
    List<Arguments> out = new ArrayList<>();
    List<String> rows = Files.readAllLines(corpus.get().resolve("MANIFEST.tsv"));
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split("\t", -1);
      out.add(Arguments.of(f[0], f[1], f[4]));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersLikeTheHistoryServer(String name, String restPath, String expectationFile) throws IOException {
    Optional<Path> corpus = SharedData.shsConformance();
    assumeTrue(corpus.isPresent(), "../shared/conformance/spark-shs is absent; conformance skipped");

    ApiResponse response = router.get(restPath);
    assertThat(response.status()).as("HTTP status of %s: %s", restPath, response.body()).isEqualTo(200);
    JsonNode expected = ShsJson.normalize(JSON.readTree(corpus.get().resolve("expectations").resolve(expectationFile).toFile()));
    JsonNode actual = ShsJson.normalize(JSON.readTree(response.body()));
    List<String> diff = JsonDiff.diff(expected, actual);
    assertThat(diff).as("differences for %s (%s)", name, restPath).isEmpty();
  }
}

package io.sparkrca.core.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SparkSourcesTest {
  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void anEventLogPathIsReadByTheEventLogProviderAskedLast() {
    SparkSources sources = SparkSources.defaults();
    Path log = TestkitFixtures.get("3.5.9", "bad-record").eventLog();
    assertThat(sources.providers().get(sources.providers().size() - 1).name()).isEqualTo("event-log");
    assertThat(sources.providerFor(log.toString()).name()).isEqualTo("event-log");
    SparkApplication app = sources.application(log.toString());
    assertThat(app).isInstanceOf(ReplayedApplication.class);
    assertThat(app.sparkVersion()).isEqualTo("3.5.9");
  }

  @Test
  void theEventLogProviderRegistersAsTheFallbackAndIsAskedOnceAndLast() {
    List<String> names = SparkSources.builder().loadServiceProviders().build().providers().stream()
        .map(SparkHistoryProvider::name).toList();

    assertThat(names).contains("memory").containsOnlyOnce("event-log");
    assertThat(names.get(names.size() - 1)).isEqualTo("event-log");
  }

  @Test
  void aProviderOnTheClassPathClaimsItsOwnUris() {
    SparkSources sources = SparkSources.defaults();
    assertThat(sources.providerFor("mem:flaky-task").name()).isEqualTo("memory");
    SparkApplication app = sources.application("mem:flaky-task");
    assertThat(app.facts().tasksFailed()).isEqualTo(1);
  }

  @Test
  void anExplicitProviderIsAskedBeforeTheClassPathOnes() {
    SparkHistoryProvider claimsAll = new SparkHistoryProvider() {
      @Override public String name() { return "first"; }
      @Override public boolean supports(String uri) { return true; }
      @Override public SparkHistory open(String uri, SourceSettings settings) {
        throw new AssertionError("not opened in this test");
      }
    };
    SparkSources sources = SparkSources.builder().add(claimsAll).loadServiceProviders().build();
    assertThat(sources.providerFor("mem:flaky-task").name()).isEqualTo("first");
    assertThat(SparkSources.builder().build().providers()).extracting(SparkHistoryProvider::name)
        .containsExactly("event-log");
  }

  @Test
  void aLogDirectoryIsAHistoryAndADirectoryWithoutLogsSaysSo() {
    Path oneLogDir = TestkitFixtures.get("3.5.9", "healthy").eventLog().getParent();
    assertThat(SparkSources.defaults().history(oneLogDir.toString()).applications()).hasSize(1);
    Path noLogs = TestkitFixtures.root().get().resolve("spark-3.5.9");
    assertThatThrownBy(() -> SparkSources.defaults().history(noLogs.toString()))
        .isInstanceOf(io.sparkrca.core.error.InputNotFoundException.class)
        .hasMessageContaining("holds no event log files");
  }

  @Test
  void theDefaultSingleApplicationRuleRefusesToPickOneOfMany() {
    SparkHistoryProvider two = new SparkHistoryProvider() {
      @Override public String name() { return "two"; }
      @Override public boolean supports(String uri) { return true; }
      @Override public SparkHistory open(String uri, SourceSettings settings) {
        SparkApplication a = new MemoryHistoryProvider().open("mem:healthy", settings).application(
            new MemoryHistoryProvider().open("mem:healthy", settings).applications().get(0).id(), Optional.empty()).orElseThrow();
        SparkApplication b = new MemoryHistoryProvider().open("mem:spill", settings).application(
            new MemoryHistoryProvider().open("mem:spill", settings).applications().get(0).id(), Optional.empty()).orElseThrow();
        return new SparkHistory() {
          @Override public List<io.sparkrca.core.model.ApplicationInfo> applications() {
            return List.of(a.info(), b.info());
          }
          @Override public Optional<SparkApplication> application(String id, Optional<String> attempt) {
            return Optional.empty();
          }
        };
      }
    };
    assertThatThrownBy(() -> two.application("x", SourceSettings.defaults()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("holds 2 applications")
        .hasMessageContaining("name one of them");
  }
}

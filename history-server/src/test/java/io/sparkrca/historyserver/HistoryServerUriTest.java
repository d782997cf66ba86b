package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HistoryServerUriTest {
  @Test
  void aServerRootNamesNoApplication() {
    HistoryServerUri u = HistoryServerUri.parse("http://shs:18080/").orElseThrow();

    assertThat(u.root()).isEqualTo("http://shs:18080");
    assertThat(u.appId()).isEmpty();
    assertThat(u.apiRoot()).isEqualTo("http://shs:18080/api/v1/");
  }

  @Test
  void restPathsNameTheApplicationAndAttempt() {
    HistoryServerUri u = HistoryServerUri.parse("https://proxy.example.com/spark/api/v1/applications/application_1_0001/2/jobs").orElseThrow();

    assertThat(u.root()).as("a reverse proxy's path prefix is kept").isEqualTo("https://proxy.example.com/spark");
    assertThat(u.appId()).contains("application_1_0001");
    assertThat(u.attemptId()).contains("2");
    assertThat(u.eventLog()).isFalse();
    assertThat(u.toString()).isEqualTo("https://proxy.example.com/spark/api/v1/applications/application_1_0001/2");
  }

  @Test
  void aResourceAfterTheIdIsNotAnAttempt() {
    HistoryServerUri u = HistoryServerUri.parse("http://shs:18080/api/v1/applications/app-1/stages").orElseThrow();

    assertThat(u.appId()).contains("app-1");
    assertThat(u.attemptId()).isEmpty();
  }

  @Test
  void theWebUiAddressAndTheLogDownloadAreRead() {
    assertThat(HistoryServerUri.parse("http://shs:18080/history/app-1/1/jobs/").orElseThrow())
        .extracting(HistoryServerUri::appId, HistoryServerUri::attemptId)
        .containsExactly(Optional.of("app-1"), Optional.of("1"));
    assertThat(HistoryServerUri.parse("http://shs:18080/api/v1/applications/app-1/logs").orElseThrow().eventLog()).isTrue();
  }

  @Test
  void otherUrisAreNotHistoryServerUris() {
    assertThat(HistoryServerUri.parse("gs://bucket/spark-events/app-1")).isEmpty();
    assertThat(HistoryServerUri.parse("/tmp/spark-events")).isEmpty();
    assertThat(HistoryServerUri.parse("https://example.com/some/page")).isEmpty();
    assertThat(HistoryServerUri.parse("https://user:pw@shs:18080/")).as("credentials in a URL would be printed").isEmpty();
  }

  @Test
  void ofBuildsTheUriOfOneApplication() {
    assertThat(HistoryServerUri.of("http://localhost:18080", "app 1", Optional.of("2")).toString())
        .isEqualTo("http://localhost:18080/api/v1/applications/app%201/2");
    assertThatThrownBy(() -> HistoryServerUri.of("ftp://x", "app-1", Optional.empty()))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("not a History Server URL");
  }
}

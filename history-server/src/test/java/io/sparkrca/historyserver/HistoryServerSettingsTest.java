package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.HttpSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HistoryServerSettingsTest {
  @Test
  void credentialsComeFromTheSparkHistoryEnvironmentVariables() {
    Map<String, String> env = Map.of(
        HistoryServerSettings.ENV_AUTHORIZATION, "Bearer abc",
        HistoryServerSettings.ENV_COOKIE, "session=xyz",
        HistoryServerSettings.ENV_HEADERS_JSON, "{\"X-Tenant\": \"t1\"}");

    HistoryServerSettings s = HistoryServerSettings.builder().fromEnvironment(env::get).build();

    assertThat(s.http().headers()).containsEntry("Authorization", "Bearer abc").containsEntry("Cookie", "session=xyz")
        .containsEntry("X-Tenant", "t1");
    assertThat(s.hasCredentials()).isTrue();
    assertThat(s.toString()).as("no header value is shown").doesNotContain("abc", "xyz", "t1");
  }

  @Test
  void toBuilderKeepsEverySettingAndChangingItLeavesTheValueAlone() {
    HistoryServerSettings s = HistoryServerSettings.builder().authorization("Bearer abc").header("X-Tenant", "t1")
        .maxRetries(1).allowCredentialsOverPlainHttp(true).maxResponseBytes(4096).concurrency(3)
        .maxEventLogBytes(8192).maxCacheBytes(0).eventLogFallback(false).build();

    HistoryServerSettings copy = s.toBuilder().build();
    HistoryServerSettings other = s.toBuilder().header("X-Tenant", "t2")
        .http(HttpSettings.builder().maxRetries(2).build()).build();

    assertThat(copy.toString()).isEqualTo(s.toString());
    assertThat(copy.http().headers()).isEqualTo(s.http().headers());
    assertThat(copy.http().credentialsOverPlainHttp()).isTrue();
    assertThat(s.http().headers()).containsEntry("X-Tenant", "t1");
    assertThat(s.http().maxRetries()).isEqualTo(1);
    assertThat(other.http().headers()).containsEntry("X-Tenant", "t2").containsEntry("Authorization", "Bearer abc");
    assertThat(other.http().maxRetries()).isEqualTo(2);
    assertThat(other.http().credentialsOverPlainHttp()).isTrue();
    assertThat(List.of(other.maxResponseBytes(), other.maxEventLogBytes(), other.maxCacheBytes()))
        .containsExactly(4096L, 8192L, 0L);
    assertThat(other.concurrency()).isEqualTo(3);
    assertThat(other.eventLogFallback()).isFalse();
  }

  @Test
  void malformedHeadersJsonIsAClearErrorNamingTheVariableNotTheValue() {
    Map<String, String> env = Map.of(HistoryServerSettings.ENV_HEADERS_JSON, "{\"X-Token\": \"s3cret\"");

    assertThatThrownBy(() -> HistoryServerSettings.builder().fromEnvironment(env::get))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(HistoryServerSettings.ENV_HEADERS_JSON + " is not valid JSON")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void headersJsonMustBeAnObjectOfStrings() {
    assertThatThrownBy(() -> HistoryServerSettings.builder().headersJson("[1]"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("must be a JSON object");
    assertThatThrownBy(() -> HistoryServerSettings.builder().headersJson("{\"X-N\": 5}"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("'X-N' must be a string");
    assertThatThrownBy(() -> HistoryServerSettings.builder().header("X-Bad", "a\r\nInjected: yes"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("header X-Bad has a character HTTP cannot "
            + "carry (a line break").hasMessageNotContaining("Injected");
  }

  @Test
  void credentialsAreNotSentOverPlainHttpToAnotherHostUnlessAllowed() {
    HistoryServerSettings s = HistoryServerSettings.builder().authorization("Bearer abc").maxRetries(0).build();

    assertThatThrownBy(() -> HistoryServerHistory.open("http://shs.example.invalid:18080", s).list(Optional.empty(), 1))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("refusing to send credentials over plain http to shs.example.invalid")
        .hasMessageNotContaining("abc");

    HistoryServerSettings allowed = HistoryServerSettings.builder().authorization("Bearer abc").maxRetries(0)
        .allowCredentialsOverPlainHttp(true).build();
    assertThatThrownBy(() -> HistoryServerHistory.open("http://shs.example.invalid:18080", allowed).list(Optional.empty(), 1))
        .as("allowed, the request is made (and fails on the unknown host)")
        .isInstanceOf(SparkRcaException.class)
        .hasMessageNotContaining("refusing");
  }

  @Test
  void capsOutOfRangeAreRefused() {
    assertThatThrownBy(() -> HistoryServerSettings.builder().maxResponseBytes(10))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("1 KiB");
    assertThatThrownBy(() -> HistoryServerSettings.builder().concurrency(0))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("between 1 and 64");
  }
}

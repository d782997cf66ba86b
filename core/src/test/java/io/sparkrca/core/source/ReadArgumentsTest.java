package io.sparkrca.core.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A read's arguments by type: JSON's values as a JSON parser gives them, and messages that name the read and the argument. */
class ReadArgumentsTest {
  private final ReadArguments a = new ReadArguments("shs_profile", Map.of("app", "app-1", "limit", 20, "big", 5_000_000_000L,
      "ratio", 1.5, "whole", 3.0, "strict", true, "uris", List.of("a.log", "b.log"), "rules", List.of(Map.of("ruleId", "R"))));

  @Test
  void readsEachTypeAndFallsBackWhenAbsent() {
    assertThat(a.read()).isEqualTo("shs_profile");
    assertThat(a.requiredString("app")).isEqualTo("app-1");
    assertThat(a.string("attempt")).isEmpty();
    assertThat(a.integer("limit", 50)).isEqualTo(20);
    assertThat(a.integer("stageLimit", 8)).isEqualTo(8);
    assertThat(a.integer("whole", 0)).isEqualTo(3);
    assertThat(a.optionalLong("big")).contains(5_000_000_000L);
    assertThat(a.requiredLong("limit")).isEqualTo(20L);
    assertThat(a.number("ratio")).contains(1.5);
    assertThat(a.bool("strict", false)).isTrue();
    assertThat(a.bool("quantiles", false)).isFalse();
    assertThat(a.strings("uris")).containsExactly("a.log", "b.log");
    assertThat(a.strings("logs")).isEmpty();
    assertThat(a.objects("rules")).hasSize(1);
    assertThat(new ReadArguments("k8s_pods", null).optionalInteger("maxLogLines")).isEqualTo(Optional.empty());
  }

  @Test
  void aWrongTypeOrAMissingArgumentNamesTheReadAndTheArgument() {
    assertThatThrownBy(() -> a.requiredString("profile")).isInstanceOf(InvalidRequestException.class)
        .hasMessage("shs_profile: the argument 'profile' is required");
    assertThatThrownBy(() -> a.integer("ratio", 0)).hasMessage("shs_profile: the argument 'ratio' must be a whole number, not the number 1.5");
    assertThatThrownBy(() -> a.integer("big", 0)).hasMessageContaining("'big' must be a whole number");
    assertThatThrownBy(() -> a.string("limit")).hasMessage("shs_profile: the argument 'limit' must be a string, not the number 20");
    assertThatThrownBy(() -> a.bool("app", false)).hasMessage("shs_profile: the argument 'app' must be true or false, not a string");
    assertThatThrownBy(() -> a.strings("rules")).hasMessageContaining("'rules' must be a list of non-empty strings; it holds an object");
    assertThatThrownBy(() -> new ReadArguments("logs_head", Map.of("uri", " ")).string("uri"))
        .hasMessage("logs_head: the argument 'uri' must not be empty");
  }
}

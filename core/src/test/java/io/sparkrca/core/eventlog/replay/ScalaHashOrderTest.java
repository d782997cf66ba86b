package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected orders printed by scala-library 2.13.16 (Spark 4.0) and 2.13.8 (Spark 3.5) alike. */
class ScalaHashOrderTest {
  @Test
  void upToFourKeysKeepInsertionOrder() {
    assertThat(ScalaHashOrder.order(List.of(4, 3, 2, 1))).containsExactly(4, 3, 2, 1);
    assertThat(ScalaHashOrder.order(List.of())).isEmpty();
  }

  @Test
  void fiveOrMoreKeysFollowTheHashTrie() {
    assertThat(ScalaHashOrder.order(List.of(1, 2, 3, 4, 5, 6))).containsExactly(5, 1, 6, 2, 3, 4);
    assertThat(ScalaHashOrder.order(List.of(3, 4, 5, 6, 7, 8))).containsExactly(5, 6, 7, 3, 8, 4);
    assertThat(ScalaHashOrder.order(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)))
        .containsExactly(0, 5, 10, 14, 1, 6, 9, 13, 2, 17, 12, 7, 3, 18, 16, 11, 8, 19, 4, 15);
    assertThat(ScalaHashOrder.order(List.of(100, 7, 42, 1000, 31, 99999, 5)))
        .containsExactly(5, 7, 1000, 31, 100, 99999, 42);
    assertThat(ScalaHashOrder.order(List.of(-1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0, 12345)))
        .containsExactly(12345, 0, Integer.MIN_VALUE, Integer.MAX_VALUE, -1);
  }

  @Test
  void theOrderDoesNotDependOnInsertionOrderOnceHashed() {
    assertThat(ScalaHashOrder.order(List.of(6, 5, 4, 3, 2, 1))).containsExactly(5, 1, 6, 2, 3, 4);
  }
}

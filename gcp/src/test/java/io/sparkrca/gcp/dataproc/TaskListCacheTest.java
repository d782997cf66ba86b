package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.model.TaskData;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskListCacheTest {
  /** A list of {@code n} tasks; the cache counts them and never looks inside. */
  private static List<TaskData> tasks(int n) {
    return Collections.nCopies(n, null);
  }

  @Test
  void dropsTheLeastRecentlyReadListPastTheListBound() {
    TaskListCache cache = new TaskListCache(2, 1_000);
    cache.put("1.0", tasks(1));
    cache.put("2.0", tasks(1));
    assertThat(cache.get("1.0")).isPresent(); // read again: now 2.0 is the least recently read
    cache.put("3.0", tasks(1));
    assertThat(cache.contains("2.0")).isFalse();
    assertThat(cache.contains("1.0")).isTrue();
    assertThat(cache.contains("3.0")).isTrue();
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void dropsListsUntilTheTasksFitTheTaskBound() {
    TaskListCache cache = new TaskListCache(64, 100);
    cache.put("1.0", tasks(40));
    cache.put("2.0", tasks(40));
    cache.put("3.0", tasks(40)); // 120 tasks: the eldest goes
    assertThat(cache.contains("1.0")).isFalse();
    assertThat(cache.tasks()).isEqualTo(80);
    cache.put("4.0", tasks(90)); // 170: both older lists go
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.tasks()).isEqualTo(90);
  }

  @Test
  void keepsTheListReadLastEvenWhenItAloneIsPastTheTaskBound() {
    TaskListCache cache = new TaskListCache(64, 100);
    cache.put("1.0", tasks(10));
    cache.put("2.0", tasks(500));
    assertThat(cache.get("2.0")).hasValueSatisfying(l -> assertThat(l).hasSize(500));
    assertThat(cache.contains("1.0")).isFalse();
    assertThat(cache.tasks()).isEqualTo(500);
  }

  @Test
  void replacingAListCountsOnlyItsNewTasks() {
    TaskListCache cache = new TaskListCache(64, 100);
    cache.put("1.0", tasks(60));
    cache.put("1.0", tasks(30));
    assertThat(cache.tasks()).isEqualTo(30);
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void refusesBoundsThatHoldNothing() {
    assertThatThrownBy(() -> new TaskListCache(0, 10)).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("at least one list");
  }
}

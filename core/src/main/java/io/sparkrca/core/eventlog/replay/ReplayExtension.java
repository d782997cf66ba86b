package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Something that follows the replay beside the core listener, such as the SQL execution tracker.
 * Methods are called in log order; the defaults do nothing.
 */
interface ReplayExtension {

  /** Whether this extension consumes events of this name (matched on the exact event name). */
  default boolean handles(String eventName) {
    return false;
  }

  /** An event this extension {@link #handles(String) handles}. */
  default void onEvent(String eventName, JsonNode event, long line) {}

  default void onJobStart(int jobId, List<Integer> stageIds, List<StageInfo> stageInfos,
      Map<String, String> properties, long time) {}

  default void onJobEnd(int jobId, boolean succeeded, long time) {}

  default void onStageSubmitted(int stageId, int attemptId, Map<String, String> properties) {}

  default void onTaskStart(int stageId, int stageAttemptId, TaskInfoScratch info) {}

  default void onTaskEnd(int stageId, int stageAttemptId, TaskInfoScratch info) {}

  /** The log ended; {@code lastUpdateTime} stands in for "now" for anything still running. */
  default void finish(long lastUpdateTime) {}
}

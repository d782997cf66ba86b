package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.sparkrca.core.model.ExecutorMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Scalar map entries built through one {@link Messages.EntryCache} are shared between messages,
 * and the messages are equal to (and print the same as) those built without it; entries whose
 * value is a message are never shared.
 */
class MessagesEntryCacheTest {
  @Test
  void equalEntriesAreOneMessageAndTheMessagesAreUnchanged() {
    Messages.EntryCache cache = new Messages.EntryCache();
    long[] values = new long[ExecutorMetrics.NAMES.size()];
    values[0] = 123_456_789L;
    values[4] = 42;
    ExecutorMetrics m = ExecutorMetrics.of(values);
    Message a = DataprocMapper.executorMetrics(m, cache);
    Message b = DataprocMapper.executorMetrics(m, cache);
    Message unshared = DataprocMapper.executorMetrics(m, null);

    assertThat(a).isEqualTo(unshared).isEqualTo(b);
    assertThat(StageTelemetry.toNode(a)).isEqualTo(StageTelemetry.toNode(unshared));
    FieldDescriptor metrics = DataprocSchema.field(a.getDescriptorForType(), "metrics");
    List<?> ea = (List<?>) a.getField(metrics);
    List<?> eb = (List<?>) b.getField(metrics);
    assertThat(ea).hasSize(ExecutorMetrics.NAMES.size());
    for (int i = 0; i < ea.size(); i++) {
      assertThat(eb.get(i)).isSameAs(ea.get(i));
    }
    // the same value under another name is another entry; zeros of different names too
    assertThat(ea.get(1)).isNotSameAs(ea.get(2)).isNotEqualTo(ea.get(2));
  }

  @Test
  void entriesWhoseValueIsAMessageAreBuiltEachTime() {
    Messages.EntryCache cache = new Messages.EntryCache();
    Message summary = Messages.of("ExecutorStageSummary").i64("task_time_millis", 5).build();
    Map<String, Message> byExecutor = new LinkedHashMap<>();
    byExecutor.put("1", summary);
    Message a = Messages.of("StageData", cache).map("executor_summary", byExecutor).build();
    Message b = Messages.of("StageData", cache).map("executor_summary", byExecutor).build();
    FieldDescriptor f = DataprocSchema.field(a.getDescriptorForType(), "executor_summary");
    assertThat(a).isEqualTo(b);
    assertThat(((List<?>) a.getField(f)).get(0)).isNotSameAs(((List<?>) b.getField(f)).get(0));
  }
}

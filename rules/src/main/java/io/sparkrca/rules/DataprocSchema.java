package io.sparkrca.rules;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.TimestampProto;
import io.sparkrca.core.error.InvalidRequestException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The typed schema rules are checked against: the Dataproc v1 Spark application messages
 * ({@code google.cloud.dataproc.v1.StageData}, {@code StageMetrics}, {@code TaskQuantileMetrics},
 * {@code ConsolidatedExecutorSummary}, ...) with the proto's {@code snake_case} field names, so
 * that rules written for the Dataproc agent's {@code GetSparkStageDiagnostics} compile unchanged.
 *
 * <p>The descriptors are built in code (no generated classes, no {@code protoc}); values are
 * {@link com.google.protobuf.DynamicMessage}s. Field numbers are this project's own: messages are
 * never exchanged in binary form, only read from and written to JSON.
 *
 * <pre>{@code
 * Descriptor stage = DataprocSchema.message("StageData");
 * stage.getFields().forEach(f -> System.out.println(f.getName()));
 * }</pre>
 */
public final class DataprocSchema {
  /** The proto package of every message. */
  public static final String PACKAGE = "google.cloud.dataproc.v1";

  /**
   * The push-based shuffle read metrics, the same in a stage, a task and their quantiles: declared
   * before {@link #FILE}, which is built from it when the class initializes.
   */
  private static final String[] PUSH_READ = {
    "corrupt_merged_block_chunks", "local_merged_blocks_fetched", "local_merged_bytes_read",
    "local_merged_chunks_fetched", "merged_fetch_fallback_count", "remote_merged_blocks_fetched",
    "remote_merged_bytes_read", "remote_merged_chunks_fetched", "remote_merged_reqs_duration"
  };

  private static final FileDescriptor FILE = build();

  /** Fields by name per message, so that hot paths avoid protobuf's by-name lookup. */
  private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS = index();

  private DataprocSchema() {}

  /** The file descriptor holding every message and the {@code StageStatus} enum. */
  public static FileDescriptor file() {
    return FILE;
  }

  /** A message by its simple name, for example {@code "StageData"}. */
  public static Descriptor message(String simpleName) {
    Descriptor d = FILE.findMessageTypeByName(simpleName);
    if (d == null) {
      throw new InvalidRequestException(
          "no message " + simpleName + " in " + PACKAGE + "; use one of "
              + FILE.getMessageTypes().stream().map(Descriptor::getName).toList());
    }
    return d;
  }

  /** The message by simple name, empty when there is none. */
  public static Optional<Descriptor> findMessage(String simpleName) {
    return Optional.ofNullable(FILE.findMessageTypeByName(simpleName));
  }

  /** The {@code StageStatus} enum. */
  public static EnumDescriptor stageStatus() {
    return FILE.findEnumTypeByName("StageStatus");
  }

  /** Every message of the schema (map entries excluded), in declaration order. */
  public static List<Descriptor> messages() {
    return FILE.getMessageTypes();
  }

  private static Map<Descriptor, Map<String, FieldDescriptor>> index() {
    Map<Descriptor, Map<String, FieldDescriptor>> out = new java.util.IdentityHashMap<>();
    for (Descriptor d : FILE.getMessageTypes()) {
      Map<String, FieldDescriptor> m = new java.util.HashMap<>();
      d.getFields().forEach(f -> m.put(f.getName(), f));
      out.put(d, m);
    }
    return out;
  }

  /** A field of a message, or an exception naming both when it does not exist. */
  static FieldDescriptor field(Descriptor d, String name) {
    Map<String, FieldDescriptor> byName = FIELDS.get(d);
    FieldDescriptor f = byName != null ? byName.get(name) : d.findFieldByName(name);
    if (f == null) {
      throw new InvalidRequestException(
          "no field " + name + " on " + d.getName() + "; its fields are "
              + d.getFields().stream().map(FieldDescriptor::getName).toList());
    }
    return f;
  }

  // ------------------------------------------------------------------ building

  private static final String TS = ".google.protobuf.Timestamp";

  private static FileDescriptor build() {
    FileDescriptorProto.Builder file =
        FileDescriptorProto.newBuilder()
            .setName("sparkrca/google/cloud/dataproc/v1/spark_application.proto")
            .setPackage(PACKAGE)
            .setSyntax("proto3")
            // Explicit Java names: CEL-Java derives a class name for every DynamicMessage it
            // touches, and without these that derivation scans the whole file each time.
            .setOptions(
                FileOptions.newBuilder()
                    .setJavaPackage("io.sparkrca.rules.dataproc.v1")
                    .setJavaOuterClassname("SparkApplicationSchema")
                    .setJavaMultipleFiles(true))
            .addDependency(TimestampProto.getDescriptor().getName());
    file.addEnumType(
        EnumDescriptorProto.newBuilder()
            .setName("StageStatus")
            .addValue(enumValue("STAGE_STATUS_UNSPECIFIED", 0))
            .addValue(enumValue("STAGE_STATUS_ACTIVE", 1))
            .addValue(enumValue("STAGE_STATUS_COMPLETE", 2))
            .addValue(enumValue("STAGE_STATUS_FAILED", 3))
            .addValue(enumValue("STAGE_STATUS_PENDING", 4))
            .addValue(enumValue("STAGE_STATUS_SKIPPED", 5)));

    String[] quantileLeaves = {
      "count", "maximum", "minimum", "percentile_25", "percentile_50", "percentile_75", "sum"
    };
    file.addMessageType(msg("Quantiles").ints64(quantileLeaves).build());

    addStageMetrics(file);
    addTaskQuantiles(file);
    addExecutors(file);
    addTasks(file);
    addStage(file);

    try {
      return FileDescriptor.buildFrom(
          file.build(), new FileDescriptor[] {TimestampProto.getDescriptor()});
    } catch (DescriptorValidationException e) {
      // The schema is this class's constants: it builds, or the tests fail.
      throw new AssertionError("the Dataproc schema does not build: " + e.getMessage(), e);
    }
  }

  /** The stage-level metrics: input, output, shuffle read and write, and their sum. */
  private static void addStageMetrics(FileDescriptorProto.Builder file) {
    file.addMessageType(msg("StageInputMetrics").ints64("bytes_read", "records_read").build());
    file.addMessageType(
        msg("StageOutputMetrics").ints64("bytes_written", "records_written").build());
    file.addMessageType(
        msg("StageShuffleWriteMetrics")
            .ints64("bytes_written", "records_written", "write_time_nanos")
            .build());
    file.addMessageType(msg("StageShufflePushReadMetrics").ints64(PUSH_READ).build());
    file.addMessageType(msg("ShufflePushReadMetrics").ints64(PUSH_READ).build());
    file.addMessageType(
        msg("StageShuffleReadMetrics")
            .ints64(
                "bytes_read", "fetch_wait_time_millis", "local_blocks_fetched",
                "local_bytes_read", "records_read", "remote_blocks_fetched", "remote_bytes_read",
                "remote_bytes_read_to_disk", "remote_reqs_duration")
            .message("stage_shuffle_push_read_metrics", "StageShufflePushReadMetrics")
            .build());
    file.addMessageType(
        msg("StageMetrics")
            .ints64(
                "disk_bytes_spilled", "executor_cpu_time_nanos",
                "executor_deserialize_cpu_time_nanos", "executor_deserialize_time_millis",
                "executor_run_time_millis", "jvm_gc_time_millis", "memory_bytes_spilled",
                "peak_execution_memory_bytes", "result_serialization_time_millis", "result_size")
            .message("stage_input_metrics", "StageInputMetrics")
            .message("stage_output_metrics", "StageOutputMetrics")
            .message("stage_shuffle_read_metrics", "StageShuffleReadMetrics")
            .message("stage_shuffle_write_metrics", "StageShuffleWriteMetrics")
            .build());
  }

  /** The quantiles of the task metrics, per kind of metric. */
  private static void addTaskQuantiles(FileDescriptorProto.Builder file) {
    file.addMessageType(
        msg("InputQuantileMetrics").messages("Quantiles", "bytes_read", "records_read").build());
    file.addMessageType(
        msg("OutputQuantileMetrics")
            .messages("Quantiles", "bytes_written", "records_written")
            .build());
    file.addMessageType(msg("ShufflePushReadQuantileMetrics").messages("Quantiles", PUSH_READ).build());
    file.addMessageType(
        msg("ShuffleReadQuantileMetrics")
            .messages(
                "Quantiles", "fetch_wait_time_millis", "local_blocks_fetched", "read_bytes",
                "read_records", "remote_blocks_fetched", "remote_bytes_read",
                "remote_bytes_read_to_disk", "remote_reqs_duration", "total_blocks_fetched")
            .message("shuffle_push_read_metrics", "ShufflePushReadQuantileMetrics")
            .build());
    file.addMessageType(
        msg("ShuffleWriteQuantileMetrics")
            .messages("Quantiles", "write_bytes", "write_records", "write_time_nanos")
            .build());
    file.addMessageType(
        msg("TaskQuantileMetrics")
            .messages(
                "Quantiles", "disk_bytes_spilled", "duration_millis", "executor_cpu_time_nanos",
                "executor_deserialize_cpu_time_nanos", "executor_deserialize_time_millis",
                "executor_run_time_millis", "getting_result_time_millis", "jvm_gc_time_millis",
                "memory_bytes_spilled", "peak_execution_memory_bytes",
                "result_serialization_time_millis", "result_size", "scheduler_delay_millis")
            .message("input_metrics", "InputQuantileMetrics")
            .message("output_metrics", "OutputQuantileMetrics")
            .message("shuffle_read_metrics", "ShuffleReadQuantileMetrics")
            .message("shuffle_write_metrics", "ShuffleWriteQuantileMetrics")
            .build());
  }

  /** The executors: memory, peak metrics, their distributions and per-stage summaries, speculation, accumulables. */
  private static void addExecutors(FileDescriptorProto.Builder file) {
    file.addMessageType(
        msg("MemoryMetrics")
            .ints64(
                "total_off_heap_storage_memory", "total_on_heap_storage_memory",
                "used_off_heap_storage_memory", "used_on_heap_storage_memory")
            .build());
    file.addMessageType(msg("ExecutorMetrics").map("metrics", Type.TYPE_INT64, null).build());
    file.addMessageType(
        msg("ExecutorPeakMetricsDistributions")
            .repeatedMessage("executor_metrics", "ExecutorMetrics")
            .doubles("quantiles")
            .build());
    file.addMessageType(
        msg("ExecutorMetricsDistributions")
            .doubles(
                "disk_bytes_spilled", "failed_tasks", "input_bytes", "input_records",
                "killed_tasks", "memory_bytes_spilled", "output_bytes", "output_records",
                "quantiles", "shuffle_read", "shuffle_read_records", "shuffle_write",
                "shuffle_write_records", "succeeded_tasks", "task_time_millis")
            .message("peak_memory_metrics", "ExecutorPeakMetricsDistributions")
            .build());
    file.addMessageType(
        msg("ExecutorStageSummary")
            .ints64(
                "disk_bytes_spilled", "input_bytes", "input_records", "memory_bytes_spilled",
                "output_bytes", "output_records", "shuffle_read", "shuffle_read_records",
                "shuffle_write", "shuffle_write_records", "stage_id", "task_time_millis")
            .ints32("failed_tasks", "killed_tasks", "stage_attempt_id", "succeeded_tasks")
            .string("executor_id")
            .bool("is_excluded_for_stage")
            .message("peak_memory_metrics", "ExecutorMetrics")
            .build());
    file.addMessageType(
        msg("ConsolidatedExecutorSummary")
            .ints32(
                "active_tasks", "completed_tasks", "count", "failed_tasks", "is_excluded",
                "rdd_blocks", "total_cores", "total_tasks")
            .ints64(
                "disk_used", "max_memory", "memory_used", "total_duration_millis",
                "total_gc_time_millis", "total_input_bytes", "total_shuffle_read",
                "total_shuffle_write")
            .message("memory_metrics", "MemoryMetrics")
            .build());
    file.addMessageType(
        msg("SpeculationStageSummary")
            .ints32(
                "num_active_tasks", "num_completed_tasks", "num_failed_tasks", "num_killed_tasks",
                "num_tasks", "stage_attempt_id", "stage_id")
            .build());
    file.addMessageType(
        msg("AccumulableInfo")
            .optionalInt64("accumullable_info_id")
            .optionalString("name", "update", "value")
            .build());
  }

  /** The tasks and their metrics. */
  private static void addTasks(FileDescriptorProto.Builder file) {
    file.addMessageType(msg("InputMetrics").ints64("bytes_read", "records_read").build());
    file.addMessageType(msg("OutputMetrics").ints64("bytes_written", "records_written").build());
    file.addMessageType(
        msg("ShuffleReadMetrics")
            .ints64(
                "fetch_wait_time_millis", "local_blocks_fetched", "local_bytes_read",
                "records_read", "remote_blocks_fetched", "remote_bytes_read",
                "remote_bytes_read_to_disk", "remote_reqs_duration")
            .message("shuffle_push_read_metrics", "ShufflePushReadMetrics")
            .build());
    file.addMessageType(
        msg("ShuffleWriteMetrics")
            .ints64("bytes_written", "records_written", "write_time_nanos")
            .build());
    file.addMessageType(
        msg("TaskMetrics")
            .ints64(
                "disk_bytes_spilled", "executor_cpu_time_nanos",
                "executor_deserialize_cpu_time_nanos", "executor_deserialize_time_millis",
                "executor_run_time_millis", "jvm_gc_time_millis", "memory_bytes_spilled",
                "peak_execution_memory_bytes", "result_serialization_time_millis", "result_size")
            .message("input_metrics", "InputMetrics")
            .message("output_metrics", "OutputMetrics")
            .message("shuffle_read_metrics", "ShuffleReadMetrics")
            .message("shuffle_write_metrics", "ShuffleWriteMetrics")
            .build());
    file.addMessageType(
        msg("TaskData")
            .repeatedMessage("accumulator_updates", "AccumulableInfo")
            .ints32("attempt", "index", "partition_id", "stage_attempt_id")
            .ints64("getting_result_time_millis", "scheduler_delay_millis", "stage_id", "task_id")
            .optionalInt64("duration_millis")
            .optionalString("error_message", "executor_id", "host", "status", "task_locality")
            .map("executor_logs", Type.TYPE_STRING, null)
            .bool("has_metrics", "speculative")
            .timestamp("launch_time", "result_fetch_start")
            .message("task_metrics", "TaskMetrics")
            .build());
  }

  /** The stage itself, which holds the rest. */
  private static void addStage(FileDescriptorProto.Builder file) {
    file.addMessageType(
        msg("StageData")
            .repeatedMessage("accumulator_updates", "AccumulableInfo")
            .timestamp("completion_time", "first_task_launched_time", "submission_time")
            .optionalString("description", "details", "failure_reason", "name", "scheduling_pool")
            .message("executor_metrics_distributions", "ExecutorMetricsDistributions")
            .map("executor_summary", Type.TYPE_MESSAGE, "ExecutorStageSummary")
            .bool("is_shuffle_push_enabled")
            .repeatedInt64("job_ids", "parent_stage_ids", "rdd_ids")
            .map("killed_tasks_summary", Type.TYPE_INT32, null)
            .map("locality", Type.TYPE_INT64, null)
            .ints32(
                "num_active_tasks", "num_complete_tasks", "num_completed_indices",
                "num_failed_tasks", "num_killed_tasks", "num_tasks", "resource_profile_id",
                "shuffle_mergers_count", "stage_attempt_id")
            .ints64("stage_id")
            .message("peak_executor_metrics", "ExecutorMetrics")
            .message("speculation_summary", "SpeculationStageSummary")
            .message("stage_metrics", "StageMetrics")
            .enumField("status", "StageStatus")
            .message("task_quantile_metrics", "TaskQuantileMetrics")
            .mapInt64Key("tasks", "TaskData")
            .build());
  }

  private static EnumValueDescriptorProto.Builder enumValue(String name, int number) {
    return EnumValueDescriptorProto.newBuilder().setName(name).setNumber(number);
  }

  private static Msg msg(String name) {
    return new Msg(name);
  }

  /** A small builder for one message: fields are numbered in the order they are added. */
  private static final class Msg {
    private final DescriptorProto.Builder b;
    private final Map<String, DescriptorProto> entries = new LinkedHashMap<>();
    private final List<String> optionalNames = new ArrayList<>();
    private int next = 1;

    Msg(String name) {
      b = DescriptorProto.newBuilder().setName(name);
    }

    private FieldDescriptorProto.Builder field(String name, Type type) {
      return FieldDescriptorProto.newBuilder()
          .setName(name)
          .setNumber(next++)
          .setLabel(Label.LABEL_OPTIONAL)
          .setType(type);
    }

    Msg scalars(Type type, String... names) {
      for (String n : names) {
        b.addField(field(n, type));
      }
      return this;
    }

    Msg ints64(String... names) {
      return scalars(Type.TYPE_INT64, names);
    }

    Msg ints32(String... names) {
      return scalars(Type.TYPE_INT32, names);
    }

    Msg string(String... names) {
      return scalars(Type.TYPE_STRING, names);
    }

    Msg bool(String... names) {
      return scalars(Type.TYPE_BOOL, names);
    }

    Msg doubles(String... names) {
      for (String n : names) {
        b.addField(field(n, Type.TYPE_DOUBLE).setLabel(Label.LABEL_REPEATED));
      }
      return this;
    }

    Msg repeatedInt64(String... names) {
      for (String n : names) {
        b.addField(field(n, Type.TYPE_INT64).setLabel(Label.LABEL_REPEATED));
      }
      return this;
    }

    Msg optional(Type type, String... names) {
      for (String n : names) {
        int oneof = b.getOneofDeclCount();
        b.addOneofDecl(OneofDescriptorProto.newBuilder().setName("_" + n));
        b.addField(field(n, type).setProto3Optional(true).setOneofIndex(oneof));
        optionalNames.add(n);
      }
      return this;
    }

    Msg optionalString(String... names) {
      return optional(Type.TYPE_STRING, names);
    }

    Msg optionalInt64(String... names) {
      return optional(Type.TYPE_INT64, names);
    }

    Msg message(String name, String type) {
      b.addField(field(name, Type.TYPE_MESSAGE).setTypeName("." + PACKAGE + "." + type));
      return this;
    }

    Msg messages(String type, String... names) {
      for (String n : names) {
        message(n, type);
      }
      return this;
    }

    Msg repeatedMessage(String name, String type) {
      b.addField(
          field(name, Type.TYPE_MESSAGE)
              .setLabel(Label.LABEL_REPEATED)
              .setTypeName("." + PACKAGE + "." + type));
      return this;
    }

    Msg timestamp(String... names) {
      for (String n : names) {
        b.addField(field(n, Type.TYPE_MESSAGE).setTypeName(TS));
      }
      return this;
    }

    Msg enumField(String name, String type) {
      b.addField(field(name, Type.TYPE_ENUM).setTypeName("." + PACKAGE + "." + type));
      return this;
    }

    Msg map(String name, Type valueType, String valueMessage) {
      return mapEntry(name, Type.TYPE_STRING, valueType, valueMessage);
    }

    Msg mapInt64Key(String name, String valueMessage) {
      return mapEntry(name, Type.TYPE_INT64, Type.TYPE_MESSAGE, valueMessage);
    }

    private Msg mapEntry(String name, Type keyType, Type valueType, String valueMessage) {
      String entryName = camel(name) + "Entry";
      FieldDescriptorProto.Builder value =
          FieldDescriptorProto.newBuilder()
              .setName("value")
              .setNumber(2)
              .setLabel(Label.LABEL_OPTIONAL)
              .setType(valueType);
      if (valueMessage != null) {
        value.setTypeName("." + PACKAGE + "." + valueMessage);
      }
      DescriptorProto entry =
          DescriptorProto.newBuilder()
              .setName(entryName)
              .setOptions(MessageOptions.newBuilder().setMapEntry(true))
              .addField(
                  FieldDescriptorProto.newBuilder()
                      .setName("key")
                      .setNumber(1)
                      .setLabel(Label.LABEL_OPTIONAL)
                      .setType(keyType))
              .addField(value)
              .build();
      entries.put(entryName, entry);
      b.addField(
          field(name, Type.TYPE_MESSAGE)
              .setLabel(Label.LABEL_REPEATED)
              .setTypeName("." + PACKAGE + "." + b.getName() + "." + entryName));
      return this;
    }

    DescriptorProto build() {
      entries.values().forEach(b::addNestedType);
      // Synthetic oneofs of proto3 optional fields must come after real ones; there are none.
      return b.build();
    }

    private static String camel(String snake) {
      StringBuilder sb = new StringBuilder();
      boolean up = true;
      for (char c : snake.toCharArray()) {
        if (c == '_') {
          up = true;
        } else {
          sb.append(up ? Character.toUpperCase(c) : c);
          up = false;
        }
      }
      return sb.toString();
    }
  }
}

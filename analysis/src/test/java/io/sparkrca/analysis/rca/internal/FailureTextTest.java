package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The catalog of failure signatures (spark_log_patterns.md, analyze_spark_oom.py's) on the shapes
 * Spark, the JVM, PySpark and the storage clients write. Kinds without a testkit fixture (a Python
 * UDF, access denied) are covered here; the others are also measured end to end in RcaAccuracyTest.
 */
class FailureTextTest {
  private static Optional<RootCauseKind> task(String text) {
    return FailureText.classify(text, false);
  }

  @Test
  void aPythonUdfExceptionIsNamedAndItsMissingModuleIsADependency() {
    String udf = String.join("\n",
        "org.apache.spark.api.python.PythonException: Traceback (most recent call last):",
        "  File \"/usr/lib/spark/python/lib/pyspark.zip/pyspark/worker.py\", line 1236, in main",
        "  File \"/tmp/job/main.py\", line 45, in parse_user_record",
        "KeyError: 'user_id'");
    assertThat(task(udf)).contains(RootCauseKind.PYTHON_UDF_FAILURE);
    assertThat(FailureText.codeLocation(udf)).contains("/tmp/job/main.py:45 in parse_user_record");
    assertThat(task(udf.replace("KeyError: 'user_id'", "ModuleNotFoundError: No module named 'shapely'")))
        .contains(RootCauseKind.MISSING_DEPENDENCY);
    assertThat(task("_pickle.PicklingError: Could not serialize object: TypeError: cannot pickle '_thread.lock' object"))
        .contains(RootCauseKind.SERIALIZATION_FAILURE);
  }

  @Test
  void outOfMemoryErrorsAreToldApartByKindAndSide() {
    assertThat(task("java.lang.OutOfMemoryError: Java heap space")).contains(RootCauseKind.EXECUTOR_OOM_HEAP);
    assertThat(task("java.lang.OutOfMemoryError: GC overhead limit exceeded")).contains(RootCauseKind.EXECUTOR_OOM_GC_OVERHEAD);
    assertThat(task("java.lang.OutOfMemoryError: Cannot reserve 16384 bytes of direct buffer memory (allocated: 33554432, limit: 33554432)"))
        .contains(RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY);
    assertThat(task("io.netty.util.internal.OutOfDirectMemoryError: failed to allocate 16777216 byte(s) of direct memory"))
        .contains(RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY);
    assertThat(FailureText.classify("java.lang.OutOfMemoryError: Java heap space", true)).contains(RootCauseKind.DRIVER_OOM);
  }

  @Test
  void storageDenialsAndMissingPathsAreNamed() {
    assertThat(task("com.google.cloud.hadoop.repackaged.gcs.com.google.api.client.googleapis.json.GoogleJsonResponseException: "
        + "403 Forbidden\nGET https://storage.googleapis.com/storage/v1/b/bucket/o/x\n{\"code\": 403, \"message\": "
        + "\"etl@p.iam.gserviceaccount.com does not have storage.objects.get access\"}")).contains(RootCauseKind.ACCESS_DENIED);
    assertThat(task("org.apache.hadoop.security.AccessControlException: Permission denied: user=etl, access=WRITE"))
        .contains(RootCauseKind.ACCESS_DENIED);
    assertThat(task("org.apache.spark.sql.AnalysisException: [PATH_NOT_FOUND] Path does not exist: gs://bucket/in."))
        .contains(RootCauseKind.INPUT_NOT_FOUND);
  }

  @Test
  void aDataErrorInsideAWriteTaskIsNotAWriteFailure() {
    String wrapped = String.join("\n",
        "org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows to gs://b/out.",
        "\tat org.apache.spark.sql.errors.QueryExecutionErrors$.taskFailedWhileWritingRowsError(QueryExecutionErrors.scala:789)",
        "Caused by: java.lang.NumberFormatException: For input string: \"12x\"",
        "\tat java.base/java.lang.Long.parseLong(Long.java:711)",
        "\tat com.acme.etl.Parse.apply(Parse.java:12)");
    assertThat(task(wrapped)).isEmpty();
    String commit = String.join("\n",
        "org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows to gs://b/out.",
        "Caused by: java.io.IOException: rename failed",
        "\tat org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter.commitTask(FileOutputCommitter.java:610)");
    assertThat(task(commit)).contains(RootCauseKind.WRITE_COMMIT_FAILURE);
  }

  @Test
  void anUnknownExceptionIsNotForcedIntoAKind() {
    assertThat(task("java.lang.IllegalStateException: the widget is broken")).isEmpty();
    assertThat(task("")).isEmpty();
  }

  @Test
  void theExcerptKeepsTheCauseAndTheUserFrameAndDropsTheRest() {
    StringBuilder trace = new StringBuilder("org.apache.spark.SparkException: Task failed\n");
    for (int i = 0; i < 40; i++) {
      trace.append("\tat org.apache.spark.Internal.step").append(i).append("(Internal.scala:").append(i).append(")\n");
    }
    trace.append("Caused by: java.lang.IllegalArgumentException: bad\n\tat com.acme.Job.run(Job.java:7)\n");
    for (int i = 0; i < 40; i++) {
      trace.append("\tat org.apache.spark.Other.step").append(i).append("(Other.scala:").append(i).append(")\n");
    }
    String excerpt = FailureText.excerpt(trace.toString(), 25);
    assertThat(excerpt).contains("Caused by: java.lang.IllegalArgumentException: bad", "com.acme.Job.run(Job.java:7)");
    assertThat(excerpt.split("\n").length).isLessThanOrEqualTo(26);
  }
}

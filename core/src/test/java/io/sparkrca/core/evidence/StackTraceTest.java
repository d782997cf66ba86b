package io.sparkrca.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class StackTraceTest {

  @Test
  void aRealTaskFailureUnfoldsToTheUsersLambda() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    for (String version : new String[] {"3.5.9", "4.0.4"}) {
      TaskFailureGroup g = EventLogs.replay(TestkitFixtures.get(version, "bad-record").eventLog())
          .facts().taskFailures().get(0);
      StackTrace t = StackTrace.parse(g.firstDetail());
      assertThat(t.rootCause().orElseThrow().className()).isEqualTo("java.lang.NumberFormatException");
      assertThat(t.rootCause().get().message()).contains("12x");
      StackFrame user = t.firstUserFrame().orElseThrow();
      assertThat(user.className()).startsWith("io.sparkrca.testkit.scenarios.Workload");
      assertThat(user.file()).isEqualTo("Workload.java");
      assertThat(user.line()).isPresent();
    }
  }

  @Test
  void theDriversUncaughtExceptionIsReadFromItsLog() throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    String log = Files.readString(TestkitFixtures.get("3.5.9", "driver-fails-before-first-action").driverLog());
    String fromMain = log.substring(log.indexOf("Exception in thread \"main\""));
    StackTrace t = StackTrace.parse(fromMain);
    assertThat(t.top().orElseThrow().className()).isEqualTo("org.apache.spark.sql.AnalysisException");
    assertThat(t.top().get().message()).contains("[PATH_NOT_FOUND]");
    // Spark checked the path on a pool thread: the trace has no frame of the user's code.
    assertThat(t.firstUserFrame()).isEmpty();
    assertThat(t.top().get().frames()).hasSizeGreaterThan(5);
  }

  @Test
  void causesAreChainedAndTheRootIsTheLast() {
    StackTrace t = StackTrace.parse(String.join("\n",
        "org.apache.spark.SparkException: Task not serializable",
        "\tat org.apache.spark.util.ClosureCleaner$.ensureSerializable(ClosureCleaner.scala:444)",
        "\tat com.acme.etl.Job.main(Job.java:31)",
        "Caused by: java.io.NotSerializableException: java.io.BufferedWriter",
        "Serialization stack:",
        "\t- object not serializable (class: java.io.BufferedWriter, value: java.io.BufferedWriter@1)",
        "\tat org.apache.spark.serializer.SerializationDebugger$.improveException(SerializationDebugger.scala:41)",
        "\t... 12 more"));
    assertThat(t.chain()).extracting(ThrownException::className)
        .containsExactly("org.apache.spark.SparkException", "java.io.NotSerializableException");
    assertThat(t.rootCause().get().message()).isEqualTo("java.io.BufferedWriter");
    // The root cause has no user frame; the search goes outwards to the wrapper's.
    assertThat(t.firstUserFrame().orElseThrow().display()).isEqualTo("com.acme.etl.Job.main(Job.java:31)");
    assertThat(t.contains("NotSerializableException")).isTrue();
  }

  @Test
  void aPythonTracebackGivesTheUsersFileAndLine() {
    // The shape of PySpark's PythonException (spark_log_patterns.md, pattern 3).
    StackTrace t = StackTrace.parse(String.join("\n",
        "org.apache.spark.api.python.PythonException: Traceback (most recent call last):",
        "  File \"/usr/lib/spark/python/lib/pyspark.zip/pyspark/worker.py\", line 1236, in main",
        "    process()",
        "  File \"/tmp/job/main.py\", line 45, in parse_user_record",
        "    return record[\"user_id\"]",
        "KeyError: 'user_id'",
        "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:572)"));
    assertThat(t.rootCause().orElseThrow().className()).isEqualTo("KeyError");
    StackFrame f = t.firstUserFrame().orElseThrow();
    assertThat(f.file()).isEqualTo("/tmp/job/main.py");
    assertThat(f.method()).isEqualTo("parse_user_record");
    assertThat(f.line().getAsInt()).isEqualTo(45);
  }
}

package io.sparkrca.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.knowledge.Wording;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LogSignaturesTest {
  /** A line each standard signature must find, as Spark, the JVM or a cluster manager writes it. */
  private static final Map<String, String> SAMPLES = Map.ofEntries(
      Map.entry(LogSignatures.JAVA_HEAP_OOM, "java.lang.OutOfMemoryError: Java heap space"),
      Map.entry(LogSignatures.GC_OVERHEAD_OOM, "java.lang.OutOfMemoryError: GC overhead limit exceeded"),
      Map.entry(LogSignatures.DIRECT_MEMORY_OOM, "java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 33554432, limit: 33554432)"),
      Map.entry(LogSignatures.OTHER_OOM, "java.lang.OutOfMemoryError: Requested array size exceeds VM limit"),
      Map.entry(LogSignatures.EXIT_ON_OOM, "Terminating due to java.lang.OutOfMemoryError: Java heap space"),
      Map.entry(LogSignatures.CONTAINER_MEMORY_KILL, "Container killed by YARN for exceeding physical memory limits. 12.2 GB of 12 GB physical memory used."),
      Map.entry(LogSignatures.EXIT_CODE, "26/11/29 14:33:12 INFO Worker: Executor app-1/0 finished with state EXITED message Command exited with code 52 exitStatus 52"),
      Map.entry(LogSignatures.SIGNAL_TERM, "26/11/29 14:33:12 ERROR CoarseGrainedExecutorBackend: RECEIVED SIGNAL TERM"),
      Map.entry(LogSignatures.EXECUTOR_LOST, "26/11/29 14:33:12 ERROR TaskSchedulerImpl: Lost executor 1 on localhost: Remote RPC client disassociated."),
      Map.entry(LogSignatures.HEARTBEAT_TIMEOUT, "WARN HeartbeatReceiver: Removing executor 2 with no recent heartbeats: 160000 ms exceeds timeout 120000 ms; Executor heartbeat timed out after 160000 ms"),
      Map.entry(LogSignatures.FETCH_FAILED, "org.apache.spark.shuffle.FetchFailedException: Failed to connect to /10.0.0.5:7337"),
      Map.entry(LogSignatures.PYTHON_EXCEPTION, "org.apache.spark.api.python.PythonException: Traceback (most recent call last):"),
      Map.entry(LogSignatures.PYTHON_WORKER_CRASH, "org.apache.spark.SparkException: Python worker exited unexpectedly (crashed)"),
      Map.entry(LogSignatures.MODULE_NOT_FOUND, "ModuleNotFoundError: No module named 'pandas'"),
      Map.entry(LogSignatures.CLASS_NOT_FOUND, "Caused by: java.lang.ClassNotFoundException: avro.DefaultSource"),
      Map.entry(LogSignatures.DEPENDENCY_CONFLICT, "java.lang.NoSuchMethodError: 'com.google.common.base.Preconditions.checkArgument(ZLjava/lang/String;J)V'"),
      Map.entry(LogSignatures.NOT_SERIALIZABLE, "org.apache.spark.SparkException: Task not serializable"),
      Map.entry(LogSignatures.PATH_NOT_FOUND, "org.apache.spark.sql.AnalysisException: [PATH_NOT_FOUND] Path does not exist: gs://bucket/in."),
      Map.entry(LogSignatures.ACCESS_DENIED, "com.google.cloud.hadoop.repackaged.gcs.com.google.api.client.googleapis.json.GoogleJsonResponseException: 403 Forbidden"),
      Map.entry(LogSignatures.ANALYSIS_ERROR, "org.apache.spark.sql.AnalysisException: [UNRESOLVED_COLUMN] A column cannot be resolved"),
      Map.entry(LogSignatures.WRITE_FAILURE, "org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows to file:/out."),
      Map.entry(LogSignatures.JOB_ABORTED, "org.apache.spark.SparkException: Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times, most recent failure: Lost task 3.3 in stage 0.0 (TID 7)"),
      Map.entry(LogSignatures.DISK_FULL, "java.io.IOException: No space left on device"),
      Map.entry(LogSignatures.DRIVER_UNCAUGHT, "Exception in thread \"main\" java.lang.IllegalStateException: boom"),
      Map.entry(LogSignatures.ERROR_LINE, "26/11/29 14:33:11 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)"),
      Map.entry(LogSignatures.SPARK_STARTED, "26/11/29 14:37:59 INFO SparkContext: Running Spark version 4.0.4"));

  @Test
  void everyStandardSignatureHasASampleItFindsAndThePrefilterLetsThrough() {
    LogSignatures sigs = LogSignatures.standard();
    Pattern prefilter = Pattern.compile(sigs.prefilter());
    assertThat(SAMPLES.keySet()).containsExactlyInAnyOrderElementsOf(
        sigs.signatures().stream().map(LogSignature::id).filter(id -> id.equals(id.toUpperCase(Locale.ROOT))).toList());
    SAMPLES.forEach((id, line) -> {
      assertThat(sigs.matching(line)).as(id + " on: " + line).contains(id);
      assertThat(prefilter.matcher(line).find()).as("prefilter on: " + line).isTrue();
    });
  }

  @Test
  void everyKnowledgeBaseFamilyIsASignatureThatFindsEachOfItsExamplesBehindTheLiteralPrefilter() {
    LogSignatures sigs = LogSignatures.standard();
    Pattern prefilter = Pattern.compile(sigs.prefilter());
    for (FailureFamily f : KnowledgeBase.standard().families()) {
      assertThat(sigs.get(f.id())).as("signature of family " + f.id()).isPresent();
      for (Wording w : f.wordings()) {
        for (String example : w.examples()) {
          assertThat(sigs.matching(example)).as(f.id() + " on: " + example).contains(f.id());
          assertThat(prefilter.matcher(example).find()).as("prefilter on: " + example).isTrue();
        }
      }
    }
    // The families' literals join the standard ones: the prefilter stays a set of literals.
    assertThat(io.sparkrca.core.logs.SearchQuery.regex(sigs.prefilter()).requiredLiterals()).isPresent();
  }

  @Test
  void ordinaryInfoLinesMatchNothing() {
    LogSignatures sigs = LogSignatures.standard();
    assertThat(sigs.matching("26/11/29 14:33:03 INFO CodeGenerator: Code generated in 334.986011 ms")).isEmpty();
    assertThat(sigs.matching("26/11/29 14:33:03 INFO DAGScheduler: Job 0 finished: count at X.java:12, took 1.2 s")).isEmpty();
  }

  @Test
  void anAddedSignatureIsScannedForEvenWithoutAStandardLiteral() {
    LogSignatures sigs = LogSignatures.standard().plus(new LogSignature("QUOTA", "warehouse quota", "quota reached"));
    assertThat(sigs.matching("INFO Warehouse: quota reached for team")).containsExactly("QUOTA");
    assertThat(Pattern.compile(sigs.prefilter()).matcher("INFO Warehouse: quota reached").find()).isTrue();
  }

  @Test
  void eachSignatureMatchesWhatItsWholeExpressionMatches() {
    LogSignatures sigs = LogSignatures.standard();
    java.util.List<String> lines = new java.util.ArrayList<>();
    for (FailureFamily f : KnowledgeBase.standard().families()) {
      for (Wording w : f.wordings()) {
        for (String e : w.examples()) {
          lines.add(e);
          lines.add("26/11/29 14:31:30 ERROR Executor: " + e);
          lines.add(e.toLowerCase(Locale.ROOT));
          lines.add(e.substring(0, e.length() / 2));
        }
      }
    }
    lines.add("26/11/29 14:31:30 INFO CoarseGrainedExecutorBackend: Got assigned task 7");
    lines.add("Exception in thread \"main\" java.lang.IllegalStateException at CoarseGrainedExecutorBackend.main(");
    for (String line : lines) {
      java.util.List<String> expected = new java.util.ArrayList<>();
      for (LogSignature s : sigs.signatures()) {
        if (Pattern.compile(s.regex()).matcher(line).find()) {
          expected.add(s.id());
        }
      }
      assertThat(sigs.matching(line)).as(line).isEqualTo(expected);
    }
  }

  @Test
  void anExpressionIsSplitAtItsTopLevelAlternativesOnlyWhereThatKeepsItsMeaning() {
    assertThat(LogSignatures.alternatives("(?:a|b)|c[|]d|e\\|f")).containsExactly("(?:a|b)", "c[|]d", "e\\|f");
    assertThat(LogSignatures.alternatives("(?i)abc|def")).containsExactly("(?i)abc|def");
    assertThat(LogSignatures.alternatives("(a)x\\1|y")).containsExactly("(a)x\\1|y");
    assertThat(LogSignatures.alternatives("\\Qa|b\\E|c")).containsExactly("\\Qa|b\\E|c");
    assertThat(LogSignatures.alternatives("abc")).containsExactly("abc");
  }
}

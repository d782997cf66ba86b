package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU running out of its memory is an out-of-memory failure of its own ({@code ACCELERATOR_OOM}),
 * not a deterministic failure on the data, even when the same partition fails on every attempt: the
 * real bad-record run (partition 2 of stage 0 fails four times) with its exception replaced by the
 * errors the RAPIDS Accelerator and CUDA report.
 */
class GpuOutOfMemoryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry",
      "com.nvidia.spark.rapids.jni.GpuRetryOOM: GPU OutOfMemory",
      "java.lang.RuntimeException: CUDA error: out of memory",
      "ai.rapids.cudf.RmmException: RMM failure at:arena.hpp:382: Maximum pool size exceeded (std::bad_alloc: "
          + "out_of_memory: RMM failure at: arena out of memory)"})
  void aGpuOutOfMemoryOnEveryAttemptIsAnAcceleratorOomNotADataFailure(String error, @TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(withError(f, error, dir).toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.ACCELERATOR_OOM);
    assertThat(r.rootCause().explanation()).doesNotContainIgnoringCase("deterministic")
        .contains("the GPU's memory on executor driver that ran out, not the JVM's heap")
        .doesNotContain("spark.driver.memory", "unified memory");
    assertThat(r.rootCause().stageIds()).containsExactly(0);
    assertThat(r.rootCause().partitionIndex()).contains(2);
    assertThat(r.recommendations()).flatExtracting(x -> x.properties()).extracting(PropertyChange::property)
        .contains("spark.rapids.sql.concurrentGpuTasks", "spark.rapids.sql.batchSizeBytes");
    assertThat(r.recommendations()).anySatisfy(x -> assertThat(x.action()).contains("spark.rapids.memory.gpu.allocFraction"));
  }

  /** The run as it reads when {@code error} (class: message) failed the task instead of the bad record. */
  private static Path withError(TestkitFixtures.Fixture f, String error, Path dir) throws IOException {
    String cls = error.substring(0, error.indexOf(": "));
    String message = error.substring(error.indexOf(": ") + 2);
    String quoted = JSON.writeValueAsString(error);
    String was = JSON.writeValueAsString("java.lang.NumberFormatException: For input string: \"12x\"");
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line.replace(was.substring(1, was.length() - 1),
          quoted.substring(1, quoted.length() - 1)));
      if (e.path("Task End Reason").path("Reason").asText().equals("ExceptionFailure")) {
        ((ObjectNode) e.get("Task End Reason")).put("Class Name", cls).put("Description", message);
      }
      out.add(JSON.writeValueAsString(e));
    }
    String all = String.join("\n", out);
    assertThat(all).doesNotContain("NumberFormatException: For input").contains(message);
    return Files.writeString(dir.resolve(f.eventLog().getFileName()), all + "\n", StandardCharsets.UTF_8);
  }
}

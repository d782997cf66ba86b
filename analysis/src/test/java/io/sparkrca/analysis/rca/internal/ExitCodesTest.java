package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExitCodesTest {
  @Test
  void theExitCodeIsReadFromEveryClusterManagersWording() {
    assertThat(ExitCodes.find("Command exited with code 52")).hasValue(52);
    assertThat(ExitCodes.find("Container marked as failed: container_1_01_000002 on host: h. Exit status: 137. Diagnostics: ...")).hasValue(137);
    assertThat(ExitCodes.find("The executor with id 3 exited with exit code 137(SIGKILL, possible container OOM).")).hasValue(137);
    assertThat(ExitCodes.find("Executor heartbeat timed out after 130000 ms")).isEmpty();
  }

  @Test
  void eachCodeSaysWhatItMeansAndWhereTheProofIs() {
    assertThat(ExitCodes.meaning(3).get().meaning()).contains("ExitOnOutOfMemoryError");
    assertThat(ExitCodes.meaning(52).get().memory()).isTrue();
    assertThat(ExitCodes.meaning(137).get().proof()).contains("OOMKilled");
    assertThat(ExitCodes.meaning(143).get().meaning()).contains("SIGTERM");
    assertThat(ExitCodes.meaning(56).get().meaning()).contains("heartbeats");
    assertThat(ExitCodes.meaning(12345)).isEmpty();
  }

  @Test
  void aContainerKilledForItsMemoryIsRecognised() {
    assertThat(ExitCodes.memoryKill("Container killed by YARN for exceeding physical memory limits. 12.2 GB of 12 GB physical memory used")).isTrue();
    assertThat(ExitCodes.memoryKill("The executor with id 3 exited with exit code 137(SIGKILL, possible container OOM).")).isTrue();
    assertThat(ExitCodes.memoryKill("Command exited with code 137")).isFalse();
  }
}

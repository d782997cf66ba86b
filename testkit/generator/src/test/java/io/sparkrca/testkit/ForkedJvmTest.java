package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkedJvmTest {

  @Test
  void timeoutKillsTheWholeProcessTree(@TempDir Path dir) throws Exception {
    Path pidFile = dir.resolve("child.pid");
    ForkedJvm fork = new ForkedJvm(TreeSpawner.class.getName(),
        List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)),
        List.of("-Xmx64m"), List.of("parent", pidFile.toString()), Map.of(), dir);

    // Generous enough for two JVMs to start on a busy machine, far below their 10-minute sleep.
    ForkedJvm.Outcome outcome = fork.run(dir.resolve("out"), dir.resolve("err"), Duration.ofSeconds(8));

    assertThat(outcome.timedOut()).isTrue();
    assertThat(outcome.exitCode()).isNull();
    assertThat(outcome.survivorPids()).isEmpty();
    assertThat(pidFile).as("the child JVM started before the timeout").exists();
    long childPid = Long.parseLong(Files.readString(pidFile).trim());
    assertThat(ProcessHandle.of(childPid).map(ProcessHandle::isAlive).orElse(false))
        .as("grandchild %d still alive", childPid).isFalse();
  }

  @Test
  void normalExitReportsItsCode(@TempDir Path dir) throws Exception {
    ForkedJvm fork = new ForkedJvm("io.sparkrca.testkit.ExitWith",
        List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)),
        List.of("-Xmx64m"), List.of("3"), Map.of(), dir);

    ForkedJvm.Outcome outcome = fork.run(dir.resolve("out"), dir.resolve("err"), Duration.ofMinutes(1));

    assertThat(outcome.timedOut()).isFalse();
    assertThat(outcome.exitCode()).isEqualTo(3);
  }
}

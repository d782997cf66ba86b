package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.analysis.SparkGoldenLogs;
import io.sparkrca.analysis.rca.RcaEngine;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retried task failures on Spark's own golden event logs (real runs with failures injected on executors). */
class TaskFailureAnalyzerTest {
  @TempDir Path dir;

  private RcaReport rca(String golden) throws IOException {
    return RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(SparkGoldenLogs.copy(golden, dir).toString()).build().collect());
  }

  private static Finding retried(RcaReport r) {
    return r.findings().stream().filter(f -> f.kind() == RootCauseKind.FLAKY_INFRASTRUCTURE
        && f.title().startsWith("A transient task failure")).findFirst().orElseThrow();
  }

  @Test
  void aHostIsNotSuspectedWhenEveryExecutorRanOnIt() throws IOException {
    // local-cluster[4,4,1024]: four workers, one machine; the failed attempts were all on it, as was everything.
    RcaReport r = rca("app-20161115172038-0000");

    assertThat(r.rootCause().explanation()).contains("succeeded when retried").doesNotContain("suspect that host");
    assertThat(r.recommendations()).noneMatch(rec -> rec.properties().stream()
        .anyMatch(p -> p.property().equals("spark.excludeOnFailure.enabled")));
    assertThat(retried(r).summary()).contains("succeeded on retry");
  }

  @Test
  void aHostIsSuspectedWhenTheOtherHostsRanWithoutFailures() throws IOException {
    // YARN: all 4 failed attempts on apiros-2, while apiros-3 ran executors 1 and 2 without one.
    RcaReport r = rca("application_1516285256255_0012");

    assertThat(r.recommendations()).anyMatch(rec -> rec.properties().stream()
        .anyMatch(p -> p.property().equals("spark.excludeOnFailure.enabled")));
    assertThat(r.findings()).anyMatch(f -> f.title().equals("Failures concentrate on host apiros-2.gce.test.com"));
  }
}

package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sparkrca.core.evidence.ClusterEvidenceProvider.ClusterEvidence;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.kubernetes.testing.LogStreamServer;
import io.sparkrca.kubernetes.testing.LogStreamServer.Body;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod log whose body never comes to an end: the headers arrive (so fabric8's request timeout is
 * over), then the body stalls, trickles, or streams without end because the server ignores
 * tailLines. Each read ends anyway, keeps what it read, and says with a gap that the log was cut
 * and why; none holds {@code k8s logs} or {@code rca}.
 */
class KubernetesLogStreamTest {
  /** A hang guard, far beyond any deadline here: the reads must end on their own long before. */
  private static final Duration GUARD = Duration.ofSeconds(90);
  private static final SparkPods.Target TARGET = SparkPods.Target.of(LogStreamServer.APP_ID);
  @TempDir Path dir;

  private static KubernetesSettings.Builder settings(LogStreamServer s, Path dir) {
    return KubernetesSettings.builder().kubeconfig(s.kubeconfig(dir)).retries(0)
        .connectTimeout(Duration.ofSeconds(30)).requestTimeout(Duration.ofSeconds(60));
  }

  private static LogsView logs(KubernetesSettings s) {
    try (SparkPods k8s = SparkPods.connect(s)) {
      return k8s.logs(TARGET, Optional.empty(), false);
    }
  }

  private static List<EvidenceGap> logGaps(List<EvidenceGap> gaps) {
    return gaps.stream().filter(g -> g.uri().contains("/log?")).toList();
  }

  @Test
  void aLogThatStallsAfterALineEndsAtTheRequestTimeoutWithThatLineAndATimeoutGap() {
    try (LogStreamServer s = LogStreamServer.start(Body.STALL_AFTER_A_LINE)) {
      KubernetesSettings k = settings(s, dir).requestTimeout(Duration.ofSeconds(2)).build();

      LogsView v = assertTimeoutPreemptively(GUARD, () -> logs(k));

      assertThat(v.logs()).singleElement().satisfies(t -> {
        assertThat(t.pod()).isEqualTo(LogStreamServer.DRIVER_POD);
        assertThat(t.text()).contains(LogStreamServer.FIRST_LINE);
        assertThat(t.scan().notes()).anySatisfy(n -> assertThat(n).contains("before the log ended"));
      });
      assertThat(logGaps(v.gaps())).singleElement().satisfies(g -> {
        assertThat(g.what()).isEqualTo("driver log");
        assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT);
        assertThat(g.detail()).contains("the driver's log (" + LogStreamServer.DRIVER_POD + ") was cut")
            .contains("reading stopped after 2000 ms (the request timeout)").contains("later lines are missing");
        assertThat(g.whatToDo()).contains("raise the request timeout");
      });
    }
  }

  @Test
  void aStalledLogEndsWhenTheTimeBudgetIsSpentEvenUnderALongRequestTimeout() {
    try (LogStreamServer s = LogStreamServer.start(Body.STALL_AFTER_A_LINE)) {
      KubernetesSettings k = settings(s, dir).budget(Duration.ofSeconds(3)).build();

      // rca's path: the evidence with the log's scan and the gap.
      ClusterEvidence e = assertTimeoutPreemptively(GUARD, () -> {
        try (SparkPods k8s = SparkPods.connect(k)) {
          return k8s.evidence(TARGET, LogSignatures.standard());
        }
      });

      assertThat(e.logs()).singleElement().satisfies(l -> assertThat(l.linesScanned()).isEqualTo(1));
      assertThat(logGaps(e.gaps())).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT);
        assertThat(g.detail()).contains("what was left of the time budget of 3 s");
        assertThat(g.whatToDo()).contains("the Kubernetes time budget");
      });
    }
  }

  @Test
  void aLogThatTricklesWithoutEndIsCutAtTheDeadlineKeepingWhatCame() {
    try (LogStreamServer s = LogStreamServer.start(Body.TRICKLE)) {
      KubernetesSettings k = settings(s, dir).requestTimeout(Duration.ofSeconds(2)).build();

      LogsView v = assertTimeoutPreemptively(GUARD, () -> logs(k));

      assertThat(v.logs()).singleElement().satisfies(t -> assertThat(t.text()).startsWith(LogStreamServer.FIRST_LINE)
          .contains("still running 0"));
      assertThat(logGaps(v.gaps())).singleElement().satisfies(g -> assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT));
    }
  }

  @Test
  void aLogThatNeverEndsIsReadOnlyToABoundAndTheCutIsAGap() {
    try (LogStreamServer s = LogStreamServer.start(Body.ENDLESS)) {
      // A request timeout far beyond the guard: only the bound on the bytes read can end this.
      KubernetesSettings k = settings(s, dir).requestTimeout(Duration.ofMinutes(10)).budget(Duration.ofMinutes(10))
          .maxLogBytes(4096).build();

      LogsView v = assertTimeoutPreemptively(GUARD, () -> logs(k));

      assertThat(v.logs()).singleElement().satisfies(t -> {
        assertThat(t.cut()).isTrue();
        assertThat(t.text().length()).isLessThanOrEqualTo(4096);
        assertThat(t.text()).contains("a log line that goes on and on");
      });
      assertThat(logGaps(v.gaps())).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.PARTIAL);
        assertThat(g.detail()).contains("was cut: reading stopped after " + 8 * 4096 + " bytes")
            .contains("did not apply tailLines").contains("need not be the log's last lines");
        assertThat(g.whatToDo()).contains("kubectl logs --tail=2000");
      });
    }
  }
}

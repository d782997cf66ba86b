package io.sparkrca.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link AnalysisContext#derived}: a value computed once per analysis and shared. */
class AnalysisContextDerivedTest {
  record Stages(int count) {}

  record Twice(int count) {}

  @Test
  void aDerivedValueIsComputedOnceAndMayBuildOnAnother() {
    AnalysisContext ctx = new AnalysisContext(EvidenceCollector.builder()
        .application(TestkitFixtures.get("3.5.9", "healthy").eventLog().toString()).build().collect());
    AtomicInteger computed = new AtomicInteger();

    Stages first = ctx.derived(Stages.class, c -> {
      computed.incrementAndGet();
      return new Stages(c.stages().size());
    });
    Stages again = ctx.derived(Stages.class, c -> new Stages(-1));
    Twice twice = ctx.derived(Twice.class, c -> new Twice(2 * c.derived(Stages.class, x -> new Stages(-1)).count()));

    assertThat(again).isSameAs(first);
    assertThat(computed).hasValue(1);
    assertThat(first.count()).isEqualTo(ctx.stages().size()).isPositive();
    assertThat(twice.count()).isEqualTo(2 * first.count());
  }
}

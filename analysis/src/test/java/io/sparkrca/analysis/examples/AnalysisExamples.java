package io.sparkrca.analysis.examples;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;
import java.util.Map;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.analysis}, compiled (see {@link JavadocExamplesTest}). */
class AnalysisExamples {
  /** An analyzer's own derived type, for the example of {@code AnalysisContext#derived}. */
  record Grouping(int hosts) {
    static Grouping of(AnalysisContext ctx) {
      return new Grouping(0);
    }
  }

  /** The example of {@code AnalysisContext}. */
  void analysisContext(AnalysisContext ctx) throws Exception {
    for (StageData s : ctx.completedStages()) {
      ctx.quantiles(s).ifPresent(q -> System.out.println(s.stageId() + " median " + q.duration().get(2) + " ms"));
    }
  }

  /** The example of {@code AnalysisContext}. */
  void analysisContextDerived(AnalysisContext ctx) throws Exception {
    Grouping byHost = ctx.derived(Grouping.class, Grouping::of); // Grouping: an analyzer's own type
  }

  /** The example of {@code AnalysisContext}. */
  void analysisContextInteractiveSession(AnalysisContext ctx) throws Exception {
    ctx.interactiveSession().ifPresent(why -> System.out.println("interactive: " + why));
  }

  /** The example of {@code EffectiveConf}. */
  void effectiveConf(SparkApplication app) throws Exception {
    EffectiveConf conf = EffectiveConf.of(app);
    if (!conf.isTrue("spark.sql.adaptive.enabled")) { System.out.println("AQE is off"); }
    long heap = conf.bytes("spark.executor.memory").orElse(1L << 30);
  }

  /** The example of {@code EffectiveConf#observed}. */
  void effectiveConfObserved() {
    EffectiveConf c = EffectiveConf.of(Map.of(), Optional.of("3.5.1"))
        .observed(false, Map.of("spark.driver.memory", 600L << 20));
    c.cite("spark.driver.memory"); // "spark.driver.memory (unset; the JVM's heap was about 600.0 MiB, not the 1g default)"
  }
}

package io.sparkrca.analysis.examples;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;

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
}

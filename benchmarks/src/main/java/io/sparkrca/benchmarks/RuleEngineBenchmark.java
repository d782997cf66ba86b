package io.sparkrca.benchmarks;

import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.rules.StageTelemetry;
import java.util.Arrays;
import java.util.Locale;

/**
 * StageRuleEngine benchmark: the recommended catalog over a synthetic application of 10,000 stage
 * attempts ({@link SyntheticApplication}). Compiles once, maps once, then evaluates repeatedly
 * and prints the median and best of the measured rounds after warm-up. A plain {@code main}, like
 * the other harnesses here: the quantity is one call's latency.
 *
 * <pre>
 * mvn -B -pl benchmarks -am verify -DskipTests -Prules-bench
 * </pre>
 */
public final class RuleEngineBenchmark {
  private RuleEngineBenchmark() {}

  public static void main(String[] args) {
    int stages = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;

    long t0 = System.nanoTime();
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    long t1 = System.nanoTime();
    SyntheticApplication app = new SyntheticApplication(stages, 42);
    long t2 = System.nanoTime();
    StageTelemetry telemetry = StageTelemetry.from(app);
    long t3 = System.nanoTime();
    for (int i = 0; i < 2; i++) {
      telemetry = StageTelemetry.from(app);
    }
    long t4 = System.nanoTime();
    telemetry = StageTelemetry.from(app);
    long t5 = System.nanoTime();

    StageDiagnostics last = null;
    for (int i = 0; i < warmup; i++) {
      last = engine.evaluate(telemetry);
    }
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    double[] ms = new double[rounds];
    double[] cpu = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long c = threads.getCurrentThreadCpuTime();
      long s = System.nanoTime();
      last = engine.evaluate(telemetry);
      ms[i] = (System.nanoTime() - s) / 1e6;
      cpu[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
    }
    Arrays.sort(ms);
    Arrays.sort(cpu);
    System.out.printf(Locale.ROOT, "load average at the end:   %.2f on %d cores%n",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors());
    System.out.printf(Locale.ROOT, "stage attempts:            %,d%n", telemetry.stageCount());
    System.out.printf(Locale.ROOT, "rules (recommended):       %d%n", engine.rules().size());
    System.out.printf(Locale.ROOT, "compile catalog (cold):    %.0f ms%n", (t1 - t0) / 1e6);
    System.out.printf(Locale.ROOT, "build synthetic model:     %.0f ms%n", (t2 - t1) / 1e6);
    System.out.printf(Locale.ROOT, "map model -> Dataproc:     %.0f ms cold, %.0f ms warm%n", (t3 - t2) / 1e6, (t5 - t4) / 1e6);
    System.out.printf(Locale.ROOT, "evaluate, CPU time median: %.0f ms (best %.0f ms)%n", cpu[rounds / 2], cpu[0]);
    System.out.printf(Locale.ROOT, "evaluate, median of %d:    %.0f ms%n", rounds, ms[rounds / 2]);
    System.out.printf(Locale.ROOT, "evaluate, best:            %.0f ms%n", ms[0]);
    System.out.printf(Locale.ROOT, "evaluate, worst:           %.0f ms%n", ms[rounds - 1]);
    StageRuleEngine parallel = StageRuleEngine.builder().recommended().parallelism(2).build();
    for (int i = 0; i < warmup; i++) {
      parallel.evaluate(telemetry);
    }
    double[] pms = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long s = System.nanoTime();
      parallel.evaluate(telemetry);
      pms[i] = (System.nanoTime() - s) / 1e6;
    }
    Arrays.sort(pms);
    System.out.printf(Locale.ROOT, "evaluate, 2 threads, median: %.0f ms (best %.0f ms)%n", pms[rounds / 2], pms[0]);
    System.out.printf(Locale.ROOT, "violations: %d rules matched, %d stage attempts flagged, %d warnings%n",
        last.violations().size(), last.stageMetrics().size(), last.warnings().size());
  }
}

package io.sparkrca.core.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FormatsTest {
  private static String exact(double v, int decimals) {
    return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  @Test
  void fixedWritesWhatTheExactExpansionRoundedHalfEvenWrites() {
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 200_000; i++) {
      int decimals = random.nextInt(4);
      double magnitude = Math.pow(10, random.nextInt(-4, 14));
      double v = (random.nextDouble() * 2 - 1) * magnitude;
      if (i % 7 == 0) {
        v = Math.rint(v); // whole numbers: milliseconds, bytes, counts
      }
      assertThat(Formats.fixed(v, decimals)).as("%s with %d decimals", v, decimals).isEqualTo(exact(v, decimals));
    }
  }

  @Test
  void fixedRoundsTiesToEvenOnTheBinaryValue() {
    for (double v : new double[] {0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005, 0.05, 0.15, 0.25, 0.35, 1e-9, -1e-9}) {
      for (int d = 0; d < 4; d++) {
        assertThat(Formats.fixed(v, d)).as("%s with %d decimals", v, d).isEqualTo(exact(v, d));
      }
    }
    assertThat(Formats.fixed(2.5, 0)).isEqualTo("2");
    assertThat(Formats.fixed(0.125, 2)).isEqualTo("0.12");
    assertThat(Formats.fixed(-0.04, 1)).isEqualTo("0.0");
    assertThat(Formats.fixed(-0.0, 2)).isEqualTo("0.00");
    assertThat(Formats.fixed(1e15 + 0.3, 1)).isEqualTo(exact(1e15 + 0.3, 1));
  }

  @Test
  void fixedWritesNanAndInfinityAsJavaDoes() {
    assertThat(Formats.fixed(Double.NaN, 1)).isEqualTo("NaN");
    assertThat(Formats.fixed(Double.POSITIVE_INFINITY, 0)).isEqualTo("Infinity");
  }

  @Test
  void aCountAgreesWithItsNoun() {
    assertThat(Formats.count(1, "stage")).isEqualTo("1 stage");
    assertThat(Formats.count(0, "executor")).isEqualTo("0 executors");
    assertThat(Formats.count(3, "task attempt")).isEqualTo("3 task attempts");
    assertThat(Formats.count(2, "class")).isEqualTo("2 classes");
    assertThat(Formats.count(2, "retry")).isEqualTo("2 retries");
    assertThat(Formats.count(2, "day")).isEqualTo("2 days");
    assertThat(Formats.count(2, "child", "children")).isEqualTo("2 children");
    assertThat(Formats.noun(1, "job")).isEqualTo("job");
    assertThat(Formats.noun(5, "job")).isEqualTo("jobs");
  }
}

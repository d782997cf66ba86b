package io.sparkrca.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EffectiveConfTest {
  @Test
  void sizesAreReadInSparksSyntax() {
    assertThat(EffectiveConf.parseBytes("512m")).hasValue(512L << 20);
    assertThat(EffectiveConf.parseBytes("1g")).hasValue(1L << 30);
    assertThat(EffectiveConf.parseBytes("10485760")).hasValue(10485760);
    assertThat(EffectiveConf.parseBytes("1.5gb")).hasValue(3L << 29);
    assertThat(EffectiveConf.parseBytes("-1")).hasValue(-1);
    assertThat(EffectiveConf.parseBytes("lots")).isEmpty();
    assertThat(EffectiveConf.sparkSize(1L << 30)).isEqualTo("1g");
    assertThat(EffectiveConf.sparkSize(768L << 20)).isEqualTo("768m");
  }

  @Test
  void unsetPropertiesHaveSparksDefaultForTheVersion() {
    EffectiveConf recent = EffectiveConf.of(Map.of("spark.memory.fraction", "0.1"), Optional.of("3.5.9"));
    assertThat(recent.isTrue("spark.sql.adaptive.enabled")).isTrue();
    assertThat(recent.cite("spark.sql.shuffle.partitions")).isEqualTo("spark.sql.shuffle.partitions=200 (default)");
    assertThat(recent.cite("spark.memory.fraction")).isEqualTo("spark.memory.fraction=0.1");
    assertThat(recent.isNonDefault("spark.memory.fraction")).isTrue();
    assertThat(EffectiveConf.of(Map.of("spark.memory.fraction", "0.60"), Optional.empty()).isNonDefault("spark.memory.fraction")).isFalse();
    assertThat(EffectiveConf.of(Map.of("spark.executor.memory", "1024m"), Optional.empty()).isNonDefault("spark.executor.memory")).isFalse();
    assertThat(EffectiveConf.of(Map.of(), Optional.of("3.1.2")).isTrue("spark.sql.adaptive.enabled")).isFalse();
  }

  @Test
  void aHeapTheJvmShowedIsCitedInsteadOfTheDefaultAndTheLogsSilenceAsUnknown() {
    EffectiveConf unset = EffectiveConf.of(Map.of(), Optional.of("3.5.1"));
    EffectiveConf small = unset.observed(false, Map.of("spark.driver.memory", 600L << 20));
    assertThat(small.cite("spark.driver.memory"))
        .isEqualTo("spark.driver.memory (unset; the JVM's heap was about 600.0 MiB, not the 1g default)");
    assertThat(small.get("spark.driver.memory")).contains("600m");
    // A JVM reports a little less than its -Xmx: within a fifth of the default it is the default.
    EffectiveConf near = unset.observed(false, Map.of("spark.driver.memory", 910L << 20));
    assertThat(near.cite("spark.driver.memory")).isEqualTo("spark.driver.memory=1g (default)");
    EffectiveConf logs = unset.observed(true, Map.of("spark.executor.memory", 512L << 20));
    assertThat(logs.cite("spark.executor.memory"))
        .isEqualTo("spark.executor.memory (not shown in the logs; the JVM's heap was about 512.0 MiB)");
    assertThat(logs.cite("spark.sql.shuffle.partitions")).isEqualTo("spark.sql.shuffle.partitions (not shown in the logs)");
    assertThat(EffectiveConf.of(Map.of("spark.driver.memory", "2g"), Optional.empty())
        .observed(true, Map.of("spark.driver.memory", 600L << 20)).cite("spark.driver.memory")).isEqualTo("spark.driver.memory=2g");
  }
}

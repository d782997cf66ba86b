package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerlessLimitsTest {
  private static EffectiveConf conf(Map<String, String> set) {
    return EffectiveConf.of(set, Optional.of("3.5.1"));
  }

  private static Map<String, String> byKey(List<PropertyChange> ps) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    ps.forEach(p -> m.put(p.property(), p.recommended()));
    return m;
  }

  @Test
  void coresAreRaisedToTheNextCountServerlessAllows() {
    List<String> why = new ArrayList<>();
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of()),
        List.of(new PropertyChange("spark.executor.cores", Optional.of("4"), "6")), why);
    assertThat(byKey(out)).containsEntry("spark.executor.cores", "8");
    assertThat(why).anySatisfy(w -> assertThat(w).contains("4, 8 or 16", "6 becomes 8"));
  }

  @Test
  void memoryPastTheStandardTiersPerCoreCapMovesToMoreCores() {
    List<String> why = new ArrayList<>();
    // 40g + 4g overhead on 4 cores is 11 GiB a core, past 7424m: 8 cores hold it (58 GiB).
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of("spark.executor.memory", "20g",
        "spark.executor.memoryOverhead", "4g")), List.of(new PropertyChange("spark.executor.memory", Optional.of("20g"), "40g")), why);
    assertThat(byKey(out)).containsEntry("spark.executor.memory", "40g").containsEntry("spark.executor.cores", "8");
    assertThat(why).anySatisfy(w -> assertThat(w).contains("per core (standard tier)", "rises to 8"));
  }

  @Test
  void memoryNoCoreCountHoldsIsCappedAndSaysSo() {
    List<String> why = new ArrayList<>();
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of("spark.executor.memoryOverhead", "1g")),
        List.of(new PropertyChange("spark.executor.memory", Optional.empty(), "200g")), why);
    // 16 cores x 7424m = 116g in all, less the 1g overhead.
    assertThat(byKey(out)).containsEntry("spark.executor.memory", "115g").containsEntry("spark.executor.cores", "16");
    assertThat(why).anySatisfy(w -> assertThat(w).contains("capped at 115g", "even at 16 cores"));
  }

  @Test
  void thePremiumTierAllowsMoreMemoryPerCore() {
    List<String> why = new ArrayList<>();
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of("spark.dataproc.executor.compute.tier", "premium",
        "spark.executor.memoryOverhead", "4g")), List.of(new PropertyChange("spark.executor.memory", Optional.empty(), "40g")), why);
    assertThat(byKey(out)).containsOnlyKeys("spark.executor.memory");
    assertThat(why).isEmpty();
  }

  @Test
  void lessThan1024mPerCoreIsRaised() {
    List<String> why = new ArrayList<>();
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of("spark.executor.memoryOverhead", "384m")),
        List.of(new PropertyChange("spark.executor.memory", Optional.empty(), "2g")), why);
    assertThat(byKey(out)).containsEntry("spark.executor.memory", "3712m");
    assertThat(why).anySatisfy(w -> assertThat(w).contains("at least 1024m per core"));
  }

  @Test
  void executorCountsStayWithinServerlessBoundsAndShuffleServiceIsNeverRecommended() {
    List<String> why = new ArrayList<>();
    List<PropertyChange> out = ServerlessLimits.fit(conf(Map.of()), List.of(
        new PropertyChange("spark.dynamicAllocation.maxExecutors", Optional.of("1000"), "5000"),
        new PropertyChange("spark.dynamicAllocation.minExecutors", Optional.empty(), "0"),
        new PropertyChange("spark.dynamicAllocation.initialExecutors", Optional.empty(), "400"),
        new PropertyChange("spark.executor.instances", Optional.empty(), "1500"),
        new PropertyChange("spark.shuffle.service.enabled", Optional.of("false"), "true"),
        new PropertyChange("spark.yarn.executor.memoryOverhead", Optional.empty(), "2g")), why);
    // The autoscaling page's table: initial 2-100, min at least 2, max at most 1000; instances (properties page) up to 2000.
    assertThat(byKey(out)).containsExactly(Map.entry("spark.dynamicAllocation.maxExecutors", "1000"),
        Map.entry("spark.dynamicAllocation.minExecutors", "2"), Map.entry("spark.dynamicAllocation.initialExecutors", "100"),
        Map.entry("spark.executor.instances", "1500"));
    assertThat(why).contains("spark.dynamicAllocation.initialExecutors 400 is outside Serverless' 2-100 for it: 100");
    assertThat(why).anySatisfy(w -> assertThat(w).contains("spark.shuffle.service.enabled is not supported"));
  }

  @Test
  void aValueTheApplicationAlreadySetsIsTheSameWhateverItsSpelling() {
    EffectiveConf c = conf(Map.of("spark.sql.shuffle.partitions", "400", "spark.executor.memory", "8192m",
        "spark.sql.adaptive.enabled", "true"));
    assertThat(ServerlessLimits.sameAsSet(c, new PropertyChange("spark.sql.shuffle.partitions", Optional.of("400"), "400"))).isTrue();
    assertThat(ServerlessLimits.sameAsSet(c, new PropertyChange("spark.executor.memory", Optional.of("8192m"), "8g"))).isTrue();
    assertThat(ServerlessLimits.sameAsSet(c, new PropertyChange("spark.sql.adaptive.enabled", Optional.of("true"), "TRUE"))).isTrue();
    assertThat(ServerlessLimits.sameAsSet(c, new PropertyChange("spark.executor.memory", Optional.of("8192m"), "16g"))).isFalse();
    assertThat(ServerlessLimits.sameAsSet(c, new PropertyChange("spark.driver.memory", Optional.of("1g"), "1g")))
        .as("a default the application did not set is not 'already set'").isFalse();
  }
}

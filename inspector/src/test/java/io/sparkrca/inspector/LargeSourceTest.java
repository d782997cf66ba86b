package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.ByteSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Generated scripts of megabytes: the analysis stays linear (it was quadratic: a 1 MB script
 * took a minute, a 5 MB one never finished) and the findings are capped, saying how many more
 * there were.
 */
class LargeSourceTest {
  /** A guard against a hang only; the scripts below take a few seconds. */
  private static final Duration HANG_GUARD = Duration.ofSeconds(120);

  private static String repeat(String line, int times) {
    StringBuilder b = new StringBuilder(line.length() * times + 64);
    b.append("from pyspark.sql import SparkSession\n");
    b.append("spark = SparkSession.builder.getOrCreate()\n");
    for (int i = 0; i < times; i++) {
      b.append(line.replace("{i}", Integer.toString(i))).append('\n');
    }
    return b.toString();
  }

  private static Inspection inspect(String name, String script, ClassInspector inspector) {
    byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
    return assertTimeoutPreemptively(HANG_GUARD,
        () -> inspector.inspect(ByteSource.of(name, bytes), Optional.empty()));
  }

  @Test
  void aFiveMegabyteScriptOfCollectsIsAnalysedWithoutHangingAndItsFindingsAreCapped()
      throws Exception {
    int lines = 110_000;
    String script = repeat("df = spark.read.parquet('gs://b/x').collect()", lines);
    assertThat(script.length()).isGreaterThan(5_000_000);

    Inspection i = inspect("df5.py", script, ClassInspector.create());

    assertThat(i.findings()).hasSize(FindingCap.PER_PATTERN)
        .allSatisfy(f -> assertThat(f.pattern()).isEqualTo(AntiPattern.COLLECT_UNBOUNDED));
    assertThat(i.findings().get(0).line()).hasValue(3); // the first ones are kept, by line
    assertThat(i.findingsOmitted()).isEqualTo(lines - FindingCap.PER_PATTERN);
    String text = i.toText();
    assertThat(text).contains("Spark anti-patterns (110,000; the first 50 shown)")
        .contains("109,950 more findings not shown")
        .contains("at most 50 of each pattern and 200 in all");
    assertThat(text.length()).isLessThan(100_000);
    assertThat(i.toMarkdown()).contains("109,950 more findings not shown");
    JsonNode json = new ObjectMapper().readTree(i.toJson());
    assertThat(json.get("findings")).hasSize(FindingCap.PER_PATTERN);
    assertThat(json.get("findingsTotal").asInt()).isEqualTo(lines);
    assertThat(json.get("findingsOmitted").asInt()).isEqualTo(lines - FindingCap.PER_PATTERN);
    assertThat(json.get("findingsCut").asText()).contains("109,950 more findings not shown");
  }

  @Test
  void findingsOfManyPatternsAreCappedPerPatternAndInAll() throws Exception {
    // Five patterns, 300 times each: 50 of each would be 250, over the total of 200.
    StringBuilder b = new StringBuilder("from pyspark.sql import functions as F\n");
    for (int i = 0; i < 300; i++) {
      b.append("rows").append(i).append(" = spark.table('t').collect()\n");
      b.append("for d in days:\n");
      b.append("    spark.table('t').filter(F.col('d') == d).count()\n");
      b.append("    df = df.withColumn('c', F.lit(1))\n");
      b.append("spark.table('t').repartition(1).write.parquet('gs://b/o')\n");
      b.append("u").append(i).append(" = F.udf(lambda x: x.strip())\n");
    }

    Inspection i = inspect("many.py", b.toString(), ClassInspector.create());

    Map<AntiPattern, Long> byPattern = i.findings().stream()
        .collect(Collectors.groupingBy(Finding::pattern, Collectors.counting()));
    assertThat(i.findings()).hasSize(FindingCap.TOTAL);
    assertThat(byPattern.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(50L));
    assertThat(i.findingsOmitted()).isEqualTo(5 * 300 - FindingCap.TOTAL);
    assertThat(i.findings()).isSortedAccordingTo(
        (x, y) -> Integer.compare(x.line().orElse(0), y.line().orElse(0)));
  }

  @Test
  void aFindingsScanOfAnArchiveCapsTheFindingsOfAllItsScriptsTogether() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    for (int f = 0; f < 5; f++) {
      entries.put("jobs/job" + f + ".py", repeat("r{i} = spark.table('t').collect()", 100)
          .getBytes(StandardCharsets.UTF_8));
    }
    byte[] zip = TestJars.zip(entries, false);

    FindingsReport r = (FindingsReport) assertTimeoutPreemptively(HANG_GUARD,
        () -> ClassInspector.builder().findingsOnly(true).build()
            .inspect(ByteSource.of("jobs.zip", zip), Optional.empty()));

    assertThat(r.sourcesScanned()).isEqualTo(5);
    assertThat(r.findings()).hasSize(FindingCap.PER_PATTERN);
    assertThat(r.findingsOmitted()).isEqualTo(500 - FindingCap.PER_PATTERN);
    assertThat(r.toText()).contains("450 more findings not shown");
  }

  @Test
  void aScriptOfTwoHundredThousandCachedValuesStaysLinearAndSaysWhatItDidNotCheck()
      throws Exception {
    String script = repeat("a{i} = spark.table('t').cache()", 200_000);

    Inspection i = inspect("caches.py", script, ClassInspector.create());

    assertThat(i.notes()).anySatisfy(n -> assertThat(n).contains("reuse was not checked for")
        .contains("split the script"));
    assertThat(i.findings()).isNotEmpty()
        .allSatisfy(f -> assertThat(f.pattern()).isEqualTo(AntiPattern.CACHE_WITHOUT_REUSE));
  }

  @Test
  void deeplyIndentedAndVeryLongStatementsDoNotHang() throws Exception {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 1_000; i++) { // decorated functions nested 1,000 levels deep
      b.append(" ".repeat(i)).append("@udf('string')\n");
      b.append(" ".repeat(i)).append("def g").append(i).append("(s):\n");
    }
    for (int i = 0; i < 1_000; i++) {
      b.append(" ".repeat(1_001)).append("x: ").append(" ".repeat(5_000)).append("y\n");
    }
    b.append("x = ").append("df.collect().".repeat(3_000)).append('\n'); // 39,000 characters
    assertThat(b.length()).isBetween(5_000_000, 16_000_000);

    Inspection i = inspect("hostile.py", b.toString(), ClassInspector.create());

    assertThat(i.findings()).isNotEmpty();
    assertThat(i.notes()).anySatisfy(n -> assertThat(n)
        .contains("1 statement longer than 20,000 characters")
        .contains("not analysed"));
  }

  @Test
  void theOnePassComprehensionCheckAgreesWithTheExpressionItReplaces() {
    Pattern original = Pattern.compile("[\\[({].*\\bfor\\b.+\\bin\\b.*[\\])}]");
    List<String> pieces = List.of("(", ")", "[", "]", "{", "}", "for", "in", " ", "x", "_",
        "f", "o", "i", "n", "é", "\u2028", "r");
    Random random = new Random(11);
    for (int n = 0; n < 50_000; n++) {
      StringBuilder s = new StringBuilder();
      for (int k = random.nextInt(14); k > 0; k--) {
        s.append(pieces.get(random.nextInt(pieces.size())));
      }
      String text = s.toString();
      assertThat(SourceAnalyzer.isComprehension(text)).as(text)
          .isEqualTo(original.matcher(text).find());
    }
  }
}

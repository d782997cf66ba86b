package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.evidence.CodeInspectionProvider;
import io.sparkrca.core.source.SourceSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two builds of a job compared: entries told apart by their CRCs, changed classes by their constants. */
class CodeDiffTest {
  @TempDir Path dir;

  private static Map<String, byte[]> job(String query, String extraClass) {
    Map<String, String> src = new java.util.LinkedHashMap<>();
    src.put("com.x.Job", "package com.x; public class Job { public static String q() { return \"" + query + "\"; }"
        + " public static String table() { return \"warehouse.orders\"; } }");
    src.put("com.x.Util", "package com.x; public class Util { public static int n() { return 42; } }");
    if (extraClass != null) {
      src.put("com.x." + extraClass, "package com.x; public class " + extraClass + " {}");
    }
    return TestJars.compile(src, List.of());
  }

  @Test
  void aChangedQueryShowsAsTheChangedClassWithItsNewAndGoneConstants() throws Exception {
    Path before = TestJars.write(dir, "app-1.4.jar", TestJars.jar(Optional.of("com.x.Job"),
        job("SELECT * FROM orders", null)));
    Path after = TestJars.write(dir, "app-1.5.jar", TestJars.jar(Optional.of("com.x.Job"),
        job("SELECT * FROM orders o JOIN events e ON o.id = e.id", "Salt")));
    CodeDiff d = ClassInspector.create().diff(before.toString(), after.toString());
    assertThat(d.added()).containsExactly("com/x/Salt.class");
    assertThat(d.removed()).isEmpty();
    assertThat(d.changed()).singleElement().satisfies(c -> {
      assertThat(c.name()).isEqualTo("com/x/Job.class");
      assertThat(c.addedStrings()).containsExactly("SELECT * FROM orders o JOIN events e ON o.id = e.id");
      assertThat(c.removedStrings()).containsExactly("SELECT * FROM orders");
    });
    assertThat(d.unchanged()).as("Util and the manifest").isGreaterThanOrEqualTo(2);
    assertThat(d.identical()).isFalse();
    assertThat(ClassInspector.create().diff(before.toString(), before.toString()).identical()).isTrue();
  }

  @Test
  void theProviderComparesScriptsLineByLineAndRedactsSecretsInThem() throws Exception {
    Path a = TestJars.write(dir, "job_v1.py", "df = spark.read.parquet('gs://b/in')\ndf.count()\n"
        .getBytes(StandardCharsets.UTF_8));
    Path b = TestJars.write(dir, "job_v2.py", ("df = spark.read.parquet('gs://b/in')\n"
        + "df = df.repartition(4000)  # password=hunter2\ndf.count()\n").getBytes(StandardCharsets.UTF_8));
    CodeInspectionProvider p = ServiceLoader.load(CodeInspectionProvider.class).findFirst().orElseThrow();
    CodeDiff d = p.diff(a.toString(), b.toString(), SourceSettings.defaults()).orElseThrow();
    assertThat(d.changed()).singleElement().satisfies(c -> {
      assertThat(c.addedStrings()).singleElement().asString().contains("repartition(4000)").doesNotContain("hunter2");
      assertThat(c.removedStrings()).isEmpty();
    });
  }

  @Test
  void aMissingBuildIsAnErrorNamingIt() {
    assertThatThrownBy(() -> ClassInspector.create().diff(dir.resolve("nope.jar").toString(),
        dir.resolve("nope2.jar").toString())).isInstanceOf(SparkRcaException.class).hasMessageContaining("nope");
  }
}

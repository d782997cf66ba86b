package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.inspector.ClassView.ClassDetail;
import io.sparkrca.inspector.ClassView.MethodSummary;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDisassemblyTest {
  @TempDir Path dir;

  private ClassView inspect(String uri) throws Exception {
    return (ClassView) ClassInspector.create().inspect(uri);
  }

  @Test
  void theDisassemblyShowsDeclarationsMembersCodeAndCalls() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    String text = inspect(jar + "!/com/example/SparkJob.class").toText();

    assertThat(text).contains("public class com.example.SparkJob")
        .contains("private int retries;")
        .contains("public static void main(java.lang.String[]);")
        .contains("public int add(int, int);")
        .contains("gs://my-bucket/input/data.parquet")
        .contains("java.io.PrintStream.println")
        .contains("invokevirtual // Method java/io/PrintStream.println:(Ljava/lang/String;)V")
        .contains("getstatic     // Field java/lang/System.out:Ljava/io/PrintStream;")
        .contains("aload_0")
        .doesNotContain("\uFFFD");
  }

  @Test
  void offsetsAndLineNumbersMatchTheClassFile() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    ClassDetail c = inspect(jar + "!/com/example/SparkJob.class").classes().get(0);

    // main: getstatic (3 bytes), ldc (2), invokevirtual (3), return, on lines 5 and 6.
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).matches("\\s+L5\\s+0: getstatic.*"));
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).matches("\\s+3: ldc\\s+// String \"gs://.*"));
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).matches("\\s+5: invokevirtual.*"));
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).matches("\\s+L6\\s+8: return"));
    assertThat(c.sourceFile()).contains("SparkJob.java");
    assertThat(c.java()).isEqualTo("Java 17");
  }

  @Test
  void genericSignaturesAreRendered() throws Exception {
    Map<String, byte[]> classes = Fixtures.compile("com.example.Box", """
        package com.example;
        import java.util.*;
        public class Box<T extends Comparable<T>> extends AbstractList<T> implements java.io.Serializable {
          private final Map<String, List<? extends Number>> index = new HashMap<>();
          public T get(int i) { return null; }
          public int size() { return 0; }
          public static <K, V extends Number> Map<K, V> wrap(K k, V... vs) throws java.io.IOException { return null; }
        }
        """);
    Path jar = TestJars.write(dir, "box.jar", TestJars.jar(Optional.empty(), classes));

    ClassDetail c = inspect(jar + "!/com.example.Box").classes().get(0);

    assertThat(c.declaration()).isEqualTo("public class com.example.Box<T extends java.lang.Comparable<T>> "
        + "extends java.util.AbstractList<T> implements java.io.Serializable");
    assertThat(c.fields()).contains("private final java.util.Map<java.lang.String, "
        + "java.util.List<? extends java.lang.Number>> index");
    assertThat(c.methods()).extracting(MethodSummary::declaration).contains(
        "public T get(int)",
        "public static <K, V extends java.lang.Number> java.util.Map<K, V> wrap(K, V...) "
            + "throws java.io.IOException");
  }

  @Test
  void lambdaBodiesAppearInThePerMethodCallGraph() throws Exception {
    Map<String, byte[]> classes = Fixtures.compile("com.example.Lambdas", """
        package com.example;
        import java.util.List;
        public class Lambdas {
          public void run(List<String> names) {
            names.forEach(n -> System.out.println("gs://bucket/people/" + n));
          }
        }
        """);
    Path jar = TestJars.write(dir, "l.jar", TestJars.jar(Optional.empty(), classes));

    ClassDetail c = inspect(jar + "!/com.example.Lambdas").classes().get(0);
    MethodSummary run = c.methods().stream().filter(m -> m.name().equals("run")).findFirst().orElseThrow();

    assertThat(run.calls()).anySatisfy(call -> {
      assertThat(call.kind()).isEqualTo(ClassView.CallKind.LAMBDA);
      assertThat(call.target()).startsWith("com.example.Lambdas.lambda$run$0(java.lang.String)");
    });
    assertThat(run.calls()).anySatisfy(call ->
        assertThat(call.target()).isEqualTo("java.util.List.forEach(java.util.function.Consumer)"));
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).contains("invokedynamic")
        .contains("=> com/example/Lambdas.lambda$run$0"));
    assertThat(c.strings()).anySatisfy(s -> {
      assertThat(s.value()).isEqualTo("gs://bucket/people/?"); // a concatenation recipe
      assertThat(s.kind()).isEqualTo(StringConstant.Kind.PATH);
    });
  }

  @Test
  void stringConstantsAreRankedSqlFirstThenPathsThenConfigKeys() throws Exception {
    Map<String, byte[]> classes = Fixtures.compile("com.example.Strs", """
        package com.example;
        public class Strs {
          static final String KEY = "spark.sql.shuffle.partitions";
          public void run() {
            String a = "ok";
            String b = "gs://bucket/out/orders";
            String c = "SELECT id, total FROM sales.orders WHERE day = '2024-01-01'";
            String d = "%s";
            String e = "Something went wrong while loading";
          }
        }
        """);
    Path jar = TestJars.write(dir, "s.jar", TestJars.jar(Optional.empty(), classes));

    ClassDetail c = inspect(jar + "!/com.example.Strs").classes().get(0);

    assertThat(c.strings()).extracting(StringConstant::kind).startsWith(
        StringConstant.Kind.SQL, StringConstant.Kind.PATH, StringConstant.Kind.CONFIG_KEY,
        StringConstant.Kind.MESSAGE);
    assertThat(c.strings()).extracting(StringConstant::value).doesNotContain("ok", "%s");
    assertThat(c.lowInterestStrings()).isGreaterThanOrEqualTo(1);
    assertThat(c.strings().get(0).line()).hasValue(7);
  }

  @Test
  void secretsInLiteralsAreRedacted() throws Exception {
    Map<String, byte[]> classes = Fixtures.compile("com.example.Db", """
        package com.example;
        public class Db {
          public String url() { return "jdbc:postgresql://db:5432/sales?user=etl&password=hunter2"; }
        }
        """);
    Path jar = TestJars.write(dir, "d.jar", TestJars.jar(Optional.empty(), classes));

    String text = inspect(jar + "!/com.example.Db").toText();

    assertThat(text).contains("jdbc:postgresql://db:5432/sales").doesNotContain("hunter2");
  }

  @Test
  void theLineBudgetCutsTheOutputAndSaysWhere() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    ClassView v = (ClassView) ClassInspector.builder().maxLines(12).build()
        .inspect(jar + "!/com/example/SparkJob.class");
    String text = v.toText();

    assertThat(text.lines().takeWhile(l -> !l.isEmpty() || true).count()).isLessThan(25);
    assertThat(text).contains("[Output cut at the line budget of 12 lines, in ");
    assertThat(new ObjectMapper().readTree(v.toJson()).get("cut").asBoolean()).isTrue();
    assertThat(text).contains(InspectorRemedies.LINE_BUDGET.words());
    assertThat(v.toText(r -> r.equals(InspectorRemedies.LINE_BUDGET) ? "Ask for more." : r.words()))
        .contains("more lines not shown. Ask for more.]").doesNotContain("maxLines");
  }

  @Test
  void jsonCarriesMethodsCallsAndStrings() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    JsonNode json = new ObjectMapper().readTree(
        ClassInspector.create().inspect(jar + "!/com/example/SparkJob.class").toJson());
    JsonNode cls = json.get("classes").get(0);

    assertThat(json.get("kind").asText()).isEqualTo("class");
    assertThat(cls.get("name").asText()).isEqualTo("com.example.SparkJob");
    assertThat(cls.get("majorVersion").asInt()).isEqualTo(61);
    assertThat(cls.get("strings").get(0).get("value").asText()).isEqualTo("gs://my-bucket/input/data.parquet");
    assertThat(cls.get("strings").get(0).get("kind").asText()).isEqualTo("path");
    assertThat(cls.get("methods").findValuesAsText("target"))
        .contains("java.io.PrintStream.println(java.lang.String)");
  }

  @Test
  void aBareClassFileIsDisassembledNotTextDecoded() throws Exception {
    byte[] bytes = Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB).get("com/example/SparkJob.class");
    Path cls = TestJars.write(dir, "SparkJob.class", bytes);

    Inspection i = ClassInspector.create().inspect(cls.toString());

    assertThat(i).isInstanceOf(ClassView.class);
    assertThat(i.toText()).contains("public class com.example.SparkJob");
  }

  @Test
  void realScalaClosuresAreFollowedThroughInvokedynamic() throws Exception {
    Optional<Path> core = TestJars.m2Jar("org/apache/spark", "spark-core_2.13", "3.5.9");
    Assumptions.assumeTrue(core.isPresent(), "spark-core_2.13-3.5.9.jar is not in ~/.m2; skipped");

    ClassView v = (ClassView) ClassInspector.builder().maxFollowedClasses(2).build()
        .inspect(core.get() + "!/org/apache/spark/rdd/RDD.class");
    ClassDetail rdd = v.classes().get(0);
    MethodSummary map = rdd.methods().stream().filter(m -> m.name().equals("map")).findFirst().orElseThrow();

    assertThat(rdd.scala()).isTrue();
    assertThat(map.calls()).anySatisfy(c -> {
      assertThat(c.kind()).isEqualTo(ClassView.CallKind.LAMBDA);
      assertThat(c.target()).startsWith("org.apache.spark.rdd.RDD.$anonfun$map$1(");
    });
    assertThat(v.classes()).hasSize(3);
    assertThat(v.omittedClasses()).isNotEmpty();
    assertThat(v.notes()).noneMatch(n -> n.contains("could not be matched"));
  }
}

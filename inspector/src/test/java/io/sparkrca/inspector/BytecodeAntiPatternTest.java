package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.objectweb.asm.Opcodes.*;

import io.sparkrca.core.io.ByteSource;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * Each Spark anti-pattern, compiled for real against Spark 3.5 (from ~/.m2) into a small jar, is
 * found in the bytecode with its class, method and source line; the healthy variants are not.
 */
class BytecodeAntiPatternTest {
  private static Map<String, String> sources;
  private static byte[] jar;

  private static final String PATTERNS = """
      package com.acme;
      import java.util.List;
      import org.apache.spark.api.java.JavaSparkContext;
      import org.apache.spark.broadcast.Broadcast;
      import org.apache.spark.sql.Dataset;
      import org.apache.spark.sql.Row;
      import org.apache.spark.sql.SparkSession;
      import static org.apache.spark.sql.functions.col;
      import static org.apache.spark.sql.functions.lit;

      public class Patterns {
        static List<Row> collectAll(SparkSession spark) {
          Dataset<Row> df = spark.read().parquet("gs://bucket/events");
          return df.collectAsList(); // COLLECT
        }

        static void countPerDay(SparkSession spark, List<String> days) {
          Dataset<Row> df = spark.table("sales.orders");
          for (String d : days) {
            long n = df.filter(col("day").equalTo(d)).count(); // LOOP
            System.out.println(n);
          }
        }

        static void showTables(SparkSession spark, List<String> tables) {
          tables.forEach(t -> spark.table(t).show()); // LAMBDA_LOOP
        }

        static Dataset<Row> addColumns(Dataset<Row> df, List<String> cols) {
          for (String c : cols) {
            df = df.withColumn(c, lit(1)); // LINEAGE
          }
          return df;
        }

        static void writeFewFiles(Dataset<Row> df) {
          df.repartition(4).write().parquet("gs://bucket/out"); // REPARTITION
        }

        static Broadcast<List<Row>> broadcastLookup(SparkSession spark) {
          List<Row> rows = spark.table("dim.customers").collectAsList();
          return new JavaSparkContext(spark.sparkContext()).broadcast(rows); // BROADCAST
        }

        static long cacheOnce(SparkSession spark) {
          Dataset<Row> df = spark.table("sales.orders").cache(); // CACHE
          return df.count();
        }
      }
      """;

  private static final String HEALTHY = """
      package com.acme;
      import java.util.List;
      import org.apache.spark.sql.Dataset;
      import org.apache.spark.sql.Row;
      import org.apache.spark.sql.SparkSession;
      import static org.apache.spark.sql.functions.col;

      public class Healthy {
        static List<Row> collectFew(SparkSession spark) {
          Dataset<Row> df = spark.read().parquet("gs://bucket/events").limit(10);
          return df.collectAsList();
        }

        static List<Row> collectAggregate(SparkSession spark) {
          return spark.table("sales.orders").groupBy("day").count().collectAsList();
        }

        static Dataset<Row> spreadByKey(Dataset<Row> df) {
          return df.repartition(200, col("key"));
        }

        static long cacheReused(SparkSession spark) {
          Dataset<Row> df = spark.table("sales.orders").cache();
          long a = df.count();
          long b = df.filter("total > 1").count();
          df.unpersist();
          return a + b;
        }

        static void writeOnce(Dataset<Row> df) {
          df.coalesce(4).write().parquet("gs://bucket/out");
        }
      }
      """;

  @BeforeAll
  static void compile() {
    Optional<List<Path>> cp = TestJars.sparkClasspath();
    Assumptions.assumeTrue(cp.isPresent(),
        "Spark 3.5.9 (spark-sql_2.13 and friends) or scala-library 2.13 is not in ~/.m2; skipped");
    sources = Map.of("com.acme.Patterns", PATTERNS, "com.acme.Healthy", HEALTHY);
    Map<String, byte[]> classes = TestJars.compile(new LinkedHashMap<>(sources), cp.get());
    classes.put("com/acme/ScalaJob$.class", scalaLikeJob());
    jar = TestJars.jar(Optional.of("com.acme.Patterns"), classes);
  }

  private static int line(String source, String marker) {
    String[] lines = source.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("// " + marker)) {
        return i + 1;
      }
    }
    throw new IllegalArgumentException(marker);
  }

  private static List<Finding> findings(String entry) throws Exception {
    return ClassInspector.builder().findingsOnly(true).build()
        .inspect(ByteSource.of("app.jar", jar), Optional.of(entry)).findings();
  }

  private static Finding only(List<Finding> all, AntiPattern p, String method) {
    List<Finding> hits = all.stream().filter(f -> f.pattern() == p
        && f.method().orElse("").startsWith(method)).toList();
    assertThat(hits).as("%s in %s among %s", p, method, all).hasSize(1);
    return hits.get(0);
  }

  @Test
  void collectWithNoBoundIsFoundWithItsLine() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.COLLECT_UNBOUNDED, "collectAll");

    assertThat(f.line()).hasValue(line(PATTERNS, "COLLECT"));
    assertThat(f.className()).contains("com.acme.Patterns");
    assertThat(f.file()).isEqualTo("app.jar!/com/acme/Patterns.class");
    assertThat(f.evidence()).contains("Dataset.collectAsList()");
    assertThat(f.remediation()).contains("limit(n)");
  }

  @Test
  void anActionInAForLoopIsFound() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.ACTION_IN_LOOP, "countPerDay");

    assertThat(f.line()).hasValue(line(PATTERNS, "LOOP"));
    assertThat(f.evidence()).contains("Dataset.count()").contains("once per iteration");
  }

  @Test
  void anActionInALambdaPassedToForEachIsFoundThroughInvokedynamic() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.ACTION_IN_LOOP, "lambda$showTables");

    assertThat(f.line()).hasValue(line(PATTERNS, "LAMBDA_LOOP"));
    assertThat(f.evidence()).contains("Dataset.show()").contains("java.util.List.forEach");
    assertThat(f.method().orElseThrow()).contains("(lambda in showTables)");
  }

  @Test
  void aDatasetReassignedInALoopIsLineageGrowth() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.LINEAGE_IN_LOOP, "addColumns");

    assertThat(f.line()).hasValue(line(PATTERNS, "LINEAGE"));
    assertThat(f.evidence()).contains("Dataset.withColumn()");
  }

  @Test
  void repartitionToAConstantBeforeAWriteSuggestsCoalesce() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.REPARTITION_WHERE_COALESCE_FITS,
        "writeFewFiles");

    assertThat(f.line()).hasValue(line(PATTERNS, "REPARTITION"));
    assertThat(f.evidence()).contains("repartition(4)").contains("write");
    assertThat(f.remediation()).contains("coalesce(4)");
  }

  @Test
  void broadcastingACollectedResultIsFound() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.BROADCAST_DRIVER_COLLECTION,
        "broadcastLookup");

    assertThat(f.line()).hasValue(line(PATTERNS, "BROADCAST"));
    assertThat(f.evidence()).contains("JavaSparkContext.broadcast()").contains("collectAsList");
  }

  @Test
  void aCacheUsedOnceIsFound() throws Exception {
    Finding f = only(findings("com.acme.Patterns"), AntiPattern.CACHE_WITHOUT_REUSE, "cacheOnce");

    assertThat(f.line()).hasValue(line(PATTERNS, "CACHE"));
  }

  @Test
  void theHealthyVariantsGiveNoFindings() throws Exception {
    assertThat(findings("com.acme.Healthy")).isEmpty();
  }

  @Test
  void aScalaClosurePassedToRangeForeachRunsItsActionPerElement() throws Exception {
    List<Finding> all = findings("com/acme/ScalaJob$.class");

    Finding loop = only(all, AntiPattern.ACTION_IN_LOOP, "$anonfun$main$1");
    Finding fold = only(all, AntiPattern.LINEAGE_IN_LOOP, "$anonfun$main$2");
    assertThat(loop.line()).hasValue(7);
    assertThat(loop.evidence()).contains("scala.collection.immutable.Range.foreach$mVc$sp");
    assertThat(loop.method().orElseThrow()).contains("(closure in main)");
    assertThat(fold.evidence()).contains("foldLeft");
  }

  @Test
  void aWholeArchiveScanCoversApplicationClassesOnly() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("org/apache/spark/Fake.class", jarEntry("com/acme/Patterns.class"));
    entries.put("com/acme/Patterns.class", jarEntry("com/acme/Patterns.class"));
    entries.put("jobs/etl.py", "rows = spark.table('x').collect()\n".getBytes());
    byte[] app = TestJars.jar(Optional.empty(), entries);

    FindingsReport r = (FindingsReport) ClassInspector.builder().findingsOnly(true).build()
        .inspect(ByteSource.of("app.jar", app), Optional.empty());

    assertThat(r.classesScanned()).isEqualTo(1);
    assertThat(r.sourcesScanned()).isEqualTo(1);
    assertThat(r.findings()).extracting(Finding::file)
        .contains("app.jar!/com/acme/Patterns.class", "app.jar!/jobs/etl.py")
        .noneMatch(f -> f.contains("org/apache/spark"));
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("1 library class"));
    assertThat(r.toText()).contains("Spark anti-patterns (").contains("fix: ");
  }

  private static byte[] jarEntry(String name) throws Exception {
    ZipArchive z = ZipArchive.open(ByteSource.of("j", jar), new ReadContext(InspectorLimits.defaults()));
    return z.readAll(z.get(name).orElseThrow(), 1 << 20);
  }

  /**
   * What scalac 2.12+ emits for {@code (1 to n).foreach(i => df.count())} and
   * {@code cols.foldLeft(df)((d, c) => d.withColumnRenamed(c, c))}: closures as static
   * {@code $anonfun$} methods of the same class, created by invokedynamic.
   */
  private static byte[] scalaLikeJob() {
    String ds = "Lorg/apache/spark/sql/Dataset;";
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(V1_8, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, "com/acme/ScalaJob$", null, "java/lang/Object", null);
    cw.visitSource("ScalaJob.scala", null);
    cw.visitAnnotation("Lscala/reflect/ScalaSignature;", true).visitEnd();
    Handle meta = new Handle(H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory", "metafactory",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;"
            + "Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;", false);
    MethodVisitor m = cw.visitMethod(ACC_PUBLIC, "main",
        "(Lscala/collection/immutable/Range;Lscala/collection/immutable/Seq;" + ds + ")V", null, null);
    m.visitCode();
    Label l5 = new Label();
    m.visitLabel(l5);
    m.visitLineNumber(5, l5);
    m.visitVarInsn(ALOAD, 1);
    m.visitVarInsn(ALOAD, 3);
    m.visitInvokeDynamicInsn("apply$mcVI$sp", "(" + ds + ")Lscala/runtime/java8/JFunction1$mcVI$sp;",
        meta, Type.getType("(I)V"), new Handle(H_INVOKESTATIC, "com/acme/ScalaJob$",
            "$anonfun$main$1", "(" + ds + "I)V", false), Type.getType("(I)V"));
    m.visitMethodInsn(INVOKEVIRTUAL, "scala/collection/immutable/Range", "foreach$mVc$sp",
        "(Lscala/Function1;)V", false);
    Label l9 = new Label();
    m.visitLabel(l9);
    m.visitLineNumber(9, l9);
    m.visitVarInsn(ALOAD, 2);
    m.visitVarInsn(ALOAD, 3);
    m.visitInvokeDynamicInsn("apply", "()Lscala/Function2;", meta,
        Type.getType("(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
        new Handle(H_INVOKESTATIC, "com/acme/ScalaJob$", "$anonfun$main$2",
            "(" + ds + "Ljava/lang/String;)" + ds, false),
        Type.getType("(" + ds + "Ljava/lang/String;)" + ds));
    m.visitMethodInsn(INVOKEINTERFACE, "scala/collection/IterableOnceOps", "foldLeft",
        "(Ljava/lang/Object;Lscala/Function2;)Ljava/lang/Object;", true);
    m.visitInsn(POP);
    m.visitInsn(RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    MethodVisitor a = cw.visitMethod(ACC_PUBLIC | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC,
        "$anonfun$main$1", "(" + ds + "I)V", null, null);
    a.visitCode();
    Label l7 = new Label();
    a.visitLabel(l7);
    a.visitLineNumber(7, l7);
    a.visitVarInsn(ALOAD, 0);
    a.visitMethodInsn(INVOKEVIRTUAL, "org/apache/spark/sql/Dataset", "count", "()J", false);
    a.visitInsn(POP2);
    a.visitInsn(RETURN);
    a.visitMaxs(0, 0);
    a.visitEnd();
    MethodVisitor b = cw.visitMethod(ACC_PUBLIC | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC,
        "$anonfun$main$2", "(" + ds + "Ljava/lang/String;)" + ds, null, null);
    b.visitCode();
    Label l10 = new Label();
    b.visitLabel(l10);
    b.visitLineNumber(10, l10);
    b.visitVarInsn(ALOAD, 0);
    b.visitVarInsn(ALOAD, 1);
    b.visitVarInsn(ALOAD, 1);
    b.visitMethodInsn(INVOKEVIRTUAL, "org/apache/spark/sql/Dataset", "withColumnRenamed",
        "(Ljava/lang/String;Ljava/lang/String;)" + ds, false);
    b.visitInsn(ARETURN);
    b.visitMaxs(0, 0);
    b.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }
}

package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.CodeEvidence;
import io.sparkrca.core.evidence.CodeFinding;
import io.sparkrca.core.evidence.CodeInspectionProvider;
import io.sparkrca.core.evidence.CodeLocation;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.io.TestHttpServer;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.inspector.internal.ClassInspectorProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inspector's {@link CodeInspectionProvider}: found by ServiceLoader, it turns real compiled
 * jars, class files and sources into code evidence (findings, and the places stack frames point
 * at), on its own, over HTTP and through core's {@link EvidenceCollector} with a real testkit
 * event log.
 */
class CodeInspectionProviderTest {
  @TempDir Path dir;

  private final CodeInspectionProvider provider = new ClassInspectorProvider();

  /** A class with no Spark in it, so it compiles anywhere: a loop that parses numbers. */
  static final String PARSER = """
      package com.acme;
      public class Parser {
        public static long total(String[] fields) {
          long total = 0;
          for (String f : fields) {
            total += Long.parseLong(f.trim()); // PARSE
          }
          return total;
        }

        public long total(String one) {
          return Integer.parseInt(one); // OVERLOAD
        }
      }
      """;

  /** A Spark job: an unbounded collectAsList, then a parse of each row. */
  static final String TOTALS = """
      package com.acme;
      import java.util.List;
      import org.apache.spark.sql.Dataset;
      import org.apache.spark.sql.Row;
      import org.apache.spark.sql.SparkSession;

      public class Totals {
        public static void main(String[] args) {
          SparkSession spark = SparkSession.builder().getOrCreate();
          System.out.println(sum(spark.read().parquet(args[0])));
        }

        static long sum(Dataset<Row> df) {
          List<Row> rows = df.collectAsList(); // COLLECT
          long total = 0;
          for (Row r : rows) {
            total += Long.parseLong(r.getString(0)); // PARSE
          }
          return total;
        }
      }
      """;

  static final String PYTHON = """
      from pyspark.sql import SparkSession

      spark = SparkSession.builder.getOrCreate()
      events = spark.read.json("gs://bucket/events")


      def user_of(record):
          if record is None:
              return None
          return record['user_id']  # FAIL


      users = events.rdd.map(user_of)
      everything = events.collect()  # COLLECT
      print(users.count())
      """;

  private static int lineOf(String source, String marker) {
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(marker)) {
        return i + 1;
      }
    }
    throw new IllegalArgumentException("no line with " + marker);
  }

  private static StackFrame java(String cls, String method, String file, int line) {
    return new StackFrame(cls, method, file, OptionalInt.of(line));
  }

  private static StackFrame python(String file, String function, int line) {
    return new StackFrame("", function, file, OptionalInt.of(line));
  }

  private Path parserJar() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>(Fixtures.compile("com.acme.Parser", PARSER));
    entries.put("jobs/etl.py", PYTHON.getBytes(StandardCharsets.UTF_8));
    return TestJars.write(dir, "parser.jar", TestJars.jar(Optional.of("com.acme.Parser"), entries));
  }

  private Path totalsJar() throws Exception {
    Optional<List<Path>> cp = TestJars.sparkClasspath();
    Assumptions.assumeTrue(cp.isPresent(), "Spark 3.5.9 jars are not in ~/.m2");
    Map<String, byte[]> classes = TestJars.compile(Map.of("com.acme.Totals", TOTALS), cp.get());
    return TestJars.write(dir, "totals.jar", TestJars.jar(Optional.of("com.acme.Totals"), classes));
  }

  private CodeEvidence inspect(Path p, StackFrame... frames) {
    return provider.inspect(p.toString(), SourceSettings.defaults(), List.of(frames));
  }

  @Test
  void serviceLoaderFindsTheProviderAndItReadsCodeByName() {
    List<CodeInspectionProvider> found = new ArrayList<>();
    ServiceLoader.load(CodeInspectionProvider.class).forEach(found::add);
    assertThat(found).anySatisfy(p -> {
      assertThat(p).isInstanceOf(ClassInspectorProvider.class);
      assertThat(p.name()).isEqualTo("inspector");
    });

    for (String yes : List.of("app.jar", "/x/APP.JAR", "gs://b/jobs/app.zip", "site.war",
        "Job.class", "main.py", "Job.scala", "Job.java", "report.sql", "Job.kt", "analysis.R",
        "https://repo.example.com/app.jar?sig=abc", "app.jar!/com/x/Job.class",
        "app.jar!/com.x.Job", "app.jar!/BOOT-INF/lib/lib.jar!/com/x/Job.class")) {
      assertThat(provider.supports(yes)).as(yes).isTrue();
    }
    for (String no : List.of("", "driver.log", "events.zstd", "README.md", "main.py!/x",
        "/tmp/spark-events/app-1", "notes.txt!/a.class")) {
      assertThat(provider.supports(no)).as(no).isFalse();
    }
  }

  @Test
  void aJarWithAnAntiPatternGivesItsCodeFindingAndAnArchiveSummary() throws Exception {
    Path jar = totalsJar();

    CodeEvidence c = inspect(jar);

    assertThat(c.uri()).isEqualTo(jar.toString());
    assertThat(c.kind()).isEqualTo("jar");
    assertThat(c.summary()).startsWith("jar, ").contains("2 entries", "1 class",
        "Main-Class com.acme.Totals", "1 finding");
    assertThat(c.findings()).singleElement().satisfies(f -> {
      assertThat(f.id()).isEqualTo(AntiPattern.COLLECT_UNBOUNDED.id());
      assertThat(f.title()).isEqualTo(AntiPattern.COLLECT_UNBOUNDED.title());
      assertThat(f.location()).isEqualTo("com.acme.Totals:" + lineOf(TOTALS, "// COLLECT")
          + " in sum(org.apache.spark.sql.Dataset)");
      assertThat(f.evidence()).contains("collectAsList");
      assertThat(f.remediation()).isNotBlank();
    });
    assertThat(c.locations()).isEmpty();
  }

  @Test
  void aFrameInAJarClassGetsTheEntryTheLineAndTheSparkCallsOfItsMethod() throws Exception {
    Path jar = totalsJar();
    int parse = lineOf(TOTALS, "// PARSE");

    CodeEvidence c = inspect(jar, java("com.acme.Totals", "sum", "Totals.java", parse),
        java("com.other.Elsewhere", "run", "Elsewhere.java", 12));

    assertThat(c.locations()).singleElement().satisfies(l -> {
      assertThat(l.frame().className()).isEqualTo("com.acme.Totals");
      assertThat(l.file()).isEqualTo("totals.jar!/com/acme/Totals.class (Totals.java)");
      assertThat(l.line()).hasValue(parse);
      assertThat(l.snippet()).isEmpty();
      assertThat(l.note()).isEqualTo("calls Dataset.collectAsList(), Row.getString(), Long.parseLong");
    });
  }

  @Test
  void aClassFrameIsCheckedAgainstItsMethodsLinesAndOverloads() throws Exception {
    Path jar = parserJar();
    int parse = lineOf(PARSER, "// PARSE");
    int overload = lineOf(PARSER, "// OVERLOAD");

    CodeEvidence c = inspect(jar,
        java("com.acme.Parser", "total", "Parser.java", parse),
        java("com.acme.Parser", "total", "Parser.java", overload),
        java("com.acme.Parser", "total", "Parser.java", 400),
        java("com.acme.Parser", "gone", "Parser.java", 7),
        new StackFrame("com.acme.Parser", "total", "", OptionalInt.empty()),
        java("com.acme.parser", "total", "Parser.java", parse), // another class, case aside
        java("io.sparkrca.testkit.scenarios.Workload$1", "call", "Workload.java", 38));

    assertThat(c.locations()).hasSize(5);
    CodeLocation first = c.locations().get(0);
    assertThat(first.file()).isEqualTo("parser.jar!/com/acme/Parser.class (Parser.java)");
    assertThat(first.line()).hasValue(parse);
    assertThat(first.note()).isEqualTo("calls String.trim, Long.parseLong");
    // The overload whose lines hold the frame's line is the one described.
    assertThat(c.locations().get(1).note()).isEqualTo("calls Integer.parseInt");
    assertThat(c.locations().get(2).note()).contains("line 400 is outside total's lines "
        + (parse - 2) + "-" + (parse + 2), "may not be the build that ran");
    assertThat(c.locations().get(3).note()).contains("has no method gone");
    assertThat(c.locations().get(4).line()).hasValue(parse - 2);
    assertThat(c.locations().get(4).note()).contains("the frame names no line; total starts at line "
        + (parse - 2));
    assertThat(c.notes()).noneMatch(n -> n.contains("Workload") || n.contains("com.acme.parser"));
  }

  @Test
  void aPythonSourceWithAFrameGetsTheNumberedLinesAroundIt() throws Exception {
    Path py = TestJars.write(dir, "etl.py", PYTHON.getBytes(StandardCharsets.UTF_8));
    int fail = lineOf(PYTHON, "# FAIL");

    CodeEvidence c = inspect(py, python("/tmp/spark-1/userFiles/etl.py", "user_of", fail),
        python("/tmp/spark-1/userFiles/etl.py", "<module>", 400),
        python("/tmp/spark-1/userFiles/other.py", "main", 3));

    assertThat(c.kind()).isEqualTo("python");
    assertThat(c.summary()).isEqualTo("python source, " + lineOf(PYTHON, "print(users") + " lines, 2 findings");
    assertThat(c.findings()).extracting(CodeFinding::id)
        .containsExactlyInAnyOrder("collect-unbounded", "row-wise-python-udf");
    assertThat(c.locations()).hasSize(2);
    CodeLocation l = c.locations().get(0);
    assertThat(l.file()).isEqualTo("etl.py");
    assertThat(l.line()).hasValue(fail);
    assertThat(l.snippet()).containsExactly(
        (fail - 3) + ": def user_of(record):",
        (fail - 2) + ":     if record is None:",
        (fail - 1) + ":         return None",
        fail + ":     return record['user_id']  # FAIL",
        (fail + 1) + ":",
        (fail + 2) + ":",
        (fail + 3) + ": users = events.rdd.map(user_of)");
    assertThat(c.locations().get(1).snippet()).isEmpty();
    assertThat(c.locations().get(1).note()).contains("line 400 is past the end of etl.py");
  }

  @Test
  void aFrameOnlyPastTheEndOfASourceIsPlacedWithoutASnippet() throws Exception {
    Path py = TestJars.write(dir, "etl.py", PYTHON.getBytes(StandardCharsets.UTF_8));

    CodeEvidence c = inspect(py, python("etl.py", "user_of", 400));

    assertThat(c.findings()).isNotEmpty();
    assertThat(c.locations()).singleElement().satisfies(l -> {
      assertThat(l.snippet()).isEmpty();
      assertThat(l.note()).isEqualTo("line 400 is past the end of etl.py (15 lines): the source "
          + "may not be the version that ran");
    });
  }

  @Test
  void theArchiveSummaryNamesTheSparkAndScalaVersionsItBundles() throws Exception {
    Map<String, byte[]> shaded = new LinkedHashMap<>(Fixtures.compile("com.acme.Parser", PARSER));
    shaded.put("META-INF/maven/org.apache.spark/spark-core_2.13/pom.properties",
        "groupId=org.apache.spark\nartifactId=spark-core_2.13\nversion=3.5.9\n".getBytes(StandardCharsets.UTF_8));
    Path flat = TestJars.write(dir, "shaded.jar", TestJars.jar(Optional.of("com.acme.Parser"), shaded));
    Map<String, byte[]> boot = new LinkedHashMap<>(TestJars.entries(
        "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: com.acme.Parser\n\n",
        "BOOT-INF/lib/spark-sql_2.13-4.0.4.jar", TestJars.zip(TestJars.entries("x.txt", "x"), true),
        "BOOT-INF/lib/scala-library-2.13.16.jar", TestJars.zip(TestJars.entries("y.txt", "y"), true)));
    boot.putAll(Fixtures.compile("com.acme.Parser", PARSER).entrySet().stream().collect(
        java.util.stream.Collectors.toMap(e -> "BOOT-INF/classes/" + e.getKey(), Map.Entry::getValue)));
    Path nested = TestJars.write(dir, "boot.jar", TestJars.zip(boot, true));

    CodeEvidence a = inspect(flat);
    CodeEvidence b = inspect(nested, java("com.acme.Parser", "total", "Parser.java", lineOf(PARSER, "// PARSE")));

    assertThat(a.summary()).contains("Main-Class com.acme.Parser", "Spark 3.5.9", "Scala 2.13");
    assertThat(b.summary()).contains("Spark 4.0.4", "Scala 2.13.16");
    assertThat(b.notes()).anySatisfy(n -> assertThat(n).startsWith("packaging: bundles Spark itself"));
    assertThat(b.locations()).singleElement().satisfies(l -> assertThat(l.file())
        .isEqualTo("boot.jar!/BOOT-INF/classes/com/acme/Parser.class (Parser.java)"));
  }

  @Test
  void aPythonFrameInsideAPyFilesZipGetsItsEntry() throws Exception {
    String util = "def parse(v):\n    return int(v)\n";
    Path zip = TestJars.write(dir, "deps.zip", TestJars.zip(TestJars.entries(
        "pkg/__init__.py", "", "pkg/util.py", util), false));

    CodeEvidence c = inspect(zip,
        python("/tmp/spark-2/userFiles-9/deps.zip/pkg/util.py", "parse", 2),
        python("/usr/lib/app/missing.py", "main", 1));

    assertThat(c.kind()).isEqualTo("zip");
    assertThat(c.locations()).singleElement().satisfies(l -> {
      assertThat(l.file()).isEqualTo("deps.zip!/pkg/util.py");
      assertThat(l.snippet()).containsExactly("1: def parse(v):", "2:     return int(v)");
    });
  }

  @Test
  void aClassFileAndAnEntryUriAreInspectedAsClasses() throws Exception {
    Path jar = parserJar();
    int parse = lineOf(PARSER, "// PARSE");
    Path cls = TestJars.write(dir, "Parser.class",
        Fixtures.compile("com.acme.Parser", PARSER).get("com/acme/Parser.class"));
    StackFrame frame = java("com.acme.Parser", "total", "Parser.java", parse);

    CodeEvidence file = inspect(cls, frame);
    CodeEvidence entry = provider.inspect(jar + "!/com/acme/Parser.class", SourceSettings.defaults(),
        List.of(frame));

    assertThat(file.kind()).isEqualTo("class");
    assertThat(file.summary()).startsWith("class com.acme.Parser (Java ").contains("Parser.java",
        "3 methods");
    assertThat(file.locations()).singleElement().satisfies(l -> {
      assertThat(l.file()).isEqualTo("Parser.class (Parser.java)");
      assertThat(l.note()).isEqualTo("calls String.trim, Long.parseLong");
    });
    assertThat(entry.kind()).isEqualTo("class");
    assertThat(entry.uri()).isEqualTo(jar + "!/com/acme/Parser.class");
    assertThat(entry.locations()).singleElement().satisfies(
        l -> assertThat(l.file()).isEqualTo("parser.jar!/com/acme/Parser.class (Parser.java)"));
  }

  @Test
  void anUnreadableInputThrowsASparkRcaExceptionNamingIt() throws Exception {
    Path garbage = TestJars.write(dir, "broken.jar", "<html>not a jar</html>".getBytes(StandardCharsets.UTF_8));
    Path missing = dir.resolve("missing.jar");

    assertThatThrownBy(() -> inspect(garbage, java("com.acme.Parser", "total", "Parser.java", 3)))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining(garbage.toString());
    assertThatThrownBy(() -> inspect(missing))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining(missing.toString());
    assertThatThrownBy(() -> inspect(dir.resolve("gone.py")))
        .isInstanceOf(SparkRcaException.class).hasMessageContaining("gone.py");
  }

  @Test
  void aMalformedClassAndAnEntryOverTheLimitsBecomeNotes() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>(Fixtures.compile("com.acme.Parser", PARSER));
    entries.put("com/acme/Broken.class", Fixtures.STUB);
    byte[] big = new byte[64 * 1024];
    entries.put("com/acme/Huge.class", big); // zeros: compresses well, inflates past the cap
    Path jar = TestJars.write(dir, "partial.jar", TestJars.jar(Optional.empty(), entries));
    CodeInspectionProvider tight = new ClassInspectorProvider(
        InspectorLimits.defaults().withMaxEntryBytes(16 * 1024));

    CodeEvidence c = tight.inspect(jar.toString(), SourceSettings.defaults(), List.of(
        java("com.acme.Broken", "run", "Broken.java", 5),
        java("com.acme.Huge", "run", "Huge.java", 5),
        java("com.acme.Parser", "total", "Parser.java", lineOf(PARSER, "// PARSE"))));

    assertThat(c.notes()).anySatisfy(n -> assertThat(n).contains("Broken.class"));
    assertThat(c.notes()).anySatisfy(n -> assertThat(n).contains("com.acme.Huge").contains("could not be read"));
    assertThat(c.locations()).extracting(l -> l.frame().className())
        .containsExactly("com.acme.Broken", "com.acme.Parser");
    assertThat(c.locations().get(0).note()).startsWith("the class could be read only in part");
  }

  @Test
  void findingsAndLocationsAreCapped() throws Exception {
    StringBuilder py = new StringBuilder("df = spark.table('t')\n");
    for (int i = 0; i < 60; i++) {
      py.append("rows_").append(i).append(" = df.collect()\n");
    }
    Path file = TestJars.write(dir, "many.py", py.toString().getBytes(StandardCharsets.UTF_8));
    List<StackFrame> frames = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      frames.add(python("many.py", "<module>", 2 + i));
    }

    CodeEvidence c = provider.inspect(file.toString(), SourceSettings.defaults(), frames);

    assertThat(c.findings()).hasSize(ClassInspectorProvider.MAX_FINDINGS);
    assertThat(c.notes()).contains("60 anti-pattern findings; the first 50 are listed");
    assertThat(c.locations()).hasSize(ClassInspectorProvider.MAX_LOCATIONS);
    assertThat(c.locations().get(19).snippet()).hasSize(7);
  }

  @Test
  void overHttpTheArchiveIsOpenedOnceAndItsDirectoryIsNotFetchedAgainPerFrame() throws Exception {
    Path jar = parserJar();
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/parser.jar", TestHttpServer.Content.of(Files.readAllBytes(jar)));
      ClassInspector.builder().findingsOnly(true).build().inspect(server.url("/parser.jar"));
      int scanAlone = server.requests().size();
      server.resetCounters();

      CodeEvidence c = provider.inspect(server.url("/parser.jar"), SourceSettings.defaults(), List.of(
          java("com.acme.Parser", "total", "Parser.java", lineOf(PARSER, "// PARSE")),
          java("com.acme.Parser", "total", "Parser.java", lineOf(PARSER, "// OVERLOAD")),
          python("/tmp/x/etl.py", "user_of", lineOf(PYTHON, "# FAIL"))));

      assertThat(c.locations()).hasSize(3);
      assertThat(c.locations().get(2).file()).isEqualTo("parser.jar!/jobs/etl.py");
      assertThat(c.findings()).extracting(CodeFinding::id).contains("collect-unbounded");
      // Overview, scan and the three frames: the directory and entries come from the first reads.
      assertThat(server.requests()).hasSizeLessThanOrEqualTo(scanAlone + 2);
    }
  }

  @Test
  void theEvidenceCollectorFindsTheProviderAndReportsTheCodeWithoutACodeGap() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    Path jar = parserJar();

    Evidence e = EvidenceCollector.builder().application(f.eventLog().toString())
        .code(jar.toString()).build().collect();

    assertThat(e.application()).isPresent();
    assertThat(e.gaps(EvidenceKind.CODE)).isEmpty();
    assertThat(e.code()).singleElement().satisfies(c -> {
      assertThat(c.uri()).isEqualTo(jar.toString());
      assertThat(c.kind()).isEqualTo("jar");
      assertThat(c.summary()).contains("Main-Class com.acme.Parser");
      assertThat(c.findings()).extracting(CodeFinding::id).contains("collect-unbounded");
      assertThat(c.findings()).anySatisfy(x -> assertThat(x.location()).contains("jobs/etl.py"));
      // The failure's frames are in io.sparkrca.testkit.scenarios.Workload, not in this jar.
      assertThat(c.locations()).isEmpty();
    });
  }
}

package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {
  @TempDir Path dir;
  private Path jar;

  record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SparkRcaCommand.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeEach
  void jar() throws Exception {
    // A real class file: this test class's own bytecode is at hand.
    byte[] cls;
    try (var in = InspectCommandTest.class.getResourceAsStream("InspectCommandTest.class")) {
      cls = in.readAllBytes();
    }
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.sparkrca.cli.InspectCommandTest");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(b, mf)) {
      j.putNextEntry(new ZipEntry("io/sparkrca/cli/InspectCommandTest.class"));
      j.write(cls);
      j.putNextEntry(new ZipEntry("conf/app.properties"));
      j.write("spark.sql.shuffle.partitions=400\n".getBytes());
    }
    jar = dir.resolve("app.jar");
    Files.write(jar, b.toByteArray());
  }

  @Test
  void anArchiveOverviewPrintsAndExitsZero() {
    Run r = run("inspect", jar.toString());

    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("JAR Archive Overview")
        .contains("Main-Class (from MANIFEST.MF): io.sparkrca.cli.InspectCommandTest")
        .contains("io.sparkrca.cli (1 class)");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void anEntryRendersAsJsonWithTheSameFacts() throws Exception {
    Run r = run("inspect", jar.toString(), "--entry", "InspectCommandTest", "--format", "json");

    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(r.code()).isZero();
    assertThat(json.get("kind").asText()).isEqualTo("class");
    assertThat(json.get("classes").get(0).get("name").asText()).isEqualTo("io.sparkrca.cli.InspectCommandTest");
  }

  @Test
  void theFragmentFormAndMaxLinesWork() {
    Run r = run("inspect", jar + "!/io/sparkrca/cli/InspectCommandTest.class", "--max-lines", "20",
        "--no-follow");

    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("=== Class Structure: " + jar + "!/io/sparkrca/cli/InspectCommandTest.class")
        .contains("[Output cut at the line budget of 20 lines");
  }

  @Test
  void aTextEntryIsNumbered() {
    Run r = run("inspect", jar.toString(), "--entry", "conf/app.properties");

    assertThat(r.out()).contains("   1 | spark.sql.shuffle.partitions=400");
  }

  @Test
  void findingsOnAScriptAreListed() throws Exception {
    Path py = dir.resolve("etl.py");
    Files.writeString(py, "df = spark.table('sales.orders')\nfor d in days:\n    df.filter(df.day == d).count()\n");

    Run r = run("inspect", py.toString(), "--findings");

    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("[action-in-loop]").contains("etl.py:3");
  }

  @Test
  void aLogIsRefusedWithCommandsThatReallyReadIt() throws Exception {
    Path driverLog = io.sparkrca.core.testkit.TestkitFixtures.get("3.5.9", "bad-record").driverLog();
    Run isLog = run("inspect", driverLog.toString());
    assertThat(isLog.code()).isEqualTo(2);
    assertThat(isLog.err().strip().lines()).hasSize(1);
    assertThat(isLog.err()).contains("'sparkrca logs tail 200 " + driverLog + "'");
    assertThat(run("logs", "tail", "200", driverLog.toString()).code()).isZero();
    assertThat(run("logs", "search", "--regex", "ERROR", driverLog.toString()).code()).isZero();

    Path eventLog = io.sparkrca.core.testkit.TestkitFixtures.get("3.5.9", "healthy").eventLog();
    Run isEventLog = run("inspect", eventLog.toString());
    assertThat(isEventLog.code()).isEqualTo(2);
    assertThat(isEventLog.err())
        .contains("looks like a Spark event log, not code: summarize it with 'sparkrca summarize " + eventLog + "'");
    assertThat(run("summarize", eventLog.toString()).code()).isZero();
  }

  @Test
  void errorsExitTwoWithOneLine() throws Exception {
    Path log = dir.resolve("driver.log");
    Files.writeString(log, "24/05/01 10:00:00 INFO SparkContext: Running Spark\n");

    Run missing = run("inspect", dir.resolve("nope.jar").toString());
    Run noEntry = run("inspect", jar.toString(), "--entry", "com.example.InspectCommandTst");
    Run isLog = run("inspect", log.toString());
    Run badLines = run("inspect", jar.toString(), "--max-lines", "0");

    for (Run r : new Run[] {missing, noEntry, isLog}) {
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.err().strip().lines()).hasSize(1);
    }
    assertThat(missing.err()).contains("not found");
    assertThat(noEntry.err()).contains("nearest names: io.sparkrca.cli.InspectCommandTest");
    assertThat(isLog.err()).contains("looks like a log, not code: read its end with 'sparkrca logs tail 200 " + log
        + "' or search it with 'sparkrca logs search --regex ERROR " + log + "'");
    assertThat(badLines.code()).isEqualTo(2);
    assertThat(badLines.err()).contains("--max-lines must be at least 1");
  }
}

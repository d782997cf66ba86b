package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.TestHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code sparkrca inspect} on JARs behind a loopback HTTP server, and its one-line errors. */
class InspectOverHttpTest {
  private TestHttpServer server;
  private byte[] jar;

  @BeforeEach
  void start() throws IOException {
    byte[] cls;
    try (var in = InspectOverHttpTest.class.getResourceAsStream("InspectOverHttpTest.class")) {
      cls = in.readAllBytes();
    }
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.sparkrca.cli.InspectOverHttpTest");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(b, mf)) {
      j.putNextEntry(new ZipEntry("io/sparkrca/cli/InspectOverHttpTest.class"));
      j.write(cls);
      j.putNextEntry(new ZipEntry("conf/app.properties"));
      j.write("spark.sql.shuffle.partitions=400\n".getBytes());
    }
    jar = b.toByteArray();
    server = TestHttpServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void anOverviewOfARemoteJarPrintsLikeALocalOne() {
    server.serve("/jobs/app.jar", TestHttpServer.Content.of(jar));

    CliRun r = CliRun.of("inspect", server.url("/jobs/app.jar"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("=== JAR Archive Overview: " + server.url("/jobs/app.jar"))
        .contains("Main-Class (from MANIFEST.MF): io.sparkrca.cli.InspectOverHttpTest")
        .contains("conf/app.properties");
    assertThat(server.requests()).allSatisfy(q -> assertThat(q.header("Range")).isNotNull());
  }

  @Test
  void aClassInTheUrlFragmentIsDisassembledAsJson() throws Exception {
    server.serve("/jobs/app.jar", TestHttpServer.Content.of(jar));

    CliRun r = CliRun.of("inspect",
        server.url("/jobs/app.jar") + "!/io/sparkrca/cli/InspectOverHttpTest.class",
        "--format", "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertThat(json.path("classes").get(0).path("name").asText())
        .isEqualTo("io.sparkrca.cli.InspectOverHttpTest");
  }

  @Test
  void aMissingJarIsOneLineNamingTheUrlAndTheStatus() {
    CliRun r = CliRun.of("inspect", server.url("/jobs/missing.jar"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines()).singleElement().satisfies(line -> assertThat(line)
        .startsWith("sparkrca: ").contains(server.url("/jobs/missing.jar")).contains("HTTP 404"));
  }

  @Test
  void aForbiddenJarIsOneLineSayingAccessIsDenied() {
    server.serve("/jobs/app.jar", TestHttpServer.Content.of(jar))
        .enqueue("/jobs/app.jar", 403, Map.of());

    CliRun r = CliRun.of("inspect", server.url("/jobs/app.jar"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().lines()).singleElement().satisfies(line -> assertThat(line)
        .startsWith("sparkrca: Access to ").contains("HTTP 403 Forbidden")
        .contains("ask for read access"));
  }

  @Test
  void aServerThatIgnoresRangeIsOneLineSayingSo() {
    server.serve("/jobs/app.jar", TestHttpServer.Content.of(jar)).rangeSupported(false);

    CliRun r = CliRun.of("inspect", server.url("/jobs/app.jar"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().lines()).singleElement().satisfies(line -> assertThat(line)
        .contains("ignored the Range request").contains("download the file"));
  }
}

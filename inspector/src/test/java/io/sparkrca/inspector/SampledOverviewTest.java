package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.TestHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Overviews are exact unless sampling is asked for; a sampled overview of a huge central
 * directory reads at most its share of the archive and says its counts are estimates.
 */
class SampledOverviewTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static byte[] flat;
  private static Map<String, Integer> truth;

  /**
   * A flat shaded jar: a manifest, the application's class, then about 26,000 small classes in
   * 240 packages of 20 to 200 classes, written package by package as shading tools do. Its
   * central directory is about a quarter of the file.
   */
  private static synchronized byte[] flatJar() {
    if (flat == null) {
      Map<String, Integer> counts = new HashMap<>();
      flat = flatJar(true, counts);
      truth = counts;
    }
    return flat;
  }

  private static byte[] flatJar(boolean manifestFirst, Map<String, Integer> counts) {
    Random random = new Random(11);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] manifest = "Manifest-Version: 1.0\nMain-Class: com.example.app.Main\n\n".getBytes();
    try (ZipOutputStream zip = new ZipOutputStream(b)) {
      if (manifestFirst) {
        put(zip, "META-INF/MANIFEST.MF", manifest);
      }
      put(zip, "com/example/app/Main.class", classBytes(random));
      counts.put("com.example.app", 1);
      for (int p = 0; p < 240; p++) {
        if (p == 131 && !manifestFirst) {
          put(zip, "META-INF/MANIFEST.MF", manifest);
        }
        String pkg = "org/lib" + (p % 12) + "/module" + p + "/impl";
        int n = 20 + (p * 37) % 180;
        for (int c = 0; c < n; c++) {
          put(zip, pkg + "/GeneratedComponent" + c + (c % 3 == 0 ? "$Builder" : "") + ".class",
              classBytes(random));
        }
        counts.put(pkg.replace('/', '.'), n);
        if (p == 126) {
          put(zip, pkg + "/defaults.properties", "retries=3\n".getBytes());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  private static void put(ZipOutputStream zip, String name, byte[] data) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(data);
    zip.closeEntry();
  }

  /** A class-file header (Java 17) and incompressible bytes, about 200 bytes deflated. */
  private static byte[] classBytes(Random random) {
    byte[] b = new byte[200];
    random.nextBytes(b);
    b[0] = (byte) 0xCA;
    b[1] = (byte) 0xFE;
    b[2] = (byte) 0xBA;
    b[3] = (byte) 0xBE;
    b[4] = 0;
    b[5] = 0;
    b[6] = 0;
    b[7] = 61;
    return b;
  }

  private static int truthClasses() {
    return truth.values().stream().mapToInt(Integer::intValue).sum();
  }

  @Test
  void anOverviewIsExactUnlessSamplingIsAskedFor() throws Exception {
    byte[] jar = flatJar();

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create()
        .inspect(ByteSource.of("flat.jar", jar), Optional.empty());

    assertThat(o.estimated()).isFalse();
    assertThat(o.sample()).isEmpty();
    assertThat(o.classes()).isEqualTo(truthClasses());
    assertThat(o.entries()).isEqualTo(truthClasses() + 2);
    assertThat(o.packages()).allSatisfy(p ->
        assertThat(p.classes()).isEqualTo(truth.get(p.name())));
    assertThat(o.toText()).doesNotContain("SAMPLED").doesNotContain("at least");
    assertThat(JSON.readTree(o.toJson()).path("estimated").asBoolean(true)).isFalse();
  }

  @Test
  void aSampledOverviewOverHttpReadsAtMostItsShareOfTheArchiveAndSaysSo() throws Exception {
    byte[] jar = flatJar();
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/flat.jar", TestHttpServer.Content.of(jar));

      ArchiveOverview o = (ArchiveOverview) ClassInspector.builder().overviewSampling(0.05)
          .build().inspect(server.url("/flat.jar"));

      assertThat(o.estimated()).isTrue();
      ArchiveOverview.DirectorySample s = o.sample().orElseThrow();
      assertThat(s.bytesRead()).isLessThanOrEqualTo((long) (0.05 * jar.length));
      assertThat(s.fractionRead()).isLessThan(0.5);
      // The windows, plus the probe, the tail, the manifest and a few class headers.
      assertThat(server.bodyBytesSent()).isLessThan((long) (0.05 * jar.length) + 16 * 1024);
      assertThat(server.requests()).hasSizeLessThanOrEqualTo(s.windows() + 10);
      String text = o.toText();
      assertThat(text).contains("SAMPLED, COUNTS ARE ESTIMATES")
          .contains("(at least ").contains("~" + Texts.count(o.classes()) + " classes")
          .contains("Inspect without sampling for exact counts");
      JsonNode json = JSON.readTree(o.toJson());
      assertThat(json.path("estimated").asBoolean()).isTrue();
      assertThat(json.path("sample").path("note").asText()).contains("estimates")
          .contains("lower bounds");
      assertThat(json.path("sample").path("bytesRead").asLong()).isEqualTo(s.bytesRead());
    }
  }

  @Test
  void sampledTotalsAreCloseAndPackageCountsNeverExceedTheTruth() throws Exception {
    byte[] jar = flatJar();

    ArchiveOverview o = (ArchiveOverview) ClassInspector.builder().overviewSampling(0.05).build()
        .inspect(ByteSource.of("flat.jar", jar), Optional.empty());

    assertThat(o.mainClass()).contains("com.example.app.Main");
    assertThat(o.packages().get(0).name()).isEqualTo("com.example.app");
    assertThat(o.declaredEntries()).isEqualTo(truthClasses() + 2);
    assertThat(o.entries()).isLessThan(truthClasses() / 2);
    assertThat((double) o.classes()).isCloseTo(truthClasses(),
        org.assertj.core.data.Percentage.withPercentage(5));
    ArchiveOverview exact = (ArchiveOverview) ClassInspector.create()
        .inspect(ByteSource.of("flat.jar", jar), Optional.empty());
    assertThat((double) o.files()).isCloseTo(exact.files(),
        org.assertj.core.data.Percentage.withPercentage(5));
    assertThat((double) o.compressedBytes()).isCloseTo(exact.compressedBytes(),
        org.assertj.core.data.Percentage.withPercentage(5));
    assertThat((double) o.uncompressedBytes()).isCloseTo(exact.uncompressedBytes(),
        org.assertj.core.data.Percentage.withPercentage(5));
    // Every package listed is real (the windows re-synchronised on real records), none is
    // over-counted, and the estimated remainder accounts for the rest.
    int seen = 0;
    for (ArchiveOverview.PackageCount p : o.packages()) {
      assertThat(truth).containsKey(p.name());
      assertThat(p.classes()).isLessThanOrEqualTo(truth.get(p.name()));
      seen += p.classes();
    }
    assertThat(seen + o.sample().orElseThrow().unreadClasses()).isEqualTo(o.classes());
    assertThat(o.classVersions()).allSatisfy(v -> assertThat(v.major()).isEqualTo(61));
  }

  @Test
  void aManifestOutsideTheSampleMakesTheMainClassUnknownNotMissing() throws Exception {
    byte[] jar = flatJar(false, new HashMap<>());

    ArchiveOverview o = (ArchiveOverview) ClassInspector.builder().overviewSampling(0.05).build()
        .inspect(ByteSource.of("flat.jar", jar), Optional.empty());

    assertThat(o.estimated()).isTrue();
    assertThat(o.mainClass()).isEmpty();
    assertThat(o.toText())
        .contains("Main-Class: unknown (META-INF/MANIFEST.MF is not in the sampled entries)")
        .doesNotContain("Not specified")
        .doesNotContain("no META-INF/MANIFEST.MF");
    assertThat(o.notes()).anySatisfy(n -> assertThat(n).contains("not in the sampled part"));
    assertThat(o.toText(r -> r.id().equals(InspectorRemedies.MANIFEST_ENTRY.id()) ? "read that entry" : r.words()))
        .contains("inspect without sampling, or read that entry").doesNotContain("inspect the entry META-INF");
  }

  @Test
  void smallDirectoriesAreNeverSampled() throws Exception {
    ArchiveOverview o = (ArchiveOverview) ClassInspector.builder().overviewSampling(0.0001)
        .build().inspect(ByteSource.of("app.jar", Fixtures.sparkJobJar()), Optional.empty());

    assertThat(o.estimated()).isFalse();
  }

  @Test
  void anEntryIsFoundWhereverItLiesEvenWhenOverviewsMaySample() throws Exception {
    ClassInspector sampling = ClassInspector.builder().overviewSampling(0.05).build();

    // A file near the middle of the directory, where a sampled overview's windows do not reach.
    SourceView v = (SourceView) sampling.inspect(ByteSource.of("flat.jar", flatJar()),
        Optional.of("org/lib6/module126/impl/defaults.properties"));

    assertThat(v.lines()).containsExactly("retries=3");
  }
}

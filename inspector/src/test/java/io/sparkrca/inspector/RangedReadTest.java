package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.CountingByteSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What the inspector reads from a ranged source: the directory and the wanted entries only. */
class RangedReadTest {
  /** A fat jar: one application class and 40 stored nested jars of 256 KiB random bytes. */
  private static byte[] fatJar() {
    Random random = new Random(7);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: com.example.SparkJob\n\n".getBytes());
    entries.putAll(Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    for (int i = 0; i < 40; i++) {
      byte[] junk = new byte[256 * 1024];
      random.nextBytes(junk);
      entries.put("lib/dep-" + i + ".jar", TestJars.zip(TestJars.entries("blob.bin", junk), true));
    }
    return TestJars.zip(entries, true);
  }

  @Test
  void anOverviewReadsTheDirectoryAndAFewHeadersNotTheData() throws Exception {
    byte[] jar = fatJar();
    CountingByteSource src = new CountingByteSource(ByteSource.of("fat.jar", jar));

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(src, Optional.empty());

    assertThat(o.nestedArchives()).hasSize(40);
    assertThat(o.mainClass()).contains("com.example.SparkJob");
    assertThat(src.bytesRead()).isLessThan(jar.length / 100);
  }

  @Test
  void oneClassReadsOnlyItsOwnEntry() throws Exception {
    byte[] jar = fatJar();
    CountingByteSource src = new CountingByteSource(ByteSource.of("fat.jar", jar));

    ClassView v = (ClassView) ClassInspector.create().inspect(src, Optional.of("com.example.SparkJob"));

    assertThat(v.classes()).hasSize(1);
    assertThat(src.bytesRead()).isLessThan(16 * 1024);
  }

  @Test
  void aClassInsideAStoredNestedJarIsReadInPlace() throws Exception {
    Map<String, byte[]> lib = new LinkedHashMap<>(Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    byte[] padding = new byte[2 << 20];
    new Random(1).nextBytes(padding);
    lib.put("padding.bin", padding);
    byte[] outer = TestJars.zip(TestJars.entries("BOOT-INF/lib/lib.jar", TestJars.zip(lib, false),
        "BOOT-INF/lib/other.jar", TestJars.zip(TestJars.entries("x.bin", padding), true)), true);
    CountingByteSource src = new CountingByteSource(ByteSource.of("boot.jar", outer));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(src, Optional.of("BOOT-INF/lib/lib.jar!/com/example/SparkJob.class"));

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(outer.length).isGreaterThan(4 << 20);
    assertThat(src.bytesRead()).isLessThan(64 * 1024);
  }
}

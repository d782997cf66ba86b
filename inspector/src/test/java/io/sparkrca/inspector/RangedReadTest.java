package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.CountingByteSource;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the inspector reads from a ranged source: the directory and the wanted entries only. */
class RangedReadTest {

  @Test
  void anOverviewReadsTheDirectoryAndAFewHeadersNotTheData() throws Exception {
    byte[] jar = TestJars.fatJar();
    CountingByteSource src = new CountingByteSource(ByteSource.of("fat.jar", jar));

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(src, Optional.empty());

    assertThat(o.nestedArchives()).hasSize(40);
    assertThat(o.mainClass()).contains("com.example.SparkJob");
    assertThat(src.bytesRead()).isLessThan(jar.length / 100);
  }

  @Test
  void oneClassReadsOnlyItsOwnEntry() throws Exception {
    byte[] jar = TestJars.fatJar();
    CountingByteSource src = new CountingByteSource(ByteSource.of("fat.jar", jar));

    ClassView v = (ClassView) ClassInspector.create().inspect(src, Optional.of("com.example.SparkJob"));

    assertThat(v.classes()).hasSize(1);
    assertThat(src.bytesRead()).isLessThan(16 * 1024);
  }

  @Test
  void aClassInsideAStoredNestedJarIsReadInPlace() throws Exception {
    byte[] outer = TestJars.bootJar();
    CountingByteSource src = new CountingByteSource(ByteSource.of("boot.jar", outer));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(src, Optional.of("BOOT-INF/lib/lib.jar!/com/example/SparkJob.class"));

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(outer.length).isGreaterThan(4 << 20);
    assertThat(src.bytesRead()).isLessThan(64 * 1024);
  }
}

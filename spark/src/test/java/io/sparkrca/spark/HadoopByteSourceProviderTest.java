package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.fleet.FleetLog;
import io.sparkrca.fleet.FleetLogs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading through Hadoop's real local file system (file: URIs) as core reads local files. */
class HadoopByteSourceProviderTest {
  @TempDir Path tmp;
  private final HadoopByteSourceProvider hadoop = new HadoopByteSourceProvider(new Configuration());

  @Test
  void claimsHadoopSchemesOnlyAndLeavesPlainPathsAndHttpToCore() {
    assertThat(hadoop.supports("file:///tmp/x")).isTrue();
    assertThat(hadoop.supports("/tmp/x")).isFalse();
    assertThat(hadoop.supports("C:\\logs\\x")).isFalse();
    assertThat(hadoop.supports("https://host/x")).isFalse();
    assertThat(hadoop.supports("nosuchscheme://b/x")).as("no file system for it").isFalse();
  }

  @Test
  void rangedReadsAndStreamsGiveTheFilesBytes() throws IOException {
    byte[] bytes = new byte[100_000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    Path f = Files.write(tmp.resolve("app-1"), bytes);
    ByteSource s = hadoop.open(f.toUri().toString());
    assertThat(s.size()).hasValue(bytes.length);
    assertThat(s.lastModified()).isPresent();
    assertThat(s.read(99_990, 100)).containsExactly(java.util.Arrays.copyOfRange(bytes, 99_990, 100_000));
    assertThat(s.read(200_000, 10)).isEmpty();
    try (InputStream in = s.openStream(50_000)) {
      assertThat(in.readAllBytes()).containsExactly(java.util.Arrays.copyOfRange(bytes, 50_000, 100_000));
    }
    assertThat(s.fileName()).isEqualTo("app-1");
  }

  @Test
  void aMissingDirectoryIsInputNotFound() {
    assertThatThrownBy(() -> hadoop.list(tmp.resolve("nope").toUri().toString()))
        .isInstanceOf(InputNotFoundException.class);
  }

  @Test
  void findsTheSameFleetAsTheLocalReaderDoes() throws IOException {
    List<TestkitFixtures.Fixture> fixtures = TestkitFixtures.all();
    assumeTrue(!fixtures.isEmpty(), "no testkit fixtures");
    for (TestkitFixtures.Fixture f : fixtures) {
      SparkForks.copy(f, Files.createDirectories(tmp.resolve("spark-" + f.sparkVersion())));
    }
    String uri = tmp.toUri().toString();
    ByteSources viaHadoop = ByteSources.builder().add(hadoop).build();
    List<FleetLog> h = FleetLogs.discover(viaHadoop, uri).logs();
    List<FleetLog> local = FleetLogs.discover(ByteSources.defaults(), tmp.toString()).logs();
    assertThat(h).hasSameSizeAs(local).hasSize(fixtures.size());
    for (int i = 0; i < h.size(); i++) {
      FleetLog a = h.get(i);
      FleetLog b = local.get(i);
      assertThat(a.uri()).isEqualTo(b.uri().replace(tmp + "/", uri));
      assertThat(a.rolling()).isEqualTo(b.rolling());
      assertThat(a.inProgress()).isEqualTo(b.inProgress());
      assertThat(a.sizeBytes()).isEqualTo(b.sizeBytes());
      assertThat(a.files()).hasSameSizeAs(b.files());
    }
  }
}

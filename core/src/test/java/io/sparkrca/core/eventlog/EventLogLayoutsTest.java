package io.sparkrca.core.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.testing.Codecs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same real log in every codec and layout gives the same answers. (Every committed testkit
 * fixture is already checked against the real History Server; these re-encode one log into the
 * layouts the corpus cannot hold: every codec for one log, compacted rolling logs, a cut rolling
 * zstd log.)
 */
class EventLogLayoutsTest {
  private static final List<String> PATHS =
      List.of("jobs", "stages", "executors", "allexecutors", "environment", "sql");

  private static byte[] plainBytes(TestkitFixtures.Fixture f) throws IOException {
    List<Path> files = new ArrayList<>();
    Path log = f.eventLog();
    if (Files.isDirectory(log)) {
      try (Stream<Path> s = Files.list(log)) {
        s.filter(p -> p.getFileName().toString().startsWith("events_"))
            .sorted((a, b) -> Long.compare(index(a), index(b)))
            .forEach(files::add);
      }
    } else {
      files.add(log);
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (Path p : files) {
      try (InputStream in = DecodedStream.open(ByteSource.of(p), false)) {
        in.transferTo(out);
      }
    }
    return out.toByteArray();
  }

  private static long index(Path p) {
    String n = p.getFileName().toString();
    return Long.parseLong(n.substring(7, n.indexOf('_', 7)));
  }

  private static List<String> answers(Path log, String appId) {
    RestRouter router = RestRouter.over(EventLogs.reader().build().history(log.toString()));
    List<String> out = new ArrayList<>();
    for (String p : PATHS) {
      out.add(router.get("applications/" + appId + "/" + p).body());
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void aRealLogAnswersTheSameInEveryCodec(Compression codec, @TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "skew-join");
    String appId = f.label().path("application").path("id").asText();
    byte[] plain = plainBytes(f);
    Path reference = Files.write(dir.resolve(appId), plain);
    Path encoded = Files.createDirectory(dir.resolve("encoded")).resolve(appId + Codecs.extension(codec));
    Files.write(encoded, Codecs.compress(codec, plain));

    assertThat(answers(encoded, appId)).isEqualTo(answers(reference, appId));
  }

  @Test
  void aRollingLogIsReadFromItsLastCompactedFile(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "healthy");
    String appId = f.label().path("application").path("id").asText();
    byte[] plain = plainBytes(f);
    Path reference = Files.write(dir.resolve(appId), plain);

    // events_1 is superseded by the compacted events_2 (which holds everything up to it).
    Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_" + appId));
    Files.write(rolling.resolve("events_1_" + appId + ".zstd"), new byte[] {1, 2, 3, 4});
    int cut = cutAtLine(plain, plain.length / 2);
    Files.write(rolling.resolve("events_2_" + appId + ".zstd.compact"),
        Codecs.compress(Compression.ZSTD, Arrays.copyOf(plain, cut)));
    Files.write(rolling.resolve("events_3_" + appId + ".zstd"),
        Codecs.compress(Compression.ZSTD, Arrays.copyOfRange(plain, cut, plain.length)));
    Files.write(rolling.resolve("appstatus_" + appId), new byte[0]);

    assertThat(EventLogs.reader().build().find(rolling.toString()).get(0).files())
        .hasSize(2).allMatch(p -> !p.contains("events_1_"));
    assertThat(answers(rolling, appId)).isEqualTo(answers(reference, appId));
  }

  @Test
  void aRollingZstdLogCutWhileRunningIsReadUpToTheCut(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "healthy");
    String appId = f.label().path("application").path("id").asText();
    byte[] plain = plainBytes(f);
    byte[] zstd = Codecs.compressFlushing(Compression.ZSTD, plain, 1);
    Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_" + appId));
    Files.write(rolling.resolve("events_1_" + appId + ".zstd"), Arrays.copyOf(zstd, zstd.length * 6 / 10));
    Files.write(rolling.resolve("appstatus_" + appId + ".inprogress"), new byte[0]);

    ReplayedApplication app = EventLogs.replay(rolling);

    assertThat(app.report().truncated()).isTrue();
    assertThat(app.report().badLineCount()).isZero();
    assertThat(app.report().completed()).isFalse();
    assertThat(app.attemptInfo().completed()).isFalse();
    assertThat(app.appId()).isEqualTo(appId);
    assertThat(app.report().sources()).singleElement().satisfies(s -> assertThat(s.inProgress()).isTrue());
    assertThat(app.jobs(Set.of()).size()).isLessThanOrEqualTo(EventLogs.replay(f.eventLog()).jobs(Set.of()).size());
  }

  private static int cutAtLine(byte[] b, int near) {
    int i = near;
    while (b[i] != '\n') {
      i++;
    }
    return i + 1;
  }
}

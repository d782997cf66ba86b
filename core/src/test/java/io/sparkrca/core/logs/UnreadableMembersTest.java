package io.sparkrca.core.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real driver log (Spark 4.0.4, healthy) searched in a directory next to members that cannot be
 * read: garbage behind each codec's magic bytes, and a named pipe. Each is a stated error naming
 * it, fast; the real log's matches are all found; nothing waits on the pipe.
 */
class UnreadableMembersTest {
  private static final Duration BOUND = Duration.ofSeconds(60);

  @TempDir Path dir;
  private long realMatches;

  @BeforeEach
  void copyRealLog() throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Path log = dir.resolve("driver-stderr.log");
    Files.copy(TestkitFixtures.get("4.0.4", "healthy").driverLog(), log);
    realMatches = LogStream.open(log.toString()).search(SearchQuery.literal("Executor")).matches().size();
    assertThat(realMatches).isPositive();
  }

  private SearchSetResult searchDir() {
    return LogSet.builder().sources(ByteSources.defaults()).build()
        .search(LogQuery.builder().name(dir.toString()).search(SearchQuery.literal("Executor")).build());
  }

  @Test
  void garbageBehindEachCodecsMagicBytesIsAStatedErrorPerMemberAndTheRealLogIsSearched() throws IOException {
    Random random = new Random(44);
    byte[][] magic = {{0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0}, {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd},
        "LZ4Block".getBytes(java.nio.charset.StandardCharsets.US_ASCII), {'Z', 'V', 0},
        {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}};
    String[] ext = {"gz", "zstd", "lz4", "lzf", "snappy"};
    for (int i = 0; i < ext.length; i++) {
      for (int size : new int[] {70_000, 2_000_000}) {
        byte[] body = new byte[size];
        random.nextBytes(body);
        Path f = dir.resolve("garbage-" + size + "." + ext[i]);
        Files.write(f, magic[i]);
        Files.write(f, body, java.nio.file.StandardOpenOption.APPEND);
      }
    }

    SearchSetResult r = assertTimeoutPreemptively(BOUND, this::searchDir);

    assertThat(r.totalMatches()).isEqualTo(realMatches);
    // Each garbage member is an error naming it, or (where the garbage ends before a decoder can
    // tell it from a stream cut short) a log whose notes say it ends early: stated either way.
    java.util.List<String> stated = new java.util.ArrayList<>();
    r.errors().forEach(e -> {
      assertThat(e.message()).containsAnyOf("cannot decode", "cut off", "binary, not text")
          .doesNotContain("ArrayIndexOutOfBoundsException:").doesNotContain("SnappyError:");
      stated.add(e.source());
    });
    r.logs().stream().filter(l -> l.source().contains("garbage-")).forEach(l -> {
      assertThat(l.notes()).anySatisfy(n -> assertThat(n).contains("ends early"));
      stated.add(l.source());
    });
    assertThat(stated).filteredOn(s -> s.contains("garbage-")).hasSize(10);
    assertThat(r.errors()).hasSizeGreaterThanOrEqualTo(8);
  }

  @Test
  void aNamedPipeInASearchedDirectoryIsRefusedByWhatItIsWithoutOpeningIt() throws Exception {
    Path fifo = mkfifo(dir.resolve("pipe.log"));

    SearchSetResult r = assertTimeoutPreemptively(BOUND, this::searchDir);

    assertThat(r.totalMatches()).isEqualTo(realMatches);
    assertThat(r.errors()).singleElement().satisfies(e -> {
      assertThat(e.source()).contains(fifo.getFileName().toString());
      assertThat(e.message()).contains("is a named pipe (FIFO), not a regular file").contains("not opened");
    });
  }

  @Test
  void aNamedPipeNamedAloneIsRefusedForTailAndCount() throws Exception {
    Path fifo = mkfifo(dir.resolve("pipe.log"));

    assertTimeoutPreemptively(BOUND, () -> {
      assertThatThrownBy(() -> LogStream.open(fifo.toString()).tail(10))
          .isInstanceOf(UnsupportedInputException.class).hasMessageContaining("named pipe");
      assertThatThrownBy(() -> LogStream.open(fifo.toString()).count())
          .isInstanceOf(UnsupportedInputException.class).hasMessageContaining("named pipe");
    });
  }

  private static Path mkfifo(Path at) throws IOException, InterruptedException {
    return io.sparkrca.core.testkit.NamedPipes.make(at);
  }
}

package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProgressLine}: what it shows, how often, and only on a terminal. */
class ProgressLineTest {
  @Test
  void theLineShowsCountsBytesRateAndTimeLeft() {
    AtomicLong now = new AtomicLong();
    StringWriter err = new StringWriter();
    ProgressLine p = new ProgressLine(new PrintWriter(err), true, "logs", now::get);
    p.start(10, 10_000_000);
    now.addAndGet(2_000_000_000L);
    p.advance(2, 2_000_000);

    assertThat(p.line()).isEqualTo("2/10 logs · 1.9 MiB of 9.5 MiB · 976.6 KiB/s · 1.0 logs/s · ETA 8.0 s");
    assertThat(err.toString()).startsWith("\r0/10 logs").contains("\r2/10 logs");
  }

  @Test
  void redrawsAtMostEveryQuarterSecondAndEndsTheLine() {
    AtomicLong now = new AtomicLong();
    StringWriter err = new StringWriter();
    try (ProgressLine p = new ProgressLine(new PrintWriter(err), true, "logs", now::get)) {
      p.start(100, 0);
      for (int i = 0; i < 50; i++) {
        now.addAndGet(10_000_000L); // 10 ms apart
        p.advance(1, 0);
      }
    }
    long draws = err.toString().chars().filter(c -> c == '\r').count();

    assertThat(draws).isBetween(2L, 5L);
    assertThat(err.toString()).endsWith(System.lineSeparator());
  }

  @Test
  void aTotalTheReadsOutgrewIsNotShown() {
    AtomicLong now = new AtomicLong();
    ProgressLine p = new ProgressLine(new PrintWriter(new StringWriter()), true, "files", now::get);
    p.start(0, 0);
    p.grow(1, 256_307); // the file's size; decoded, it reads to more
    now.addAndGet(1_000_000_000L);
    p.advance(0, 292_045);

    assertThat(p.line()).isEqualTo("0/1 files · 285.2 KiB · 285.2 KiB/s").doesNotContain(" of ");
  }

  @Test
  void clearedTheLineIsErasedAndNeverDrawnAgain() {
    AtomicLong now = new AtomicLong();
    StringWriter err = new StringWriter();
    ProgressLine p = new ProgressLine(new PrintWriter(err), true, "files", now::get);
    p.start(1, 1000);
    now.addAndGet(1_000_000_000L);
    p.advance(0, 500);
    int drawn = p.line().length();
    p.clear();
    String erased = err.toString();
    now.addAndGet(1_000_000_000L);
    p.advance(1, 500);
    p.close();

    assertThat(erased).endsWith("\r" + " ".repeat(drawn) + "\r");
    assertThat(err.toString()).as("nothing after the erasure, not even a line end").isEqualTo(erased);
  }

  @Test
  void disabledItWritesNothing() {
    StringWriter err = new StringWriter();
    try (ProgressLine p = ProgressLine.create(new PrintWriter(err), false, "logs")) {
      p.start(3, 30);
      p.advance(3, 30);
    }
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aDescriptorIsATerminalOnlyWhenItLinksToOne(@TempDir Path dir) throws Exception {
    Path tty = Files.createSymbolicLink(dir.resolve("2"), Path.of("/dev/pts/3"));
    Path file = Files.createSymbolicLink(dir.resolve("1"), dir.resolve("rows.jsonl"));
    Path pipe = Files.createSymbolicLink(dir.resolve("3"), Path.of("pipe:[12345]"));

    assertThat(ProgressLine.isTerminal(tty)).contains(true);
    assertThat(ProgressLine.isTerminal(file)).contains(false);
    assertThat(ProgressLine.isTerminal(pipe)).contains(false);
    assertThat(ProgressLine.isTerminal(dir.resolve("missing"))).isEmpty();
    // Under the build, standard error is a pipe or a file.
    assertThat(ProgressLine.stderrIsTerminal()).isFalse();
  }
}

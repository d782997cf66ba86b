package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link MemoryBudget}: leases, waiting in turn, and the estimate. */
class MemoryBudgetTest {
  @Test
  void aLeaseThatDoesNotFitWaitsUntilTheHeldOnesAreGivenBack() throws Exception {
    MemoryBudget budget = MemoryBudget.ofBytes(100);
    MemoryBudget.Lease a = budget.acquire(60);
    AtomicBoolean got = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try (MemoryBudget.Lease b = budget.acquire(60)) {
        got.set(true);
      }
      done.countDown();
    });
    t.start();

    assertThat(done.await(300, TimeUnit.MILLISECONDS)).as("the second lease must wait").isFalse();
    assertThat(got).isFalse();
    a.close();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(budget.peakInUse()).isEqualTo(60);
    assertThat(budget.inUse()).isZero();
  }

  @Test
  void aLeaseLargerThanTheBudgetTakesAllOfItAndRunsAlone() {
    MemoryBudget budget = MemoryBudget.ofBytes(100);
    try (MemoryBudget.Lease big = budget.acquire(1_000_000)) {
      assertThat(big.bytes()).isEqualTo(100);
      assertThat(budget.inUse()).isEqualTo(100);
    }
    assertThat(budget.inUse()).isZero();
  }

  @Test
  void waitersAreServedInTurnSoALargeOneIsNotStarved() throws Exception {
    MemoryBudget budget = MemoryBudget.ofBytes(100);
    MemoryBudget.Lease small = budget.acquire(30);
    CountDownLatch bigWaiting = new CountDownLatch(1);
    CountDownLatch bigDone = new CountDownLatch(1);
    Thread big = new Thread(() -> {
      bigWaiting.countDown();
      try (MemoryBudget.Lease l = budget.acquire(100)) {
        bigDone.countDown();
      }
    });
    big.start();
    bigWaiting.await();
    Thread.sleep(100);
    AtomicBoolean laterSmallRan = new AtomicBoolean();
    Thread later = new Thread(() -> {
      try (MemoryBudget.Lease l = budget.acquire(10)) {
        laterSmallRan.set(bigDone.getCount() > 0);
      }
    });
    later.start();
    Thread.sleep(200);
    small.close();
    later.join(10_000);
    big.join(10_000);

    assertThat(laterSmallRan).as("a later small lease must not pass a large one waiting before it").isFalse();
  }

  @Test
  void compressedLogsAreEstimatedLargerThanPlainOnesOfTheSameSize() {
    FleetLog plain = new FleetLog("/l/app-1", "app-1", List.of("/l/app-1"), false, false, 100_000_000,
        Optional.of(Instant.EPOCH), Optional.empty());
    FleetLog zstd = new FleetLog("/l/app-2.zstd", "app-2", List.of("/l/app-2.zstd"), false, false, 100_000_000,
        Optional.of(Instant.EPOCH), Optional.empty());

    assertThat(MemoryBudget.estimate(plain)).isEqualTo(MemoryBudget.BASE_BYTES + 8_000_000);
    assertThat(MemoryBudget.estimate(zstd)).isEqualTo(MemoryBudget.BASE_BYTES + 8_000_000L * MemoryBudget.expansion(Compression.ZSTD));

    assertThatThrownBy(() -> MemoryBudget.ofBytes(0)).isInstanceOf(InvalidRequestException.class);
  }

  /** The expansion assumed per codec is at least what every compressed testkit log (real Spark runs) expands. */
  @Test
  void everyCompressedTestkitLogExpandsNoMoreThanItsCodecIsTakenTo() throws IOException {
    int checked = 0;
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      Path log = f.eventLog();
      if (!Files.isRegularFile(log)) {
        continue; // a rolling folder: its parts are plain
      }
      Optional<Compression> codec = Compression.fromExtension(log.getFileName().toString()).filter(Compression::isCompressed);
      if (codec.isEmpty()) {
        continue;
      }
      long plain = 0;
      byte[] buf = new byte[1 << 16];
      try (InputStream in = codec.get().decompress(new BufferedInputStream(Files.newInputStream(log)))) {
        for (int n; (n = in.read(buf)) > 0; ) {
          plain += n;
        }
      }
      double ratio = (double) plain / Files.size(log);
      assertThat((double) MemoryBudget.expansion(codec.get()))
          .as("%s/%s (%s) expands %.1f times", f.sparkVersion(), f.scenario(), codec.get(), ratio)
          .isGreaterThanOrEqualTo(ratio);
      checked++;
    }
    assertThat(checked).as("compressed testkit logs").isGreaterThan(10);
  }
}

package io.sparkrca.testing.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.testing.junit.internal.SparkReflection;
import io.sparkrca.testing.junit.SparkTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Spark flushes its event log on a job's end but not on a task's: the harness pushes the buffer to
 * the file itself when the log lags the status store, through the writer's own flush (Spark 3.5
 * and 4.0 name it alike). Here the job's last events are flushed already, so the flush must find
 * the writer and change nothing but the buffer.
 */
@SparkTest
class EventLogFlushTest {

  private static Path eventLog(SparkContext sc) throws IOException {
    Path dir = Path.of(java.net.URI.create(sc.getConf().get("spark.eventLog.dir").replaceFirst("^/", "file:/")));
    try (Stream<Path> files = Files.walk(dir)) {
      // Spark 4 rolls by default (eventlog_v2_ID/events_1_ID beside appstatus_ID), and Hadoop's local
      // file system writes .crc files beside what it writes.
      return files.filter(Files::isRegularFile).filter(f -> {
        String name = f.getFileName().toString();
        return name.contains(sc.applicationId()) && !name.endsWith(".crc") && !name.startsWith(".")
            && !name.startsWith("appstatus");
      }).findFirst().orElseThrow();
    }
  }

  @Test
  void theEventLogWritersBufferIsFlushedWithoutWritingAnything(SparkSession spark) throws IOException {
    SparkContext sc = spark.sparkContext();
    assertThat(spark.range(100).repartition(2).count()).isEqualTo(100);
    SparkReflection.drainListenerBus(sc, 60_000L);
    Path log = eventLog(sc);
    byte[] before = Files.readAllBytes(log);

    SparkReflection.flushEventLog(sc);

    // Spark 4 compresses the log by default, so compare bytes: the flush may only append what was buffered.
    byte[] after = Files.readAllBytes(log);
    assertThat(before).isNotEmpty();
    assertThat(java.util.Arrays.copyOf(after, Math.min(after.length, before.length))).as("the file only grows")
        .isEqualTo(before);
  }
}

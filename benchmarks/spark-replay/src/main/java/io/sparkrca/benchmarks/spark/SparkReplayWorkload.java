package io.sparkrca.benchmarks.spark;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkFirehoseListener;
import org.apache.spark.deploy.history.EventLogFileReader;
import org.apache.spark.scheduler.ReplayListenerBus;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.status.AppStatusListener;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.status.ExecutorSummaryWrapper;
import org.apache.spark.status.JobDataWrapper;
import org.apache.spark.status.StageDataWrapper;
import org.apache.spark.status.TaskDataWrapper;
import org.apache.spark.util.kvstore.InMemoryStore;

/**
 * Spark's own replay of one event log into its status store, as the History Server rebuilds an
 * application (FsHistoryProvider.rebuildAppStore): a ReplayListenerBus feeding an
 * AppStatusListener that writes into an ElementTrackingStore over an InMemoryStore (the SHS
 * default without spark.history.store.path), with asynchronous tracking disabled like the SHS does,
 * the log opened by EventLogFileReader.openEventLog (Hadoop local FS, codec from the extension).
 *
 * <p>Only spark-core is on the class path, so SQL events are dropped by the bus as unknown classes
 * (the SHS would also run its SQL listener; that would only slow Spark down).
 */
public final class SparkReplayWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    SparkConf conf = new SparkConf().set("spark.appStateStore.asyncTracking.enable", "false");
    File f = new File(file).getAbsoluteFile();
    InMemoryStore store = new InMemoryStore();
    ElementTrackingStore tracking = new ElementTrackingStore(store, conf);
    AppStatusListener listener =
        new AppStatusListener(
            tracking, conf, false, scala.Option.empty(), scala.Option.apply((Object) f.lastModified()));
    long[] events = new long[1];
    ReplayListenerBus bus = new ReplayListenerBus();
    bus.addListener(listener);
    bus.addListener(
        new SparkFirehoseListener() {
          @Override
          public void onEvent(SparkListenerEvent event) {
            events[0]++;
          }
        });
    boolean ok;
    try {
      Path path = new Path(f.toURI());
      FileSystem fs = path.getFileSystem(new Configuration());
      try (InputStream in = EventLogFileReader.openEventLog(path, fs)) {
        ok = bus.replay(in, path.toString(), false, ReplayListenerBus.SELECT_ALL_FILTER());
      }
      tracking.close(false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    boolean replayed = ok;
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "spark");
      m.put("replayOk", replayed);
      m.put("sparkEvents", events[0]);
      try {
        m.put("jobs", store.count(JobDataWrapper.class));
        m.put("stages", store.count(StageDataWrapper.class));
        m.put("tasks", store.count(TaskDataWrapper.class));
        m.put("executors", store.count(ExecutorSummaryWrapper.class));
      } catch (Exception e) {
        m.put("storeError", e.toString());
      }
      m.put("sparkVersion", org.apache.spark.package$.MODULE$.SPARK_VERSION());
      return m;
    };
  }
}

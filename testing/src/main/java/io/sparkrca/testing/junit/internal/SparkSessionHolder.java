package io.sparkrca.testing.junit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SparkSession a test runs on, with where its event log goes: one the extension built (and will
 * stop, deleting its temporary directory), or one already running in the JVM (reused as it is,
 * never stopped: Spark allows one context per JVM).
 */
public final class SparkSessionHolder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SparkSessionHolder.class);
  /** Keeps the temporary directories (event logs) after the tests when true. */
  public static final String KEEP_PROPERTY = "sparkrca.testing.keepEventLogs";

  /** A customization of Spark's session builder, applied when the builder is of {@code type}. */
  public record Customizer<B>(Class<B> type, Consumer<? super B> action) {
    void apply(Object builder) {
      if (!type.isInstance(builder)) {
        throw new IllegalStateException("the session builder is a " + builder.getClass().getName() + ", not the "
            + type.getName() + " the customizer was registered for");
      }
      action.accept(type.cast(builder));
    }
  }

  /** How to build a session. */
  public record Settings(String master, String appName, Map<String, String> conf, List<Customizer<?>> customizers) {
    public Settings {
      Objects.requireNonNull(master, "master");
      Objects.requireNonNull(appName, "appName");
      conf = Map.copyOf(conf);
      customizers = List.copyOf(customizers);
    }
  }

  private final Object session;
  private final Object sparkContext;
  private final String applicationId;
  private final Path eventLogDir;
  private final Optional<Path> tempDir;

  private SparkSessionHolder(Object session, Path eventLogDir, Optional<Path> tempDir) {
    this.session = session;
    this.sparkContext = SparkReflection.sparkContext(session);
    this.applicationId = SparkReflection.applicationId(sparkContext);
    this.eventLogDir = eventLogDir;
    this.tempDir = tempDir;
  }

  /**
   * The session the JVM already runs (when it writes an event log), else a new one built with
   * {@code settings}, its event log in a new temporary directory.
   */
  public static SparkSessionHolder open(Settings settings, ClassLoader loader) {
    Optional<Object> existing = SparkReflection.existingSession(loader);
    if (existing.isPresent()) {
      Object sc = SparkReflection.sparkContext(existing.get());
      Path dir = SparkReflection.eventLogDir(sc).orElseThrow(() -> new IllegalStateException(
          "the SparkSession already running in this JVM (application " + SparkReflection.applicationId(sc)
              + ") writes no event log, and Spark allows one per JVM: stop it before this test class, or start it "
              + "with spark.eventLog.enabled=true"));
      LOG.info("reusing the running SparkSession of application {} (event log in {})", SparkReflection.applicationId(sc), dir);
      return new SparkSessionHolder(existing.get(), dir, Optional.empty());
    }
    Path temp = tempDirectory();
    try {
      Path events = Files.createDirectories(temp.resolve("events"));
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("spark.eventLog.enabled", "true");
      conf.put("spark.eventLog.dir", events.toUri().toString());
      conf.put("spark.ui.enabled", "false");
      conf.put("spark.sql.shuffle.partitions", "4");
      conf.put("spark.driver.host", "127.0.0.1");
      conf.put("spark.driver.bindAddress", "127.0.0.1");
      conf.put("spark.sql.warehouse.dir", temp.resolve("warehouse").toUri().toString());
      conf.put("spark.local.dir", Files.createDirectories(temp.resolve("local")).toString());
      conf.putAll(settings.conf());
      Object builder = SparkReflection.builder(loader);
      SparkReflection.invoke(builder, "master", settings.master());
      SparkReflection.invoke(builder, "appName", settings.appName());
      for (Map.Entry<String, String> e : conf.entrySet()) {
        SparkReflection.invoke(builder, "config", e.getKey(), e.getValue());
      }
      for (Customizer<?> c : settings.customizers()) {
        c.apply(builder);
      }
      Object session = SparkReflection.invoke(builder, "getOrCreate");
      Object sc = SparkReflection.sparkContext(session);
      Path dir = SparkReflection.eventLogDir(sc).orElseThrow(() -> new IllegalStateException(
          "the SparkSession was configured with spark.eventLog.enabled=false: sparkrca reads the run from its event log, "
              + "leave it enabled"));
      LOG.info("started a SparkSession for the tests: application {}, Spark {}, event log in {}",
          SparkReflection.applicationId(sc), SparkReflection.version(sc), dir);
      return new SparkSessionHolder(session, dir, Optional.of(temp));
    } catch (IOException e) {
      delete(temp);
      throw new UncheckedIOException("could not prepare " + temp + " for the SparkSession's event log", e);
    } catch (RuntimeException | Error e) {
      delete(temp);
      throw e;
    }
  }

  /** A new temporary directory for one run. */
  public static Path tempDirectory() {
    try {
      return Files.createTempDirectory("sparkrca-spark-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory for the Spark event log", e);
    }
  }

  public Object session() {
    return session;
  }

  public Object sparkContext() {
    return sparkContext;
  }

  public String applicationId() {
    return applicationId;
  }

  public Path eventLogDir() {
    return eventLogDir;
  }

  /** Whether this holder built the session (and so stops it). */
  public boolean owned() {
    return tempDir.isPresent();
  }

  /** Waits for Spark's listener bus to deliver every event so far (the event log writes them). */
  public void drain() {
    if (!SparkReflection.isStopped(sparkContext)) {
      try {
        SparkReflection.drainListenerBus(sparkContext, 60_000L);
      } catch (RuntimeException e) {
        throw new IllegalStateException("Spark's listener bus did not deliver its events within 60 s, so the event log of "
            + applicationId + " is not complete yet: " + e, e);
      }
    }
  }

  /** Pushes the event log's buffered events to its file (see {@link SparkReflection#flushEventLog}). */
  public void flushEventLog() {
    if (!SparkReflection.isStopped(sparkContext)) {
      SparkReflection.flushEventLog(sparkContext);
    }
  }

  /** Stops a session this holder built (its event log is then complete); a reused one is left running. */
  public void stopSession() {
    if (owned() && !SparkReflection.isStopped(sparkContext)) {
      SparkReflection.stop(session);
    }
  }

  @Override
  public void close() {
    stopSession();
    tempDir.ifPresent(SparkSessionHolder::deleteOrKeep);
  }

  /** Deletes a run's temporary directory, or keeps it when {@value #KEEP_PROPERTY} is true. */
  public static void deleteOrKeep(Path dir) {
    if (Boolean.getBoolean(KEEP_PROPERTY)) {
      LOG.info("kept the Spark event logs in {} ({}=true)", dir, KEEP_PROPERTY);
    } else {
      delete(dir);
    }
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", dir, e.toString());
    }
  }
}

package io.sparkrca.testing.junit.internal;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.testing.junit.SessionScope;
import io.sparkrca.testing.junit.SparkRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test's run: which session (or, for code that builds its own, which directory), which job
 * group, and when the test began and ended; the application replayed from the event log on demand,
 * and kept once the test body is over.
 */
public final class TestRun implements SparkRun {
  /** Job groups the extension sets start with this, so that a slice never takes another test's jobs. */
  public static final String GROUP_PREFIX = "sparkrca-test-";
  /** How long a read waits for the event log to catch up with Spark's live status store. */
  static final long CATCH_UP_MS = 5_000;
  private static final Logger LOG = LoggerFactory.getLogger(TestRun.class);

  private final SessionScope scope;
  private final Optional<SparkSessionHolder> holder;
  private final Path eventLogDir;
  private final String jobGroup;
  private final String label;
  private final long startMs;
  private volatile long endMs = -1;
  private volatile List<SparkApplication> finished;

  public TestRun(SessionScope scope, Optional<SparkSessionHolder> holder, Path eventLogDir, String jobGroup, String label) {
    this.scope = Objects.requireNonNull(scope, "scope");
    this.holder = Objects.requireNonNull(holder, "holder");
    this.eventLogDir = Objects.requireNonNull(eventLogDir, "eventLogDir");
    this.jobGroup = Objects.requireNonNull(jobGroup, "jobGroup");
    this.label = Objects.requireNonNull(label, "label");
    this.startMs = System.currentTimeMillis();
  }

  /** The test body is over: later calls see its whole run, replayed once. */
  public void finish() {
    if (endMs < 0) {
      endMs = System.currentTimeMillis();
    }
  }

  public boolean isFinished() {
    return endMs >= 0;
  }

  @Override
  public SparkApplication application() {
    List<SparkApplication> apps = applications();
    if (apps.size() == 1) {
      return apps.get(0);
    }
    if (apps.isEmpty()) {
      throw new IllegalStateException(label + " wrote no Spark event log to " + eventLogDir + ": the code under test "
          + "built no SparkSession, or built it before the test began (Spark reads spark.eventLog.* when it builds "
          + "its context)");
    }
    throw new IllegalStateException(label + " ran " + apps.size() + " Spark applications ("
        + apps.stream().map(a -> a.info().id()).collect(Collectors.joining(", ")) + "): take SparkRun.applications()");
  }

  @Override
  public List<SparkApplication> applications() {
    List<SparkApplication> done = finished;
    if (done != null) {
      return done;
    }
    List<SparkApplication> apps = read();
    if (isFinished()) {
      finished = apps;
    }
    return apps;
  }

  @Override
  public SparkApplication sessionApplication() {
    if (holder.isEmpty()) {
      return application();
    }
    return replayUpToDate(holder.get());
  }

  @Override
  public Path eventLogDirectory() {
    return eventLogDir;
  }

  @Override
  public String jobGroup() {
    return jobGroup;
  }

  private List<SparkApplication> read() {
    if (holder.isEmpty()) {
      // Code under test: every application it wrote into this run's own directory.
      drainRunningSession();
      if (!Files.isDirectory(eventLogDir) || isEmpty(eventLogDir)) {
        return List.of();
      }
      EventLogReader reader = EventLogs.reader().build();
      List<SparkApplication> out = new ArrayList<>();
      for (EventLogRef ref : reader.find(eventLogDir.toString())) {
        out.add(reader.replay(ref));
      }
      return List.copyOf(out);
    }
    SparkApplication whole = replayUpToDate(holder.get());
    if (scope == SessionScope.PER_METHOD && isFinished()) {
      return List.of(whole); // stopped after the body: the whole, ended application is the test's
    }
    long end = isFinished() ? endMs : System.currentTimeMillis();
    return List.of(new ApplicationSlice(whole, jobsOfThisTest(whole, end), startMs, end, label));
  }

  /** The jobs of this test's group, and the jobs without another test's group submitted while it ran. */
  private Set<Integer> jobsOfThisTest(SparkApplication whole, long end) {
    Set<Integer> ids = new HashSet<>();
    for (JobData j : whole.jobs(Set.of())) {
      Optional<String> group = j.jobGroup().filter(g -> !g.isEmpty());
      long submitted = j.submissionTime().map(Instant::toEpochMilli).orElse(-1L);
      boolean ours = group.map(jobGroup::equals).orElse(false);
      boolean duringTest = submitted >= startMs && submitted <= end && group.map(g -> !g.startsWith(GROUP_PREFIX)).orElse(true);
      if (ours || duringTest) {
        ids.add(j.jobId());
      }
    }
    return ids;
  }

  /**
   * The session's application replayed from its event log once the log holds everything Spark's
   * live status store knows of this test's jobs: each job, its end once it ended, and, per stage,
   * at least the store's finished and failed tasks. A log that lags the store (it is written on
   * another thread of the listener bus, and Spark does not flush it after a task's end) is drained,
   * flushed and read again for up to {@value
   * #CATCH_UP_MS} ms; then the read fails naming what the log lacks, rather than answering from a
   * partial log (a test would pass on missing evidence).
   */
  private SparkApplication replayUpToDate(SparkSessionHolder h) {
    long deadline = System.nanoTime() + CATCH_UP_MS * 1_000_000L;
    for (int round = 1; ; round++) {
      h.drain();
      if (round > 1) {
        h.flushEventLog(); // a task that ended after its job's last flushed event is still in Spark's buffer
      }
      List<SparkReflection.LiveJob> live = SparkReflection.liveJobs(h.sparkContext(), jobGroup);
      SparkApplication whole = replay(h.applicationId());
      Optional<String> lacking = lacking(whole, live);
      if (lacking.isEmpty()) {
        if (round > 1) {
          LOG.info("{}: the event log of {} caught up with Spark's status store after {} reads", label,
              h.applicationId(), round);
        }
        return whole;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(label + ": the event log of application " + h.applicationId() + " in "
            + eventLogDir + " still lacks what Spark's status store reports after " + CATCH_UP_MS + " ms ("
            + lacking.get() + "): Spark did not write its events to the log; check spark.eventLog.* and the "
            + "driver log for event-log errors");
      }
      LOG.info("{}: the event log of {} lags Spark's status store ({}); reading it again", label, h.applicationId(),
          lacking.get());
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(label + ": interrupted while waiting for the event log to catch up", e);
      }
    }
  }

  /** What the replay lacks of the live jobs, if anything. */
  static Optional<String> lacking(SparkApplication whole, List<SparkReflection.LiveJob> live) {
    for (SparkReflection.LiveJob j : live) {
      Optional<JobData> replayed = whole.job(j.jobId());
      if (replayed.isEmpty()) {
        return Optional.of("job " + j.jobId() + ", " + j.status() + " in Spark, is not in the log");
      }
      boolean ended = j.status().equals("SUCCEEDED") || j.status().equals("FAILED");
      if (ended && !replayed.get().status().name().equals(j.status())) {
        return Optional.of("job " + j.jobId() + " is " + j.status() + " in Spark but " + replayed.get().status()
            + " in the log");
      }
      for (Map.Entry<Integer, SparkReflection.LiveStage> s : j.stages().entrySet()) {
        List<StageData> attempts = whole.stageAttempts(s.getKey(), StageQuery.all());
        int failed = s.getValue().failedTasks();
        int completed = s.getValue().completedTasks();
        if (failed + completed == 0) {
          continue;
        }
        if (attempts.isEmpty()) {
          return Optional.of("stage " + s.getKey() + " of job " + j.jobId() + " is not in the log");
        }
        StageData latest = attempts.stream().max(Comparator.comparingInt(StageData::attemptId)).orElseThrow();
        if (latest.numFailedTasks() < failed || latest.numCompleteTasks() < completed) {
          return Optional.of("stage " + s.getKey() + " has " + completed + " finished and " + failed + " failed tasks "
              + "in Spark but " + latest.numCompleteTasks() + " and " + latest.numFailedTasks() + " in the log");
        }
      }
    }
    return Optional.empty();
  }

  private SparkApplication replay(String appId) {
    EventLogReader reader = EventLogs.reader().build();
    for (EventLogRef ref : reader.find(eventLogDir.toString())) {
      if (ref.name().equals(appId) || ref.name().startsWith(appId + "_")) {
        return reader.replay(ref);
      }
    }
    throw new IllegalStateException("no event log of application " + appId + " in " + eventLogDir
        + ": check that spark.eventLog.enabled is true and spark.eventLog.dir is this directory");
  }

  private static boolean isEmpty(Path dir) {
    try (var s = Files.list(dir)) {
      return s.findAny().isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("could not list " + dir, e);
    }
  }

  /** Drains the session code under test may have left running, so that its log is complete so far. */
  private static void drainRunningSession() {
    Optional<Object> s;
    try {
      s = SparkReflection.existingSession(Thread.currentThread().getContextClassLoader());
    } catch (IllegalStateException noSpark) {
      return;
    }
    s.ifPresent(session -> SparkReflection.drainListenerBus(SparkReflection.sparkContext(session), 60_000L));
  }
}

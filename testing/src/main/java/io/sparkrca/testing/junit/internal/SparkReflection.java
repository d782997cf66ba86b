package io.sparkrca.testing.junit.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The few calls the JUnit extension makes into Spark, by reflection, so that the testing module is
 * compiled against no Spark at all: whichever Spark the user's test class path holds (3.5 or 4.0)
 * is the one used, and none is ever forced on them. Only Scala 2.13 builds are tested; the calls
 * name no Scala-version-specific class. Every method here is public
 * API of both versions, except {@code SparkContext.listenerBus().waitUntilEmpty(long)}, which is
 * {@code private[spark]} in Scala and public in bytecode in both.
 */
public final class SparkReflection {
  /** Spark's session class; {@code org.apache.spark.sql.classic.SparkSession} extends it in 4.0. */
  public static final String SESSION_CLASS = "org.apache.spark.sql.SparkSession";

  private SparkReflection() {}

  /** The Spark session class as the test's class loader sees it, or a message saying how to add Spark. */
  public static Class<?> sessionClass(ClassLoader loader) {
    try {
      return Class.forName(SESSION_CLASS, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException("Spark SQL is not on the test class path (" + SESSION_CLASS + " not found): add "
          + "org.apache.spark:spark-sql_2.13 (3.5.x or 4.0.x) to the test (or provided) scope", e);
    }
  }

  /** {@code SparkSession.builder()}. */
  public static Object builder(ClassLoader loader) {
    return invokeStatic(sessionClass(loader), "builder");
  }

  /** The session already running in this JVM ({@code getActiveSession()}, else {@code getDefaultSession()}). */
  public static Optional<Object> existingSession(ClassLoader loader) {
    Class<?> c = sessionClass(loader);
    for (String m : new String[] {"getActiveSession", "getDefaultSession"}) {
      Optional<Object> s = option(invokeStatic(c, m));
      if (s.isPresent() && !isStopped(sparkContext(s.get()))) {
        return s;
      }
    }
    return Optional.empty();
  }

  public static Object sparkContext(Object session) {
    return invoke(session, "sparkContext");
  }

  public static String applicationId(Object sc) {
    return (String) invoke(sc, "applicationId");
  }

  public static String version(Object sc) {
    return (String) invoke(sc, "version");
  }

  public static boolean isStopped(Object sc) {
    return (Boolean) invoke(sc, "isStopped");
  }

  /** A property of the context's configuration, if set. */
  public static Optional<String> conf(Object sc, String key) {
    return option(invoke(invoke(sc, "getConf"), "getOption", key)).map(String::valueOf);
  }

  /** Where the context writes its event log; empty when the event log is off. */
  public static Optional<Path> eventLogDir(Object sc) {
    if (!conf(sc, "spark.eventLog.enabled").map(Boolean::parseBoolean).orElse(false)) {
      return Optional.empty();
    }
    Optional<Object> dir = option(invoke(sc, "eventLogDir"));
    if (dir.isPresent() && !"file".equals(((URI) dir.get()).getScheme())) {
      throw new IllegalStateException("the session writes its event log to " + dir.get() + ", not to a local directory: "
          + "sparkrca's JUnit extension reads event logs from local disk (set spark.eventLog.dir to a file: URI)");
    }
    return dir.map(u -> Path.of((URI) u));
  }

  /** Waits until every event posted so far reached the listeners, the event log among them. */
  public static void drainListenerBus(Object sc, long timeoutMs) {
    invoke(invoke(sc, "listenerBus"), "waitUntilEmpty", timeoutMs);
  }

  /**
   * Pushes what Spark's event-log writer holds in its buffer to the file, as Spark itself does on
   * the events it flushes for (a stage's or job's end, an executor added ...). A task's end is not
   * one of them: a task that ends after its job (a straggler of a failed job) stays in the buffer
   * until the next such event. Nothing is written: the writer's flush and, for a Hadoop stream, its
   * hflush, the two calls Spark makes.
   */
  public static void flushEventLog(Object sc) {
    Optional<Object> listener = scalaOption(invoke(sc, "eventLogger"));
    if (listener.isEmpty()) {
      return;
    }
    Object writer = invoke(listener.get(), "logWriter");
    scalaOption(invoke(writer, "writer")).ifPresent(w -> ((java.io.PrintWriter) w).flush());
    scalaOption(invoke(writer, "hadoopDataStream")).ifPresent(stream -> invoke(stream, "hflush"));
  }

  /**
   * A job as Spark's live status store knows it: its status name (RUNNING, SUCCEEDED, FAILED,
   * UNKNOWN) and, by stage id, the task counts of each of its stages' latest attempt the store knows.
   */
  public record LiveJob(int jobId, String status, Map<Integer, LiveStage> stages) {
    public LiveJob {
      stages = Map.copyOf(stages);
    }
  }

  /** The failed and completed tasks of a stage's latest attempt, as Spark's live status store counts them. */
  public record LiveStage(int failedTasks, int completedTasks) {}

  /** The live status of the jobs of {@code group} (Spark's status tracker, fed by its listener bus). */
  public static List<LiveJob> liveJobs(Object sc, String group) {
    Object tracker = invoke(sc, "statusTracker");
    List<LiveJob> out = new ArrayList<>();
    for (int id : (int[]) invoke(tracker, "getJobIdsForGroup", group)) {
      Optional<Object> job = scalaOption(invoke(tracker, "getJobInfo", id));
      if (job.isEmpty()) {
        continue;
      }
      Map<Integer, LiveStage> stages = new TreeMap<>();
      for (int stageId : (int[]) invoke(job.get(), "stageIds")) {
        scalaOption(invoke(tracker, "getStageInfo", stageId)).ifPresent(s -> stages.put(stageId,
            new LiveStage((Integer) invoke(s, "numFailedTasks"), (Integer) invoke(s, "numCompletedTasks"))));
      }
      out.add(new LiveJob(id, String.valueOf(invoke(job.get(), "status")), stages));
    }
    return out;
  }

  private static Optional<Object> scalaOption(Object option) {
    return (Boolean) invoke(option, "isDefined") ? Optional.of(invoke(option, "get")) : Optional.empty();
  }

  /** A local property of the calling thread ({@code spark.jobGroup.id} ...). */
  public static Optional<String> localProperty(Object sc, String key) {
    return Optional.ofNullable((String) invoke(sc, "getLocalProperty", key));
  }

  /** Sets the calling thread's job group; returns a way to put back the one it had. */
  public static Runnable setJobGroup(Object sc, String id, String description) {
    Optional<String> previousId = localProperty(sc, "spark.jobGroup.id");
    Optional<String> previousDescription = localProperty(sc, "spark.job.description");
    boolean previousInterrupt = localProperty(sc, "spark.job.interruptOnCancel").map(Boolean::parseBoolean).orElse(false);
    invoke(sc, "setJobGroup", id, description, false);
    return () -> {
      if (SparkReflection.isStopped(sc)) {
        return;
      }
      if (previousId.isPresent()) {
        invoke(sc, "setJobGroup", previousId.get(), previousDescription.orElse(null), previousInterrupt);
      } else {
        invoke(sc, "clearJobGroup");
      }
    };
  }

  public static void stop(Object session) {
    invoke(session, "stop");
  }

  /** Calls the public method {@code name} whose parameters accept {@code args}. */
  public static Object invoke(Object target, String name, Object... args) {
    return call(target.getClass(), target, name, args);
  }

  private static Object invokeStatic(Class<?> c, String name, Object... args) {
    return call(c, null, name, args);
  }

  private static Object call(Class<?> c, Object target, String name, Object[] args) {
    Method m = find(c, name, args, target == null);
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("Spark's " + c.getSimpleName() + "." + name + " failed: " + cause, cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Spark's " + c.getName() + "." + name + " is not accessible: " + e.getMessage(), e);
    }
  }

  private static Method find(Class<?> c, String name, Object[] args, boolean wantStatic) {
    for (Method m : c.getMethods()) {
      if (!m.getName().equals(name) || m.getParameterCount() != args.length
          || Modifier.isStatic(m.getModifiers()) != wantStatic) {
        continue;
      }
      Class<?>[] types = m.getParameterTypes();
      boolean ok = true;
      for (int i = 0; i < args.length && ok; i++) {
        ok = args[i] == null ? !types[i].isPrimitive() : box(types[i]).isInstance(args[i]);
      }
      if (ok) {
        if (!Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
          m.setAccessible(true); // a public method of a non-public Scala class
        }
        return m;
      }
    }
    throw new IllegalStateException("this Spark has no " + c.getName() + "." + name + " taking " + args.length
        + " argument(s): sparkrca's JUnit extension supports Spark 3.5 and 4.0");
  }

  private static Class<?> box(Class<?> t) {
    if (!t.isPrimitive()) {
      return t;
    }
    if (t == boolean.class) {
      return Boolean.class;
    }
    if (t == long.class) {
      return Long.class;
    }
    if (t == int.class) {
      return Integer.class;
    }
    if (t == double.class) {
      return Double.class;
    }
    return Object.class;
  }

  /** A {@code scala.Option}'s value. */
  private static Optional<Object> option(Object scalaOption) {
    if (scalaOption == null || !(Boolean) invoke(scalaOption, "isDefined")) {
      return Optional.empty();
    }
    return Optional.ofNullable(invoke(scalaOption, "get"));
  }
}

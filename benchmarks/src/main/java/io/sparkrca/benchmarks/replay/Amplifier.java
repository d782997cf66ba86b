package io.sparkrca.benchmarks.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdOutputStream;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Amplifies a real Spark event log into a large one the History Server accepts, for the replay
 * benchmark (issue 2 §6).
 *
 * <p>The seed (any codec or layout sparkrca reads) is split into a head (log start, resource
 * profiles, environment, application start, executors and block managers), a body (SQL
 * executions, jobs, stages, tasks, metrics events) and a tail (removals, application end). The
 * output is the head, plus synthetic executors, then the body repeated as many times as needed,
 * then the tail. Each copy of the body gets:
 *
 * <ul>
 *   <li>fresh job, stage, RDD, accumulator and SQL execution ids (the seed's ids plus copy times
 *       the seed's span), consistently in every place they occur (stage infos, parent ids, job
 *       properties, SQL plan metrics, driver accumulator updates);
 *   <li>its stages fanned out: each seed task becomes {@code fan} tasks (fan drawn per copy) with
 *       unique task ids and indices, launched in waves over the synthetic executors, so stages
 *       have hundreds to thousands of tasks; "Number of Tasks" follows;
 *   <li>times shifted after the previous copy, with task durations varied (log-normal, 1%
 *       stragglers), and stage, job and SQL end times never before their last task;
 *   <li>varied task metrics: run and CPU time, GC time, input bytes and records, result size,
 *       peak execution memory, spills on a few tasks, shuffle values scaled where the seed has
 *       them; the internal accumulator updates agree with the metrics;
 *   <li>a few failed task attempts (ExceptionFailure) each followed by a successful retry.
 * </ul>
 *
 * <p>Every stage and job that starts also ends. Output: {@code <out>/plain/<appId>} and {@code
 * <out>/zstd/<appId>.zstd} (zstd level 1, as Spark writes), written in one pass, plus {@code
 * <out>/SUMMARY.properties}. A {@code STAMP} of the inputs and settings lets a rerun skip the work.
 *
 * <pre>{@code
 * java -cp ... io.sparkrca.benchmarks.replay.Amplifier --seed <log> --out benchmarks/data/replay \
 *     [--min-tasks 1000000] [--min-bytes 1000000000] [--executors 48] [--fan 32..96] [--random-seed 42]
 * }</pre>
 */
public final class Amplifier {
  static final String VERSION = "1";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final Set<String> HEAD_EVENTS =
      Set.of(
          "SparkListenerLogStart",
          "SparkListenerResourceProfileAdded",
          "SparkListenerEnvironmentUpdate",
          "SparkListenerApplicationStart",
          "SparkListenerExecutorAdded",
          "SparkListenerBlockManagerAdded");
  private static final Set<String> TAIL_EVENTS =
      Set.of(
          "SparkListenerExecutorRemoved",
          "SparkListenerBlockManagerRemoved",
          "SparkListenerApplicationEnd");
  private static final Set<String> TIME_FIELDS =
      Set.of("Submission Time", "Completion Time", "Launch Time", "Finish Time", "Getting Result Time", "time");

  private static final int CORES_PER_EXECUTOR = 4;

  /** Settings. */
  record Settings(
      Path seed, Path out, long minTasks, long minBytes, int executors, int minFan, int maxFan,
      long randomSeed, double failureRate) {}

  private final Settings s;
  private final List<ObjectNode> head = new ArrayList<>();
  private final List<ObjectNode> body = new ArrayList<>();
  private final List<ObjectNode> tail = new ArrayList<>();
  private final Map<String, SeedStage> seedStages = new HashMap<>();
  private String appId = "app-amplified";
  private long appStart;
  private long bodyStart = Long.MAX_VALUE;
  private long jobSpan;
  private long stageSpan;
  private long rddSpan;
  private long accSpan;
  private long sqlSpan;
  private long seedTaskCount;
  private long executorBase;

  /** What the seed says about one stage attempt: its tasks (in launch order) and their duration. */
  private static final class SeedStage {
    final Map<Long, Integer> ordinal = new HashMap<>();
    long totalDuration;
    int finished;

    long avgDuration() {
      return finished == 0 ? 100 : Math.max(1, totalDuration / finished);
    }
  }

  Amplifier(Settings settings) {
    this.s = settings;
  }

  public static void main(String[] args) throws IOException {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    if (!a.containsKey("--seed") || !a.containsKey("--out")) {
      System.err.println(
          "usage: Amplifier --seed <event log> --out <dir> [--min-tasks N] [--min-bytes N] "
              + "[--executors N] [--fan MIN..MAX] [--random-seed N] [--failure-rate P]");
      System.exit(2);
    }
    String[] fan = a.getOrDefault("--fan", "32..96").split("\\.\\.");
    Settings settings =
        new Settings(
            Path.of(a.get("--seed")).toRealPath(),
            Path.of(a.get("--out")),
            Long.parseLong(a.getOrDefault("--min-tasks", "1000000")),
            Long.parseLong(a.getOrDefault("--min-bytes", "1000000000")),
            Integer.parseInt(a.getOrDefault("--executors", "48")),
            Integer.parseInt(fan[0]),
            Integer.parseInt(fan[fan.length - 1]),
            Long.parseLong(a.getOrDefault("--random-seed", "42")),
            Double.parseDouble(a.getOrDefault("--failure-rate", "0.001")));
    new Amplifier(settings).run();
  }

  void run() throws IOException {
    Files.createDirectories(s.out());
    String stamp = stamp();
    Path stampFile = s.out().resolve("STAMP");
    Path summary = s.out().resolve("SUMMARY.properties");
    if (Files.exists(stampFile) && Files.readString(stampFile).equals(stamp) && Files.exists(summary)) {
      java.util.Properties p = new java.util.Properties();
      try (var in = Files.newInputStream(summary)) {
        p.load(in);
      }
      if (Files.exists(Path.of(p.getProperty("plain"))) && Files.exists(Path.of(p.getProperty("zstd")))) {
        System.out.println("amplified log is up to date: " + p.getProperty("plain"));
        return;
      }
    }
    Files.deleteIfExists(stampFile);
    readSeed();
    Path plainDir = Files.createDirectories(s.out().resolve("plain"));
    Path zstdDir = Files.createDirectories(s.out().resolve("zstd"));
    Path plain = plainDir.resolve(appId);
    Path zstd = zstdDir.resolve(appId + ".zstd");
    long t0 = System.nanoTime();
    Writer w;
    try (OutputStream p = new BufferedOutputStream(Files.newOutputStream(plain), 1 << 20);
        OutputStream z = new BufferedOutputStream(new ZstdOutputStream(Files.newOutputStream(zstd), 1), 1 << 20)) {
      w = new Writer(p, z);
      generate(w);
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("seed", s.seed().toString());
    facts.put("appId", appId);
    facts.put("plain", plain.toString());
    facts.put("zstd", zstd.toString());
    facts.put("plainBytes", Long.toString(Files.size(plain)));
    facts.put("zstdBytes", Long.toString(Files.size(zstd)));
    facts.put("events", Long.toString(w.lines));
    facts.put("tasks", Long.toString(w.tasks));
    facts.put("failedTasks", Long.toString(w.failedTasks));
    facts.put("jobs", Long.toString(w.jobs));
    facts.put("stages", Long.toString(w.stages));
    facts.put("copies", Long.toString(w.copies));
    facts.put("executors", Integer.toString(s.executors()));
    facts.put("seedTasks", Long.toString(seedTaskCount));
    StringBuilder sb = new StringBuilder("# written by Amplifier; read by Harness\n");
    facts.forEach((k, v) -> sb.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
    Files.writeString(summary, sb.toString());
    Files.writeString(stampFile, stamp);
    System.out.printf(
        "amplified %s: %d copies, %d events, %d tasks (%d failed attempts), %d jobs, %d stages, "
            + "%.2f GB plain, %.2f GB zstd, in %.0f s%n",
        s.seed(), w.copies, w.lines, w.tasks, w.failedTasks, w.jobs, w.stages, Files.size(plain) / 1e9,
        Files.size(zstd) / 1e9, secs);
  }

  private String stamp() throws IOException {
    long seedBytes = 0;
    long seedModified = 0;
    for (EventLogRef ref : EventLogs.reader().build().find(s.seed().toString())) {
      for (String f : ref.files()) {
        Path p = Path.of(f);
        if (Files.exists(p)) {
          seedBytes += Files.size(p);
          seedModified = Math.max(seedModified, Files.getLastModifiedTime(p).toMillis());
        }
      }
    }
    return "version=" + VERSION + "\n" + s + "\nseedBytes=" + seedBytes + "\nseedModified=" + seedModified + "\n";
  }

  // ---------------------------------------------------------------------------------------------
  // Reading and analysing the seed

  void readSeed() throws IOException {
    List<EventLogRef> refs = EventLogs.reader().build().find(s.seed().toString());
    if (refs.size() != 1) {
      throw new IllegalArgumentException(s.seed() + " holds " + refs.size() + " event logs; name one");
    }
    ByteSources sources = ByteSources.defaults();
    List<ObjectNode> events = new ArrayList<>();
    for (String file : refs.get(0).files()) {
      try (DecodedStream in = DecodedStream.open(sources.open(file), true);
          LineReader lines = new LineReader(in, 256 << 20)) {
        while (lines.next()) {
          if (lines.length() == 0 || lines.lineTruncated()) {
            continue;
          }
          JsonNode n;
          try {
            n = MAPPER.readTree(lines.buffer(), lines.start(), lines.length());
          } catch (IOException e) {
            continue; // a cut-off last line of an in-progress seed
          }
          if (n instanceof ObjectNode o && o.path("Event").isTextual()) {
            events.add(o);
          }
        }
      }
    }
    boolean bodyStarted = false;
    for (ObjectNode e : events) {
      String type = e.get("Event").textValue();
      if (HEAD_EVENTS.contains(type)) {
        head.add(e);
        if (type.equals("SparkListenerApplicationStart")) {
          appId = e.path("App ID").asText(appId);
          if (e.hasNonNull("App Attempt ID")) {
            appId = appId + "_" + e.get("App Attempt ID").asText();
          }
          appStart = e.path("Timestamp").asLong();
        }
        if (type.equals("SparkListenerExecutorAdded")) {
          try {
            executorBase = Math.max(executorBase, Long.parseLong(e.path("Executor ID").asText()));
          } catch (NumberFormatException ignored) {
            // a non-numeric id cannot collide with ours
          }
        }
      } else if (TAIL_EVENTS.contains(type)) {
        tail.add(e);
      } else {
        body.add(e);
        bodyStarted = true;
      }
    }
    if (!bodyStarted) {
      throw new IllegalArgumentException(s.seed() + " has no jobs to amplify");
    }
    // The application end goes last.
    tail.sort((x, y) -> Boolean.compare(isAppEnd(x), isAppEnd(y)));

    // Spans of every id kind and the body's first time, by walking the body with a neutral copy.
    Copy scan = new Copy(0, 0, 0, 0, 0, 0, 0, 1, true);
    TreeSet<Long> taskIds = new TreeSet<>();
    for (ObjectNode e : body) {
      scan.walk(e.deepCopy(), Scope.NONE);
      String type = e.get("Event").textValue();
      JsonNode info = e.path("Task Info");
      if (type.equals("SparkListenerTaskStart")) {
        SeedStage st = seedStages.computeIfAbsent(stageKey(e), k -> new SeedStage());
        st.ordinal.putIfAbsent(info.path("Task ID").asLong(), st.ordinal.size());
        taskIds.add(info.path("Task ID").asLong());
      } else if (type.equals("SparkListenerTaskEnd")) {
        SeedStage st = seedStages.computeIfAbsent(stageKey(e), k -> new SeedStage());
        st.ordinal.putIfAbsent(info.path("Task ID").asLong(), st.ordinal.size());
        taskIds.add(info.path("Task ID").asLong());
        long d = info.path("Finish Time").asLong() - info.path("Launch Time").asLong();
        if (d > 0) {
          st.totalDuration += d;
          st.finished++;
        }
      }
    }
    seedTaskCount = taskIds.size();
    if (seedTaskCount == 0) {
      throw new IllegalArgumentException(s.seed() + " has no tasks to amplify");
    }
    jobSpan = scan.maxJob + 1;
    stageSpan = scan.maxStage + 1;
    rddSpan = scan.maxRdd + 1;
    accSpan = scan.maxAcc + 1;
    sqlSpan = scan.maxSql + 1;
    bodyStart = scan.minTime == Long.MAX_VALUE ? appStart : scan.minTime;
  }

  private static boolean isAppEnd(ObjectNode e) {
    return e.get("Event").textValue().equals("SparkListenerApplicationEnd");
  }

  private static String stageKey(JsonNode e) {
    return e.path("Stage ID").asLong() + "." + e.path("Stage Attempt ID").asLong();
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /** Writes lines to the plain and the zstd output at once and counts what it wrote. */
  private static final class Writer {
    final OutputStream plain;
    final OutputStream zstd;
    long lines;
    long bytes;
    long tasks;
    long failedTasks;
    long jobs;
    long stages;
    long copies;

    Writer(OutputStream plain, OutputStream zstd) {
      this.plain = plain;
      this.zstd = zstd;
    }

    void write(ObjectNode event) throws IOException {
      byte[] b = MAPPER.writeValueAsBytes(event);
      plain.write(b);
      plain.write('\n');
      zstd.write(b);
      zstd.write('\n');
      lines++;
      bytes += b.length + 1;
      switch (event.get("Event").textValue()) {
        case "SparkListenerTaskEnd" -> {
          tasks++;
          if (event.path("Task Info").path("Failed").asBoolean()) {
            failedTasks++;
          }
        }
        case "SparkListenerJobStart" -> jobs++;
        case "SparkListenerStageSubmitted" -> stages++;
        default -> {}
      }
    }
  }

  void generate(Writer w) throws IOException {
    for (ObjectNode e : head) {
      w.write(e);
    }
    long execTime = Math.max(appStart, Math.min(bodyStart - 1000, appStart + 1000));
    for (int i = 1; i <= s.executors(); i++) {
      w.write(executorAdded(i, execTime + i));
      w.write(blockManagerAdded(i, execTime + i));
    }
    SplittableRandom copyRandom = new SplittableRandom(s.randomSeed());
    long taskBase = 0;
    long maxTime = bodyStart;
    for (int copy = 0; w.tasks < s.minTasks() || w.bytes < s.minBytes(); copy++) {
      int fan = s.minFan() + copyRandom.nextInt(s.maxFan() - s.minFan() + 1);
      long shift = copy == 0 ? 0 : maxTime + 200 + copyRandom.nextInt(5000) - bodyStart;
      Copy c =
          new Copy(copy * jobSpan, copy * stageSpan, copy * rddSpan, copy * accSpan, copy * sqlSpan,
              taskBase, shift, fan, false);
      c.maxTime = maxTime;
      for (ObjectNode e : body) {
        c.emit(e, w);
      }
      taskBase = c.nextTaskId;
      maxTime = c.maxTime;
      w.copies++;
    }
    for (ObjectNode e : tail) {
      ObjectNode t = e.deepCopy();
      if (t.has("Timestamp")) {
        t.put("Timestamp", Math.max(t.get("Timestamp").asLong(), maxTime + 1000));
      }
      w.write(t);
    }
  }

  /** Synthetic executor {@code i} (1-based) gets an id after the seed's numeric executor ids. */
  private String executorId(int i) {
    return Long.toString(executorBase + i);
  }

  private static String host(int executor) {
    return String.format("bench-worker-%02d.sparkrca.internal", (executor - 1) / 4 + 1);
  }

  private ObjectNode executorAdded(int id, long time) {
    ObjectNode e = NODES.objectNode();
    e.put("Event", "SparkListenerExecutorAdded");
    e.put("Timestamp", time);
    e.put("Executor ID", executorId(id));
    ObjectNode info = e.putObject("Executor Info");
    info.put("Host", host(id));
    info.put("Total Cores", CORES_PER_EXECUTOR);
    ObjectNode urls = info.putObject("Log Urls");
    String base = "http://" + host(id) + ":8042/node/containerlogs/container_e01_0001_01_"
        + String.format("%06d", id + 1) + "/spark/";
    urls.put("stdout", base + "stdout?start=-4096");
    urls.put("stderr", base + "stderr?start=-4096");
    info.putObject("Attributes");
    info.putObject("Resources");
    info.put("Resource Profile Id", 0);
    return e;
  }

  private ObjectNode blockManagerAdded(int id, long time) {
    ObjectNode e = NODES.objectNode();
    e.put("Event", "SparkListenerBlockManagerAdded");
    ObjectNode bm = e.putObject("Block Manager ID");
    bm.put("Executor ID", executorId(id));
    bm.put("Host", host(id));
    bm.put("Port", 40000 + id);
    e.put("Maximum Memory", 2_101_975_449L);
    e.put("Timestamp", time);
    e.put("Maximum Onheap Memory", 2_101_975_449L);
    e.put("Maximum Offheap Memory", 0);
    return e;
  }

  private enum Scope {
    NONE,
    RDD_INFO,
    ACCUMULABLES
  }

  /** One copy of the body: its id bases, time shift and fan-out; also used to scan the seed. */
  private final class Copy {
    final long jobBase;
    final long stageBase;
    final long rddBase;
    final long accBase;
    final long sqlBase;
    final long taskBase;
    final long shift;
    final int fan;
    final boolean scanning;
    long nextTaskId;
    long maxTime;
    /** How much this copy's later events are delayed because stretched tasks ran longer. */
    long drift;
    /** Launch time and executor of started, not yet ended tasks (by new task id). */
    final Map<Long, long[]> running = new HashMap<>();
    /** Running accumulator values per stage attempt and accumulator: Value = sum of Updates. */
    final Map<String, Long> accValues = new HashMap<>();
    long maxJob = -1;
    long maxStage = -1;
    long maxRdd = -1;
    long maxAcc = -1;
    long maxSql = -1;
    long minTime = Long.MAX_VALUE;

    Copy(long jobBase, long stageBase, long rddBase, long accBase, long sqlBase, long taskBase,
        long shift, int fan, boolean scanning) {
      this.jobBase = jobBase;
      this.stageBase = stageBase;
      this.rddBase = rddBase;
      this.accBase = accBase;
      this.sqlBase = sqlBase;
      this.taskBase = taskBase;
      this.shift = shift;
      this.fan = fan;
      this.scanning = scanning;
      this.nextTaskId = taskBase + seedTaskCount * (long) fan;
    }

    /** Rewrites ids and times everywhere in {@code obj} (in place); task ids are left alone. */
    void walk(ObjectNode obj, Scope scope) {
      for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String k = e.getKey();
        JsonNode v = e.getValue();
        switch (k) {
          case "Job ID" -> {
            if (v.isIntegralNumber()) {
              maxJob = Math.max(maxJob, v.longValue());
              e.setValue(num(v.longValue() + jobBase));
            }
          }
          case "Stage ID", "stageId" -> {
            if (v.isIntegralNumber()) {
              e.setValue(num(stage(v.longValue())));
            }
          }
          case "Stage IDs" -> mapArray(v, this::stage);
          case "Parent IDs" -> mapArray(v, scope == Scope.RDD_INFO ? this::rdd : this::stage);
          case "RDD ID" -> {
            if (v.isIntegralNumber()) {
              e.setValue(num(rdd(v.longValue())));
            }
          }
          case "ID" -> {
            if (scope == Scope.ACCUMULABLES && v.isIntegralNumber()) {
              e.setValue(num(acc(v.longValue())));
            }
          }
          case "accumulatorId" -> {
            if (v.isIntegralNumber()) {
              e.setValue(num(acc(v.longValue())));
            }
          }
          case "executionId", "rootExecutionId" -> {
            if (v.isIntegralNumber()) {
              e.setValue(num(sql(v.longValue())));
            }
          }
          case "accumUpdates" -> {
            if (v instanceof ArrayNode arr) {
              for (JsonNode pair : arr) {
                if (pair instanceof ArrayNode p && p.size() == 2 && p.get(0).isIntegralNumber()) {
                  p.set(0, num(acc(p.get(0).longValue())));
                }
              }
            }
          }
          case "Number of Tasks", "Number of Partitions" -> {
            if (v.isIntegralNumber()) {
              e.setValue(num(v.longValue() * fan));
            }
          }
          case "Properties" -> {
            if (v instanceof ObjectNode props) {
              for (String key : List.of("spark.sql.execution.id", "spark.sql.execution.root.id")) {
                if (props.path(key).isTextual()) {
                  try {
                    props.put(key, Long.toString(sql(Long.parseLong(props.get(key).textValue()))));
                  } catch (NumberFormatException ignored) {
                    // leave it
                  }
                }
              }
            }
          }
          case "RDD Info" -> walkChildren(v, Scope.RDD_INFO);
          case "Accumulables", "Accumulator Updates" -> walkChildren(v, Scope.ACCUMULABLES);
          default -> {
            if (TIME_FIELDS.contains(k)) {
              if (v.isIntegralNumber() && v.longValue() > 0) {
                minTime = Math.min(minTime, v.longValue());
                e.setValue(num(time(v.longValue())));
              }
            } else {
              walkChildren(v, Scope.NONE);
            }
          }
        }
      }
    }

    private void walkChildren(JsonNode v, Scope scope) {
      if (v instanceof ObjectNode o) {
        walk(o, scope);
      } else if (v instanceof ArrayNode a) {
        for (JsonNode x : a) {
          if (x instanceof ObjectNode o) {
            walk(o, scope);
          } else if (x instanceof ArrayNode) {
            walkChildren(x, scope);
          }
        }
      }
    }

    private void mapArray(JsonNode v, java.util.function.LongUnaryOperator f) {
      if (v instanceof ArrayNode a) {
        for (int i = 0; i < a.size(); i++) {
          if (a.get(i).isIntegralNumber()) {
            a.set(i, num(f.applyAsLong(a.get(i).longValue())));
          }
        }
      }
    }

    long stage(long id) {
      maxStage = Math.max(maxStage, id);
      return id + stageBase;
    }

    long rdd(long id) {
      maxRdd = Math.max(maxRdd, id);
      return id + rddBase;
    }

    long acc(long id) {
      maxAcc = Math.max(maxAcc, id);
      return id + accBase;
    }

    long sql(long id) {
      maxSql = Math.max(maxSql, id);
      return id + sqlBase;
    }

    long time(long t) {
      long shifted = t + shift + drift;
      maxTime = Math.max(maxTime, shifted);
      return shifted;
    }

    /**
     * Moves an end time that stretched tasks overtook to just after them, and delays the rest of
     * the copy by as much so that later submissions stay after earlier completions.
     */
    long end(long walked, long notBefore) {
      if (walked >= notBefore) {
        return walked;
      }
      drift += notBefore - walked;
      maxTime = Math.max(maxTime, notBefore);
      return notBefore;
    }

    /** Writes this copy's version of one seed event (several for task events). */
    void emit(ObjectNode seed, Writer w) throws IOException {
      String type = seed.get("Event").textValue();
      switch (type) {
        case "SparkListenerTaskStart", "SparkListenerTaskGettingResult", "SparkListenerTaskEnd" -> {
          emitTask(seed, type, w);
          return;
        }
        case "SparkListenerStageExecutorMetrics" -> {
          emitStageExecutorMetrics(seed, w);
          return;
        }
        default -> {}
      }
      ObjectNode e = seed.deepCopy();
      long before = maxTime;
      walk(e, Scope.NONE);
      // Ends never precede what ran before them (task durations were stretched).
      switch (type) {
        case "SparkListenerStageCompleted" -> {
          if (e.get("Stage Info") instanceof ObjectNode si && si.path("Completion Time").asLong() > 0) {
            si.put("Completion Time", end(si.get("Completion Time").asLong(), before + 1));
          }
        }
        case "SparkListenerJobEnd" -> e.put("Completion Time", end(e.path("Completion Time").asLong(), before + 1));
        case "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd" ->
            e.put("time", end(e.path("time").asLong(), before + 1));
        default -> {}
      }
      w.write(e);
    }

    private void emitStageExecutorMetrics(ObjectNode seed, Writer w) throws IOException {
      ObjectNode base = seed.deepCopy();
      walk(base, Scope.NONE);
      String exec = seed.path("Executor ID").asText("");
      if (exec.equals("driver")) {
        w.write(base);
        return;
      }
      for (int i = 1; i <= s.executors(); i++) {
        ObjectNode e = base.deepCopy();
        e.put("Executor ID", executorId(i));
        SplittableRandom r = new SplittableRandom(s.randomSeed() * 31 + base.path("Stage ID").asLong() * 1009 + i);
        if (e.get("Executor Metrics") instanceof ObjectNode m) {
          scaleAll(m, r);
        }
        w.write(e);
      }
    }

    private void scaleAll(ObjectNode metrics, SplittableRandom r) {
      for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> m = it.next();
        if (m.getValue().isIntegralNumber() && m.getValue().longValue() > 0) {
          m.setValue(num(Math.round(m.getValue().longValue() * (0.5 + r.nextDouble()))));
        }
      }
    }

    private void emitTask(ObjectNode seed, String type, Writer w) throws IOException {
      ObjectNode base = seed.deepCopy();
      walk(base, Scope.NONE); // stage ids, accumulator ids, shifted times
      JsonNode seedInfo = seed.path("Task Info");
      long seedId = seedInfo.path("Task ID").asLong();
      SeedStage st = seedStages.get(stageKey(seed));
      int ordinal = st.ordinal.get(seedId);
      int stageSeedTasks = st.ordinal.size();
      long seedLaunch = seedInfo.path("Launch Time").asLong() + shift + drift;
      long seedFinish = seedInfo.path("Finish Time").asLong();
      long seedDuration = seedFinish > 0 ? seedFinish - seedInfo.path("Launch Time").asLong() : st.avgDuration();
      long globalOrdinal = ordinalOf(seedId);
      for (int j = 0; j < fan; j++) {
        long taskId = taskBase + globalOrdinal * fan + j;
        TaskPlan p;
        long[] started = running.get(taskId);
        if (started != null) {
          p = new TaskPlan(random(taskId), (int) started[1], started[0], seedDuration, st.avgDuration());
        } else {
          p = plan(taskId, ordinal, stageSeedTasks, j, seedLaunch, seedDuration, st.avgDuration());
        }
        if (type.equals("SparkListenerTaskStart")) {
          running.put(taskId, new long[] {p.launch, p.executor});
        } else if (type.equals("SparkListenerTaskEnd")) {
          running.remove(taskId);
        }
        ObjectNode e = base.deepCopy();
        ObjectNode info = (ObjectNode) e.get("Task Info");
        info.put("Task ID", taskId);
        int index = seedInfo.path("Index").asInt() * fan + j;
        info.put("Index", index);
        if (info.has("Partition ID")) {
          info.put("Partition ID", index);
        }
        info.put("Executor ID", executorId(p.executor));
        info.put("Host", host(p.executor));
        info.put("Launch Time", p.launch);
        maxTime = Math.max(maxTime, p.launch);
        if (type.equals("SparkListenerTaskGettingResult")) {
          info.put("Getting Result Time", p.finish - 1);
        } else if (type.equals("SparkListenerTaskEnd")) {
          boolean seedFailed = !"Success".equals(seed.path("Task End Reason").path("Reason").asText());
          boolean fail = !seedFailed && p.fail;
          applyEnd(e, p, fail);
          w.write(e);
          if (fail) {
            emitRetry(base, seedInfo, p, index);
          }
          continue;
        }
        w.write(e);
      }
      pendingRetries(w);
    }

    private final List<ObjectNode> retries = new ArrayList<>();

    private void emitRetry(ObjectNode template, JsonNode seedInfo, TaskPlan failed, int index) {
      long taskId = nextTaskId++;
      int executor = (failed.executor + 6) % s.executors() + 1;
      SplittableRandom r = random(taskId);
      long launch = failed.finish + 5 + r.nextInt(50);
      TaskPlan p = new TaskPlan(r, executor, launch, failed.seedDuration, failed.seedDuration);
      p.fail = false;
      for (String type : List.of("SparkListenerTaskStart", "SparkListenerTaskEnd")) {
        ObjectNode e = template.deepCopy();
        e.put("Event", type);
        ObjectNode info = (ObjectNode) e.get("Task Info");
        info.put("Task ID", taskId);
        info.put("Index", index);
        if (info.has("Partition ID")) {
          info.put("Partition ID", index);
        }
        info.put("Attempt", seedInfo.path("Attempt").asInt() + 1);
        info.put("Executor ID", executorId(executor));
        info.put("Host", host(executor));
        info.put("Launch Time", launch);
        if (type.equals("SparkListenerTaskStart")) {
          // A start event carries no outcome.
          e.remove("Task End Reason");
          e.remove("Task Type");
          e.remove("Task Executor Metrics");
          e.remove("Task Metrics");
          info.put("Finish Time", 0);
          info.put("Failed", false);
          info.put("Killed", false);
          info.put("Getting Result Time", 0);
          info.putArray("Accumulables");
        } else {
          ((ObjectNode) e).putObject("Task End Reason").put("Reason", "Success");
          applyEnd(e, p, false);
        }
        retries.add(e);
      }
    }

    private void pendingRetries(Writer w) throws IOException {
      for (ObjectNode e : retries) {
        w.write(e);
      }
      retries.clear();
    }

    private SplittableRandom random(long taskId) {
      return new SplittableRandom(s.randomSeed() ^ (taskId * 0x9E3779B97F4A7C15L));
    }

    private long ordinalOf(long seedTaskId) {
      // Seed task ids are dense in practice; fall back to a lookup when they are not.
      Long o = globalOrdinals.get(seedTaskId);
      if (o == null) {
        o = (long) globalOrdinals.size();
        globalOrdinals.put(seedTaskId, o);
      }
      return o;
    }

    private TaskPlan plan(
        long taskId, int ordinal, int stageSeedTasks, int j, long seedLaunch, long seedDuration, long avg) {
      SplittableRandom r = random(taskId);
      int slots = s.executors() * CORES_PER_EXECUTOR;
      long pos = (long) j * stageSeedTasks + ordinal;
      int slot = (int) (pos % slots);
      long wave = pos / slots;
      int executor = slot / CORES_PER_EXECUTOR + 1;
      long launch = seedLaunch + wave * avg + r.nextInt(20);
      return new TaskPlan(r, executor, launch, seedDuration, avg);
    }

    /** Sets the end of a task: finish time, reason and varied metrics with matching accumulators. */
    private void applyEnd(ObjectNode e, TaskPlan p, boolean fail) {
      ObjectNode info = (ObjectNode) e.get("Task Info");
      info.put("Finish Time", p.finish);
      maxTime = Math.max(maxTime, p.finish);
      if (info.path("Getting Result Time").asLong() > 0) {
        info.put("Getting Result Time", p.finish - 1);
      }
      if (fail) {
        info.put("Failed", true);
        e.set("Task End Reason", failure(p.random));
      }
      Map<String, Long> values = new HashMap<>();
      if (e.get("Task Metrics") instanceof ObjectNode tm) {
        varyMetrics(tm, p, values);
      }
      if (e.get("Task Executor Metrics") instanceof ObjectNode xm) {
        for (String k : List.of("JVMHeapMemory", "JVMOffHeapMemory", "OnHeapStorageMemory", "OnHeapUnifiedMemory")) {
          if (xm.path(k).asLong() > 0) {
            xm.put(k, Math.round(xm.get(k).asLong() * (0.5 + p.random.nextDouble())));
          }
        }
        if (xm.has("OnHeapExecutionMemory")) {
          xm.put("OnHeapExecutionMemory", values.getOrDefault("peakExecutionMemory", 0L));
        }
      }
      if (info.get("Accumulables") instanceof ArrayNode accs) {
        String stage = stageKey(e);
        for (JsonNode a : accs) {
          if (a instanceof ObjectNode acc && acc.path("Name").asText("").startsWith("internal.metrics.")) {
            Long v = values.get(acc.get("Name").asText().substring("internal.metrics.".length()));
            if (v != null && acc.path("Update").isNumber()) {
              acc.put("Update", v);
              String key = stage + "/" + acc.path("ID").asLong();
              acc.put("Value", accValues.merge(key, v, Long::sum));
            }
          }
        }
      }
    }

    private void varyMetrics(ObjectNode tm, TaskPlan p, Map<String, Long> out) {
      SplittableRandom r = p.random;
      double tf = p.timeFactor;
      double bf = p.bytesFactor;
      long run = Math.max(1, Math.round(tm.path("Executor Run Time").asLong() * tf));
      set(tm, "Executor Run Time", run, out, "executorRunTime");
      set(tm, "Executor CPU Time",
          Math.round(tm.path("Executor CPU Time").asLong() * tf * (0.6 + 0.4 * r.nextDouble())), out, "executorCpuTime");
      double deser = 0.1 + 0.9 * r.nextDouble();
      set(tm, "Executor Deserialize Time",
          Math.round(tm.path("Executor Deserialize Time").asLong() * deser), out, "executorDeserializeTime");
      set(tm, "Executor Deserialize CPU Time",
          Math.round(tm.path("Executor Deserialize CPU Time").asLong() * deser), out, "executorDeserializeCpuTime");
      set(tm, "Result Size", Math.round(tm.path("Result Size").asLong() * (0.8 + 0.45 * r.nextDouble())), out, "resultSize");
      set(tm, "JVM GC Time", Math.round(run * p.gcFraction), out, "jvmGCTime");
      long peak = tm.path("Peak Execution Memory").asLong() > 0
          ? Math.round(tm.path("Peak Execution Memory").asLong() * bf)
          : (r.nextInt(10) < 2 ? 0 : Math.round((16L << 20) * bf * (1 + r.nextInt(16))));
      set(tm, "Peak Execution Memory", peak, out, "peakExecutionMemory");
      if (p.spill) {
        long mem = Math.round(Math.max(peak, 64L << 20) * (1 + 3 * r.nextDouble()));
        set(tm, "Memory Bytes Spilled", mem, out, "memoryBytesSpilled");
        set(tm, "Disk Bytes Spilled", Math.round(mem * (0.2 + 0.3 * r.nextDouble())), out, "diskBytesSpilled");
      }
      if (tm.get("Input Metrics") instanceof ObjectNode in) {
        long bytes = in.path("Bytes Read").asLong() > 0
            ? Math.round(in.path("Bytes Read").asLong() * bf)
            : Math.round((128L << 20) * bf);
        set(in, "Bytes Read", bytes, out, "input.bytesRead");
        set(in, "Records Read", bytes / (60 + r.nextInt(80)), out, "input.recordsRead");
      }
      if (tm.get("Shuffle Read Metrics") instanceof ObjectNode sr) {
        scale(sr, "Remote Blocks Fetched", bf, out, "shuffle.read.remoteBlocksFetched");
        scale(sr, "Local Blocks Fetched", bf, out, "shuffle.read.localBlocksFetched");
        scale(sr, "Fetch Wait Time", tf, out, "shuffle.read.fetchWaitTime");
        scale(sr, "Remote Bytes Read", bf, out, "shuffle.read.remoteBytesRead");
        scale(sr, "Remote Bytes Read To Disk", bf, out, "shuffle.read.remoteBytesReadToDisk");
        scale(sr, "Local Bytes Read", bf, out, "shuffle.read.localBytesRead");
        scale(sr, "Total Records Read", bf, out, "shuffle.read.recordsRead");
      }
      if (tm.get("Shuffle Write Metrics") instanceof ObjectNode sw) {
        scale(sw, "Shuffle Bytes Written", bf, out, "shuffle.write.bytesWritten");
        scale(sw, "Shuffle Write Time", tf, out, "shuffle.write.writeTime");
        scale(sw, "Shuffle Records Written", bf, out, "shuffle.write.recordsWritten");
      }
      if (tm.get("Output Metrics") instanceof ObjectNode om) {
        scale(om, "Bytes Written", bf, out, "output.bytesWritten");
        scale(om, "Records Written", bf, out, "output.recordsWritten");
      }
    }

    private void set(ObjectNode o, String field, long value, Map<String, Long> out, String acc) {
      if (o.has(field)) {
        o.put(field, value);
        out.put(acc, value);
      }
    }

    private void scale(ObjectNode o, String field, double f, Map<String, Long> out, String acc) {
      if (o.path(field).asLong() > 0) {
        set(o, field, Math.max(1, Math.round(o.get(field).asLong() * f)), out, acc);
      }
    }
  }

  private final Map<Long, Long> globalOrdinals = new HashMap<>();

  /** The random choices for one task attempt, drawn from a generator seeded by its task id. */
  private final class TaskPlan {
    final SplittableRandom random;
    final int executor;
    final long launch;
    final long finish;
    final long seedDuration;
    final double timeFactor;
    final double bytesFactor;
    final double gcFraction;
    final boolean spill;
    boolean fail;

    TaskPlan(SplittableRandom r, int executor, long launch, long seedDuration, long avg) {
      this.random = r;
      this.executor = executor;
      this.launch = launch;
      this.seedDuration = seedDuration;
      boolean skewed = r.nextInt(100) == 0;
      double t = Math.exp(0.35 * r.nextGaussian()) * (skewed ? 3 + 5 * r.nextDouble() : 1);
      this.timeFactor = Math.min(10, Math.max(0.2, t));
      double b = Math.exp(0.4 * r.nextGaussian()) * (skewed ? 3 + 5 * r.nextDouble() : 1);
      this.bytesFactor = Math.min(10, Math.max(0.05, b));
      double g = r.nextDouble();
      this.gcFraction =
          g < 0.55 ? 0.02 * r.nextDouble() : g < 0.95 ? 0.02 + 0.08 * r.nextDouble() : 0.1 + 0.3 * r.nextDouble();
      this.spill = r.nextInt(100) < 3;
      this.fail = r.nextDouble() < s.failureRate();
      this.finish = launch + Math.max(1, Math.round(Math.max(1, seedDuration) * timeFactor));
    }
  }

  private static final String[][] FAILURES = {
    {"java.io.IOException", "Connection reset by peer",
        "sun.nio.ch.SocketDispatcher|read0|SocketDispatcher.java|-2",
        "org.apache.spark.network.util.TransportFrameDecoder|channelRead|TransportFrameDecoder.java|86"},
    {"java.lang.IllegalStateException", "Input row doesn't have expected number of values required by the schema",
        "org.apache.spark.sql.catalyst.expressions.GeneratedClass$SpecificUnsafeProjection|apply|Unknown Source|-1",
        "org.apache.spark.sql.execution.WholeStageCodegenEvaluatorFactory|hasNext|WholeStageCodegenEvaluatorFactory.scala|43"},
    {"java.lang.NullPointerException", "Cannot invoke \"String.length()\" because \"s\" is null",
        "com.example.etl.Parse$|field|Parse.scala|57",
        "scala.collection.Iterator$$anon$9|next|Iterator.scala|584"},
  };

  private static ObjectNode failure(SplittableRandom r) {
    String[] f = FAILURES[r.nextInt(FAILURES.length)];
    ObjectNode reason = NODES.objectNode();
    reason.put("Reason", "ExceptionFailure");
    reason.put("Class Name", f[0]);
    reason.put("Description", f[1]);
    ArrayNode trace = reason.putArray("Stack Trace");
    StringBuilder full = new StringBuilder(f[0]).append(": ").append(f[1]).append('\n');
    for (int i = 2; i < f.length; i++) {
      String[] frame = f[i].split("\\|");
      ObjectNode el = trace.addObject();
      el.put("Declaring Class", frame[0]);
      el.put("Method Name", frame[1]);
      el.put("File Name", frame[2]);
      el.put("Line Number", Integer.parseInt(frame[3]));
      full.append("\tat ").append(frame[0]).append('.').append(frame[1]).append('(').append(frame[2])
          .append(':').append(frame[3]).append(")\n");
    }
    reason.put("Full Stack Trace", full.toString());
    reason.putArray("Accumulator Updates");
    return reason;
  }

  private static JsonNode num(long v) {
    return NODES.numberNode(v);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}

package io.sparkrca.benchmarks.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Runs the replay benchmark: our replay, Spark's replay and the tokenize-only floor, each in its own
 * JVM ({@link Measure}), interleaved round by round (the order rotates every round) on the same
 * amplified log, plain and zstd, in two states: cold (a fresh JVM replays the file once, as the
 * CLI does) and warm (the JVM has replayed the same file {@code --warmup} times before the timed
 * replay, as a long-running process such as the History Server has); checks the log and the
 * answers; writes the results between the markers of the event-log replay section of {@code
 * benchmarks/RESULTS.md}.
 */
public final class Harness {
  static final String BEGIN = "<!-- replay-results:begin (written by benchmarks/replay/run.sh) -->";
  static final String END = "<!-- replay-results:end -->";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Map<String, String> a;
  private final Properties summary = new Properties();
  private final List<JsonNode> results = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Path logDir;

  private Harness(Map<String, String> args) throws IOException {
    this.a = args;
    try (InputStream in = Files.newInputStream(Path.of(arg("--summary")))) {
      summary.load(in);
    }
    this.logDir = Files.createDirectories(Path.of(arg("--log-dir")));
  }

  private String arg(String name) {
    String v = a.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing " + name);
    }
    return v;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    new Harness(a).run();
  }

  private record Mode(String name, String label, String workload, String classpath, List<String> jvmArgs) {}

  /** Cold: a fresh JVM replays once. Warm: the same JVM replayed the file {@code warmup} times first. */
  private record State(String name, int warmup) {}

  void run() throws Exception {
    int rounds = Integer.parseInt(a.getOrDefault("--rounds", "3"));
    String oursXmx = a.getOrDefault("--ours-xmx", "512m");
    String sparkXmx = a.getOrDefault("--spark-xmx", "8g");
    List<String> opens = Arrays.asList(a.getOrDefault("--spark-opens", "").trim().split("\\s+"));
    List<Mode> modes =
        List.of(
            new Mode("ours", "sparkrca replay", OursWorkload.class.getName(), arg("--ours-cp"), List.of("-Xmx" + oursXmx)),
            new Mode("spark", "Spark " + a.getOrDefault("--spark-version", "4.0.4") + " replay",
                "io.sparkrca.benchmarks.spark.SparkReplayWorkload", arg("--spark-cp"),
                concat(List.of("-Xmx" + sparkXmx), opens)),
            new Mode("floor", "floor (decode + tokenize)", FloorWorkload.class.getName(), arg("--ours-cp"),
                List.of("-Xmx" + oursXmx)));
    List<String> codecs = List.of("plain", "zstd");
    int warmup = Integer.parseInt(a.getOrDefault("--warmup", "3"));
    List<State> states = warmup > 0 ? List.of(new State("cold", 0), new State("warm", warmup)) : List.of(new State("cold", 0));
    String loadBefore = loadAverage();
    String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'"));
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path raw = logDir.resolve("results-" + stamp + ".jsonl");
    for (int round = 1; round <= rounds; round++) {
      for (String codec : codecs) {
        for (State st : states) {
          for (int k = 0; k < modes.size(); k++) {
            Mode m = modes.get((k + round - 1) % modes.size());
            JsonNode r = runOne(m, st, codec, round, stamp);
            results.add(r);
            Files.writeString(raw, r.toString() + "\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
          }
        }
      }
    }
    String loadAfter = loadAverage();
    verify(codecs);
    String md = markdown(modes, states, codecs, rounds, started, loadBefore, loadAfter, raw);
    Path resultsFile = Path.of(arg("--results"));
    writeSection(resultsFile, md);
    System.out.println(md);
    System.out.println("raw results: " + raw);
    if (!problems.isEmpty()) {
      System.err.println("PROBLEMS:");
      problems.forEach(p -> System.err.println("  " + p));
      System.exit(1);
    }
  }

  private static List<String> concat(List<String> x, List<String> y) {
    List<String> r = new ArrayList<>(x);
    for (String s : y) {
      if (!s.isBlank()) {
        r.add(s);
      }
    }
    return r;
  }

  private JsonNode runOne(Mode m, State st, String codec, int round, String stamp) throws Exception {
    String file = summary.getProperty(codec);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(m.jvmArgs());
    cmd.add("-cp");
    cmd.add(m.classpath());
    cmd.add(Measure.class.getName());
    if (st.warmup() > 0) {
      cmd.add("--warmup");
      cmd.add(Integer.toString(st.warmup()));
    }
    cmd.add(m.workload());
    cmd.add(file);
    Path err = logDir.resolve(stamp + "-r" + round + "-" + codec + "-" + st.name() + "-" + m.name() + ".stderr");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().put("SPARK_LOCAL_HOSTNAME", "localhost");
    System.out.printf(Locale.ROOT, "round %d %-5s %-4s %-5s ... ", round, codec, st.name(), m.name());
    System.out.flush();
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int rc = p.waitFor();
    JsonNode r = null;
    for (String line : out.split("\n")) {
      if (line.startsWith("RESULT ")) {
        r = MAPPER.readTree(line.substring(7));
      }
    }
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("round", round);
    extra.put("codec", codec);
    extra.put("state", st.name());
    extra.put("mode", m.name());
    extra.put("exitCode", rc);
    com.fasterxml.jackson.databind.node.ObjectNode o = MAPPER.createObjectNode();
    extra.forEach((k, v) -> o.putPOJO(k, v));
    if (r != null) {
      r.fields().forEachRemaining(e -> o.set(e.getKey(), e.getValue()));
      o.put("mode", m.name());
      o.put("codec", codec);
      o.put("state", st.name());
      System.out.printf(Locale.ROOT, "%.1f s wall, %.1f s CPU, %.0f MB/s%n", r.path("wallSeconds").asDouble(),
          r.path("cpuSeconds").asDouble(), mbps(o));
    } else {
      String tail = tail(err);
      o.put("failed", true);
      o.put("error", tail);
      System.out.println("FAILED (exit " + rc + "): " + tail);
      problems.add(m.name() + " " + codec + " " + st.name() + " round " + round + " failed (exit " + rc + "): " + tail);
    }
    return o;
  }

  private static String tail(Path err) throws IOException {
    if (!Files.exists(err)) {
      return "";
    }
    List<String> lines = Files.readAllLines(err);
    for (int i = lines.size() - 1; i >= 0; i--) {
      String l = lines.get(i);
      if (l.contains("Exception") || l.contains("Error")) {
        return l.trim();
      }
    }
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1).trim();
  }

  private double plainBytes() {
    return Double.parseDouble(summary.getProperty("plainBytes"));
  }

  private double events() {
    return Double.parseDouble(summary.getProperty("events"));
  }

  /** Throughput in MB (10^6 bytes) of uncompressed log per second, for both codecs. */
  private double mbps(JsonNode r) {
    return plainBytes() / 1e6 / r.path("wallSeconds").asDouble();
  }

  private void verify(List<String> codecs) {
    if (plainBytes() < 1e9) {
      problems.add("the plain log is " + (long) plainBytes() + " bytes, under 1 GB");
    }
    for (JsonNode r : results) {
      if (r.path("failed").asBoolean()) {
        continue;
      }
      String what = r.path("mode").asText() + " " + r.path("codec").asText() + " " + r.path("state").asText()
          + " round " + r.path("round").asInt();
      switch (r.path("mode").asText()) {
        case "ours" -> {
          if (r.path("badLines").asLong() != 0 || r.path("overlongLines").asLong() != 0) {
            problems.add(what + ": " + r.path("badLines").asLong() + " bad lines, first " + r.path("firstBadLine").asText());
          }
          if (r.path("truncated").asBoolean() || !r.path("completed").asBoolean()) {
            problems.add(what + ": truncated or incomplete");
          }
          if (r.path("taskEndEvents").asLong() < 1_000_000 || r.path("tasks").asLong() < 1_000_000) {
            problems.add(what + ": only " + r.path("tasks").asLong() + " tasks");
          }
          if (r.path("events").asLong() != (long) events()) {
            problems.add(what + ": " + r.path("events").asLong() + " events, the amplifier wrote " + (long) events());
          }
          String expected = r.path("codec").asText().equals("plain") ? "none" : "zstd";
          if (!r.path("decodedAs").asText().equals(expected)) {
            problems.add(what + ": decoded as " + r.path("decodedAs").asText() + ", expected " + expected);
          }
        }
        case "floor" -> {
          if (r.path("events").asLong() != (long) events()) {
            problems.add(what + ": tokenized " + r.path("events").asLong() + " lines, expected " + (long) events());
          }
        }
        case "spark" -> {
          if (!r.path("replayOk").asBoolean()) {
            problems.add(what + ": Spark's replay did not finish cleanly");
          }
          JsonNode ours = first("ours", r.path("codec").asText(), r.path("state").asText());
          if (ours != null) {
            for (String k : List.of("jobs", "stages", "tasks", "executors")) {
              if (ours.path(k).asLong() != r.path(k).asLong()) {
                problems.add(what + ": Spark's store holds " + r.path(k).asLong() + " " + k + ", ours "
                    + ours.path(k).asLong());
              }
            }
          }
        }
        default -> {}
      }
    }
  }

  private JsonNode first(String mode, String codec, String state) {
    List<JsonNode> l = runs(mode, codec, state);
    return l.isEmpty() ? null : l.get(0);
  }

  /** The successful runs of a mode on a file in a state. */
  private List<JsonNode> runs(String mode, String codec, String state) {
    List<JsonNode> l = new ArrayList<>();
    for (JsonNode r : results) {
      if (r.path("mode").asText().equals(mode) && r.path("codec").asText().equals(codec)
          && r.path("state").asText().equals(state) && !r.path("failed").asBoolean()) {
        l.add(r);
      }
    }
    return l;
  }

  private JsonNode run(String mode, String codec, String state, int round) {
    for (JsonNode r : runs(mode, codec, state)) {
      if (r.path("round").asInt() == round) {
        return r;
      }
    }
    return null;
  }

  private static double median(List<Double> v) {
    if (v.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = new ArrayList<>(v);
    s.sort(Double::compare);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private List<Double> values(String mode, String codec, String state, String field) {
    List<Double> l = new ArrayList<>();
    for (JsonNode r : runs(mode, codec, state)) {
      l.add(r.path(field).asDouble());
    }
    return l;
  }

  private String markdown(
      List<Mode> modes, List<State> states, List<String> codecs, int rounds, String started, String loadBefore, String loadAfter, Path raw) {
    StringBuilder sb = new StringBuilder();
    String cmd = a.getOrDefault("--command", "benchmarks/replay/run.sh");
    sb.append("### Latest run\n\n");
    sb.append(String.format(Locale.ROOT, "`%s`, started %s, %d rounds.%n%n", cmd, started, rounds));
    JsonNode any = results.stream().filter(r -> !r.path("failed").asBoolean()).findFirst().orElse(MAPPER.createObjectNode());
    sb.append("| machine | |\n|---|---|\n");
    sb.append("| CPU | ").append(cpuModel()).append(", ").append(any.path("availableProcessors").asInt())
        .append(" cores visible to the JVM, shared with other builds |\n");
    sb.append("| memory | ").append(memTotal()).append(" |\n");
    sb.append("| JVM | ").append(any.path("jvm").asText()).append(", ")
        .append(any.path("collectors").asText()).append(" (default GC) |\n");
    for (Mode m : modes) {
      sb.append("| ").append(m.label()).append(" JVM flags | `").append(String.join(" ", m.jvmArgs().stream()
          .filter(x -> x.startsWith("-X")).toList()));
      if (m.name().equals("spark")) {
        sb.append("` + the `--add-opens` of DESIGN.md |\n");
      } else {
        sb.append("` |\n");
      }
    }
    sb.append("| load average (1/5/15 min) | before ").append(loadBefore).append("; after ").append(loadAfter).append(" |\n\n");

    double plain = plainBytes();
    double zstd = Double.parseDouble(summary.getProperty("zstdBytes"));
    sb.append(String.format(Locale.ROOT,
        "Log: `%s` amplified %s times: %,d events, %,d tasks (%,d failed attempts, each retried), %,d jobs, "
            + "%,d stages, %d synthetic executors. Plain %,d bytes (%.2f GB); zstd (level 1) %,d bytes "
            + "(%.1fx smaller).%n%n",
        summary.getProperty("seed"), summary.getProperty("copies"), (long) events(),
        Long.parseLong(summary.getProperty("tasks")), Long.parseLong(summary.getProperty("failedTasks")),
        Long.parseLong(summary.getProperty("jobs")), Long.parseLong(summary.getProperty("stages")),
        Integer.parseInt(summary.getProperty("executors")), (long) plain, plain / 1e9, (long) zstd, plain / zstd));
    sb.append("MB/s is uncompressed MB (10^6 bytes) per wall-clock second for both files; events/s counts "
        + "every line of the log. Medians over the rounds; peak heap is the largest heap occupancy right "
        + "after a collection during the replay (an upper bound of the live set), retained is the heap "
        + "still held by the replayed model after the replay and a full GC.\n\n");

    Map<String, double[]> ratioSummary = new LinkedHashMap<>();
    for (State st : states) {
      if (st.warmup() == 0) {
        sb.append("#### Cold: a fresh JVM replays the file once (as the CLI does)\n\n");
      } else {
        sb.append(String.format(Locale.ROOT,
            "#### Warm: the JVM has replayed the same file %d times before (as a long-running process such as the "
                + "History Server has)%n%nEach replay's model is dropped and collected before the next; heap and GC "
                + "figures are those of the timed replay alone.%n%n", st.warmup()));
      }
      for (String codec : codecs) {
        ratioSummary.put(st.name() + " " + codec, codecTables(sb, modes, st, codec, rounds));
      }
    }

    sb.append("#### Targets\n\n| target | plain | zstd | met |\n|---|---:|---:|---|\n");
    for (State st : states) {
      double[] p = ratioSummary.get(st.name() + " plain");
      double[] z = ratioSummary.get(st.name() + " zstd");
      String when = st.warmup() == 0 ? "cold" : "warm";
      sb.append(String.format(Locale.ROOT, "| %s: at least 10x Spark's replay throughput (median of per-round wall-clock ratios) | %.1fx | %.1fx | %s |%n",
          when, p[0], z[0], p[0] >= 10 && z[0] >= 10 ? "yes" : "**no**"));
      sb.append(String.format(Locale.ROOT, "| %s: the same, by CPU seconds (less disturbed by the shared machine) | %.1fx | %.1fx | %s |%n",
          when, p[4], z[4], p[4] >= 10 && z[4] >= 10 ? "yes" : "**no**"));
      sb.append(String.format(Locale.ROOT, "| %s: at least 50%% of the floor's throughput (wall clock) | %.0f%% | %.0f%% | %s |%n",
          when, p[1] * 100, z[1] * 100, p[1] >= 0.5 && z[1] >= 0.5 ? "yes" : "**no**"));
      sb.append(String.format(Locale.ROOT, "| %s: the same, by CPU seconds | %.0f%% | %.0f%% | %s |%n",
          when, p[5] * 100, z[5] * 100, p[5] >= 0.5 && z[5] >= 0.5 ? "yes" : "**no**"));
      boolean allRan = p[3] == rounds && z[3] == rounds;
      sb.append(String.format(Locale.ROOT,
          "| %s: the %.2f GB / %,d-task log replayed within `-Xmx%s` (peak heap after GC) | %.0f MiB | %.0f MiB | %s |%n",
          when, plain / 1e9, Long.parseLong(summary.getProperty("tasks")), a.getOrDefault("--ours-xmx", "512m"), p[2], z[2],
          allRan ? "yes" : "**no** (a run failed)"));
    }
    sb.append("\nChecks: ").append(problems.isEmpty()
        ? "every replay of ours read every line (no bad lines, completed, " + summary.getProperty("tasks")
            + " tasks); the floor tokenized every line; Spark's status store holds the same jobs, stages, tasks "
            + "and executors as ours."
        : "**" + problems.size() + " problem(s)**: " + String.join("; ", problems)).append('\n');
    sb.append("Raw results: `").append(raw).append("` (not committed).\n");
    return sb.toString();
  }

  /**
   * Appends one file's tables for one state (medians, then per-round ratios) and returns the
   * medians the targets are judged by: {ours/Spark, ours/floor, our peak heap, our runs, ours/Spark
   * by CPU, ours/floor by CPU}.
   */
  private double[] codecTables(StringBuilder sb, List<Mode> modes, State st, String codec, int rounds) {
    String state = st.name();
    double plain = plainBytes();
    sb.append("##### ").append(codec.equals("plain") ? "Plain" : "zstd").append(" file, ").append(state).append("\n\n");
    sb.append("| replay | wall s | MB/s | events/s | CPU s | peak heap after GC | retained heap | GCs (pause s) |\n");
    sb.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Mode m : modes) {
      if (runs(m.name(), codec, state).isEmpty()) {
        sb.append("| ").append(m.label()).append(" | failed | | | | | | |\n");
        continue;
      }
      double wall = median(values(m.name(), codec, state, "wallSeconds"));
      sb.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %,.0f | %.1f | %.0f MiB | %.0f MiB | %.0f (%.1f) |%n",
          m.label(), wall, plain / 1e6 / wall, events() / wall, median(values(m.name(), codec, state, "cpuSeconds")),
          max(values(m.name(), codec, state, "peakHeapAfterGcMiB")), median(values(m.name(), codec, state, "retainedHeapMiB")),
          median(values(m.name(), codec, state, "gcCount")), median(values(m.name(), codec, state, "gcSeconds"))));
    }
    sb.append("\nPer round (same file, back to back):\n\n");
    sb.append("| round | order | ours MB/s | Spark MB/s | floor MB/s | ours / Spark | ours / floor "
        + "| ours / Spark, by CPU s | ours / floor, by CPU s |\n");
    sb.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    List<Double> vsSpark = new ArrayList<>();
    List<Double> vsFloor = new ArrayList<>();
    List<Double> vsSparkCpu = new ArrayList<>();
    List<Double> vsFloorCpu = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      JsonNode o = run("ours", codec, state, round);
      JsonNode s = run("spark", codec, state, round);
      JsonNode f = run("floor", codec, state, round);
      StringBuilder order = new StringBuilder();
      for (int k = 0; k < modes.size(); k++) {
        order.append(k == 0 ? "" : ", ").append(modes.get((k + round - 1) % modes.size()).name());
      }
      double rs = o != null && s != null ? s.path("wallSeconds").asDouble() / o.path("wallSeconds").asDouble() : Double.NaN;
      double rf = o != null && f != null ? f.path("wallSeconds").asDouble() / o.path("wallSeconds").asDouble() : Double.NaN;
      double rc = o != null && s != null ? s.path("cpuSeconds").asDouble() / o.path("cpuSeconds").asDouble() : Double.NaN;
      double rfc = o != null && f != null ? f.path("cpuSeconds").asDouble() / o.path("cpuSeconds").asDouble() : Double.NaN;
      if (!Double.isNaN(rs)) {
        vsSpark.add(rs);
        vsSparkCpu.add(rc);
      }
      if (!Double.isNaN(rf)) {
        vsFloor.add(rf);
        vsFloorCpu.add(rfc);
      }
      sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %.1fx | %.0f%% | %.1fx | %.0f%% |%n", round, order,
          o == null ? "failed" : String.format(Locale.ROOT, "%.1f", mbps(o)),
          s == null ? "failed" : String.format(Locale.ROOT, "%.1f", mbps(s)),
          f == null ? "failed" : String.format(Locale.ROOT, "%.1f", mbps(f)), rs, rf * 100, rc, rfc * 100));
    }
    sb.append(String.format(Locale.ROOT, "| median | | | | | **%.1fx** | **%.0f%%** | %.1fx | %.0f%% |%n%n",
        median(vsSpark), median(vsFloor) * 100, median(vsSparkCpu), median(vsFloorCpu) * 100));
    return new double[] {median(vsSpark), median(vsFloor), max(values("ours", codec, state, "peakHeapAfterGcMiB")),
        runs("ours", codec, state).size(), median(vsSparkCpu), median(vsFloorCpu)};
  }

  private static void writeSection(Path file, String md) throws IOException {
    String text = Files.exists(file) ? Files.readString(file) : "";
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    String block = BEGIN + "\n" + md + END;
    if (b >= 0 && e > b) {
      text = text.substring(0, b) + block + text.substring(e + END.length());
    } else {
      text = text + (text.endsWith("\n") || text.isEmpty() ? "" : "\n") + "\n" + block + "\n";
    }
    Files.writeString(file, text);
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " / " + f[1] + " / " + f[2];
    } catch (IOException e) {
      return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static String cpuModel() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          return l.substring(l.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException ignored) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  private static String memTotal() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal")) {
          long kb = Long.parseLong(l.replaceAll("\\D", ""));
          return String.format(Locale.ROOT, "%.0f GiB", kb / 1048576.0);
        }
      }
    } catch (IOException ignored) {
      // not Linux
    }
    return "?";
  }
}

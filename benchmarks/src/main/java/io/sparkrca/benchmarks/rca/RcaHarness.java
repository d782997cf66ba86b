package io.sparkrca.benchmarks.rca;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.benchmarks.replay.Measure;
import io.sparkrca.benchmarks.replay.OursWorkload;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Runs the RCA benchmark: the replay alone ({@link OursWorkload}), {@code sparkrca rca} ({@link
 * RcaWorkload}) and {@code sparkrca rules --recommended} ({@link RulesWorkload}), each in its own
 * JVM ({@link Measure}) with the same heap limit, interleaved round by round (the order rotates
 * every round) on the replay benchmark's amplified log, plain and zstd, cold (a fresh JVM runs
 * once, as the CLI does) and warm (after {@code --warmup} runs of the same workload in the same
 * JVM). Checks the answers and writes the results between the markers of the RCA section of
 * {@code benchmarks/RESULTS.md}.
 *
 * <pre>{@code java -cp ... io.sparkrca.benchmarks.rca.RcaHarness --summary SUMMARY.properties --log-dir DIR
 *     --results benchmarks/RESULTS.md --cp CLASSPATH [--rounds 3] [--warmup 3] [--xmx 512m] [--command TEXT]
 *     [--commit TEXT]}</pre>
 */
public final class RcaHarness {
  static final String BEGIN = "<!-- rca-results:begin (written by benchmarks/rca/run.sh) -->";
  static final String END = "<!-- rca-results:end -->";
  /** The target: rca within this multiple of the replay's wall time. */
  static final double RCA_TARGET = 1.3;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Map<String, String> a;
  private final Properties summary = new Properties();
  private final List<JsonNode> results = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final Path logDir;

  private record Mode(String name, String label, String workload) {}

  private record State(String name, int warmup) {}

  private static final List<Mode> MODES = List.of(
      new Mode("replay", "replay alone (`EventLogs.replay`)", OursWorkload.class.getName()),
      new Mode("rca", "`sparkrca rca` (collect + analyze + render)", RcaWorkload.class.getName()),
      new Mode("rules", "`sparkrca rules --recommended` (replay + compile + map + evaluate + render)",
          RulesWorkload.class.getName()));
  private static final List<String> CODECS = List.of("plain", "zstd");

  private RcaHarness(Map<String, String> args) throws IOException {
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
    new RcaHarness(a).run();
  }

  void run() throws Exception {
    int rounds = Integer.parseInt(a.getOrDefault("--rounds", "3"));
    int warmup = Integer.parseInt(a.getOrDefault("--warmup", "3"));
    List<State> states = warmup > 0 ? List.of(new State("cold", 0), new State("warm", warmup)) : List.of(new State("cold", 0));
    String loadBefore = loadAverage();
    String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'"));
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path raw = logDir.resolve("rca-results-" + stamp + ".jsonl");
    for (int round = 1; round <= rounds; round++) {
      for (String codec : CODECS) {
        for (State st : states) {
          for (int k = 0; k < MODES.size(); k++) {
            Mode m = MODES.get((k + round - 1) % MODES.size());
            JsonNode r = runOne(m, st, codec, round, stamp);
            results.add(r);
            Files.writeString(raw, r + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          }
        }
      }
    }
    String loadAfter = loadAverage();
    verify(states, rounds);
    String md = markdown(states, rounds, started, loadBefore, loadAfter, raw);
    writeSection(Path.of(arg("--results")), md);
    System.out.println(md);
    System.out.println("raw results: " + raw);
    if (!problems.isEmpty()) {
      System.err.println("PROBLEMS:");
      problems.forEach(p -> System.err.println("  " + p));
      System.exit(1);
    }
  }

  private JsonNode runOne(Mode m, State st, String codec, int round, String stamp) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + a.getOrDefault("--xmx", "512m"));
    cmd.add("-cp");
    cmd.add(arg("--cp"));
    cmd.add(Measure.class.getName());
    if (st.warmup() > 0) {
      cmd.add("--warmup");
      cmd.add(Integer.toString(st.warmup()));
    }
    cmd.add(m.workload());
    cmd.add(summary.getProperty(codec));
    Path err = logDir.resolve("rca-" + stamp + "-r" + round + "-" + codec + "-" + st.name() + "-" + m.name() + ".stderr");
    System.out.printf(Locale.ROOT, "round %d %-5s %-4s %-6s ... ", round, codec, st.name(), m.name());
    System.out.flush();
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int rc = p.waitFor();
    JsonNode r = null;
    for (String line : out.split("\n")) {
      if (line.startsWith("RESULT ")) {
        r = MAPPER.readTree(line.substring(7));
      }
    }
    ObjectNode o = MAPPER.createObjectNode();
    o.put("round", round);
    o.put("exitCode", rc);
    if (r != null) {
      r.fields().forEachRemaining(e -> o.set(e.getKey(), e.getValue()));
    } else {
      o.put("failed", true);
      o.put("error", tail(err));
      problems.add(m.name() + " " + codec + " " + st.name() + " round " + round + " failed (exit " + rc + "): " + tail(err));
    }
    o.put("mode", m.name());
    o.put("codec", codec);
    o.put("state", st.name());
    if (r != null) {
      System.out.printf(Locale.ROOT, "%.1f s wall, %.1f s CPU, peak %.0f MiB%n", r.path("wallSeconds").asDouble(),
          r.path("cpuSeconds").asDouble(), r.path("peakHeapAfterGcMiB").asDouble());
    } else {
      System.out.println("FAILED (exit " + rc + ")");
    }
    return o;
  }

  private static String tail(Path err) throws IOException {
    if (!Files.exists(err)) {
      return "";
    }
    List<String> lines = Files.readAllLines(err);
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).contains("Exception") || lines.get(i).contains("Error")) {
        return lines.get(i).trim();
      }
    }
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1).trim();
  }

  // ------------------------------------------------------------------ checks

  private void verify(List<State> states, int rounds) {
    long tasks = Long.parseLong(summary.getProperty("tasks"));
    long stages = Long.parseLong(summary.getProperty("stages"));
    Map<String, Set<String>> verdicts = new java.util.TreeMap<>(); // by file: the report names its file
    Set<String> ruleResults = new LinkedHashSet<>();
    for (JsonNode r : results) {
      if (r.path("failed").asBoolean()) {
        continue;
      }
      String what = r.path("mode").asText() + " " + r.path("codec").asText() + " " + r.path("state").asText()
          + " round " + r.path("round").asInt();
      switch (r.path("mode").asText()) {
        case "replay" -> {
          if (r.path("badLines").asLong() != 0 || r.path("truncated").asBoolean() || !r.path("completed").asBoolean()) {
            problems.add(what + ": the replay did not read the whole log cleanly");
          }
          if (r.path("tasks").asLong() < Math.min(tasks, 1_000_000)) {
            problems.add(what + ": only " + r.path("tasks").asLong() + " tasks");
          }
        }
        case "rca" -> {
          if (!r.path("hasApplication").asBoolean() || r.path("stageAttempts").asLong() != stages) {
            problems.add(what + ": the evidence holds " + r.path("stageAttempts").asLong() + " stage attempts, the log " + stages);
          }
          if (r.path("notes").asText().contains("could not run")) {
            problems.add(what + ": an analyzer failed: " + r.path("notes").asText());
          }
          verdicts.computeIfAbsent(r.path("codec").asText(), k -> new LinkedHashSet<>()).add(r.path("verdict").asText()
              + " " + r.path("rootCause").asText() + " (" + r.path("rootCauseTitle").asText() + "), " + r.path("findings").asInt()
              + " findings, " + r.path("jsonChars").asLong() + " JSON chars");
        }
        case "rules" -> {
          if (r.path("status").asText().equals("ERROR") || r.path("telemetryStages").asLong() != stages) {
            problems.add(what + ": rules " + r.path("status").asText() + " on " + r.path("telemetryStages").asLong() + " stages");
          }
          ruleResults.add(r.path("status").asText() + ", " + r.path("rulesMatched").asInt() + " rules matched, "
              + r.path("stagesFlagged").asInt() + " stage attempts flagged, " + r.path("warnings").asInt() + " warnings");
        }
        default -> {}
      }
    }
    verdicts.forEach((codec, v) -> {
      if (v.size() > 1) {
        problems.add("the rca report of the " + codec + " file differs between runs: " + v);
      }
    });
    if (ruleResults.size() > 1) {
      problems.add("the rules result differs between runs: " + ruleResults);
    }
    List<String> byCodec = new ArrayList<>();
    verdicts.forEach((codec, v) -> byCodec.add(codec + ": " + String.join(" / ", v)));
    a.put("#verdict", String.join("; ", byCodec));
    a.put("#rules", String.join("; ", ruleResults));
  }

  // ------------------------------------------------------------------ tables

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

  private List<Double> values(String mode, String codec, String state, String field) {
    List<Double> l = new ArrayList<>();
    for (JsonNode r : runs(mode, codec, state)) {
      l.add(r.path(field).asDouble());
    }
    return l;
  }

  static double median(List<Double> v) {
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

  private static double ratio(JsonNode x, JsonNode y, String field) {
    return x == null || y == null ? Double.NaN : x.path(field).asDouble() / y.path(field).asDouble();
  }

  private static double phase(JsonNode r, String phase, String kind) {
    return r == null ? Double.NaN : r.path(phase + kind + "Seconds").asDouble(Double.NaN);
  }

  private static String f1(double v) {
    return Double.isNaN(v) ? "failed" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return Double.isNaN(v) ? "failed" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String x2(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2fx", v);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * v);
  }

  private String markdown(List<State> states, int rounds, String started, String loadBefore, String loadAfter, Path raw) {
    StringBuilder sb = new StringBuilder();
    sb.append("### Latest run\n\n");
    sb.append(String.format(Locale.ROOT, "`%s` at commit %s, started %s, %d rounds.%n%n",
        a.getOrDefault("--command", "benchmarks/rca/run.sh"), a.getOrDefault("--commit", "unknown"), started, rounds));
    JsonNode any = results.stream().filter(r -> !r.path("failed").asBoolean()).findFirst().orElse(MAPPER.createObjectNode());
    sb.append("| machine | |\n|---|---|\n");
    sb.append("| CPU | ").append(cpuModel()).append(", ").append(any.path("availableProcessors").asInt())
        .append(" cores visible to the JVM, shared with other builds |\n");
    sb.append("| memory | ").append(memTotal()).append(" |\n");
    sb.append("| JVM | ").append(any.path("jvm").asText()).append(", ").append(any.path("collectors").asText())
        .append(" (default GC) |\n");
    sb.append("| JVM flags (every run) | `").append(any.path("jvmFlags").asText()).append("` |\n");
    sb.append("| load average (1/5/15 min) | before ").append(loadBefore).append("; after ").append(loadAfter).append(" |\n\n");
    double plain = Double.parseDouble(summary.getProperty("plainBytes"));
    sb.append(String.format(Locale.ROOT,
        "Log: the replay benchmark's (`%s` amplified %s times): %,d tasks, %,d jobs, %,d stages, %s executors; plain "
            + "%,d bytes (%.2f GB), zstd %,d bytes.%n%n",
        summary.getProperty("seed"), summary.getProperty("copies"), Long.parseLong(summary.getProperty("tasks")),
        Long.parseLong(summary.getProperty("jobs")), Long.parseLong(summary.getProperty("stages")),
        summary.getProperty("executors"), (long) plain, plain / 1e9, Long.parseLong(summary.getProperty("zstdBytes"))));
    sb.append("Medians over the rounds (phases: medians of each phase's own seconds, wall / CPU); peak heap is the "
        + "largest heap occupancy right after a collection during the timed run, over the rounds; retained is the heap "
        + "still held after the run and a full GC (the model, and the report or telemetry).\n\n");

    Map<String, double[]> judged = new HashMap<>();
    for (State st : states) {
      sb.append(st.warmup() == 0 ? "#### Cold: a fresh JVM runs once (as the CLI does)\n\n"
          : String.format(Locale.ROOT, "#### Warm: the JVM ran the same workload on the same file %d time%s before "
              + "(each result dropped and collected before the next)%n%n", st.warmup(), st.warmup() == 1 ? "" : "s"));
      for (String codec : CODECS) {
        judged.put(st.name() + " " + codec, codecTables(sb, st, codec, rounds));
      }
    }

    sb.append("#### Targets\n\n| target | plain | zstd | met |\n|---|---:|---:|---|\n");
    String xmx = a.getOrDefault("--xmx", "512m");
    for (State st : states) {
      double[] p = judged.get(st.name() + " plain");
      double[] z = judged.get(st.name() + " zstd");
      String s = st.name();
      sb.append(String.format(Locale.ROOT, "| %s: `rca` within %.1fx the replay's wall time (median of per-round ratios) | %s | %s | %s |%n",
          s, RCA_TARGET, x2(p[0]), x2(z[0]), p[0] <= RCA_TARGET && z[0] <= RCA_TARGET ? "yes" : "**no**"));
      sb.append(String.format(Locale.ROOT, "| %s: the same by CPU seconds (informative) | %s | %s | %s |%n",
          s, x2(p[1]), x2(z[1]), p[1] <= RCA_TARGET && z[1] <= RCA_TARGET ? "yes" : "no"));
      sb.append(String.format(Locale.ROOT, "| %s: `rca` within `-Xmx%s` (every run finished; largest peak heap after GC) | %.0f MiB | %.0f MiB | %s |%n",
          s, xmx, p[2], z[2], p[3] == rounds && z[3] == rounds ? "yes" : "**no** (a run failed)"));
      sb.append(String.format(Locale.ROOT, "| %s: the Dataproc mapping does not dominate `rules` (it takes less than the replay in the same run); its share of the `rules` run, median | %s | %s | %s |%n",
          s, pct(p[4]), pct(z[4]), p[5] > 0 && z[5] > 0 ? "yes" : "**no**"));
    }
    sb.append("\n\"Dominate\" is judged by the phases: the mapping must take less time than the replay inside the same "
        + "`rules` run in the median round (the last column of the per-round tables).\n\n");
    sb.append("Answers: `rca` ").append(a.getOrDefault("#verdict", "?")).append("; `rules` ")
        .append(a.getOrDefault("#rules", "?")).append(".\n\n");
    sb.append("Checks: ").append(problems.isEmpty()
        ? "every replay read the whole log (" + summary.getProperty("tasks") + " tasks); every `rca` run saw all "
            + summary.getProperty("stages") + " stage attempts, no analyzer failed, and the reports were the same; every "
            + "`rules` run mapped all stage attempts without an error, with the same result."
        : "**" + problems.size() + " problem(s)**: " + String.join("; ", problems)).append('\n');
    sb.append("Raw results: `").append(raw).append("` (not committed).\n");
    return sb.toString();
  }

  /**
   * One file's tables in one state; returns {rca/replay wall, rca/replay CPU, rca peak heap, rca
   * runs, mapping share of rules, 1 when the mapping took less than the replay in the median round
   * else 0}.
   */
  private double[] codecTables(StringBuilder sb, State st, String codec, int rounds) {
    String state = st.name();
    sb.append("##### ").append(codec.equals("plain") ? "Plain" : "zstd").append(" file, ").append(state).append("\n\n");
    sb.append("| run | wall s | CPU s | peak heap after GC | retained heap | GCs (pause s) | phases: wall s / CPU s |\n");
    sb.append("|---|---:|---:|---:|---:|---:|---|\n");
    for (Mode m : MODES) {
      List<JsonNode> rs = runs(m.name(), codec, state);
      if (rs.isEmpty()) {
        sb.append("| ").append(m.label()).append(" | failed | | | | | |\n");
        continue;
      }
      StringBuilder phases = new StringBuilder();
      String names = rs.get(0).path("phases").asText("");
      for (String ph : names.isEmpty() ? new String[0] : names.split(" ")) {
        phases.append(phases.length() == 0 ? "" : ", ").append(ph).append(' ')
            .append(f2(median(values(m.name(), codec, state, ph + "WallSeconds")))).append(" / ")
            .append(f2(median(values(m.name(), codec, state, ph + "CpuSeconds"))));
      }
      sb.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.0f MiB | %.0f MiB | %.0f (%.1f) | %s |%n", m.label(),
          median(values(m.name(), codec, state, "wallSeconds")), median(values(m.name(), codec, state, "cpuSeconds")),
          max(values(m.name(), codec, state, "peakHeapAfterGcMiB")), median(values(m.name(), codec, state, "retainedHeapMiB")),
          median(values(m.name(), codec, state, "gcCount")), median(values(m.name(), codec, state, "gcSeconds")),
          phases.length() == 0 ? "" : phases));
    }
    sb.append("\nPer round (the three runs back to back on the same file):\n\n");
    sb.append("| round | order | replay wall s | rca wall s | **rca / replay, wall** | rca / replay, CPU | rca: analyze + render, wall s "
        + "| rules wall s | rules / replay, wall | rules: map wall s / CPU s | map / rules | map / replay phase of rules |\n");
    sb.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<Double> wall = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    List<Double> mapShare = new ArrayList<>();
    List<Double> mapVsReplay = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      JsonNode rep = run("replay", codec, state, round);
      JsonNode rca = run("rca", codec, state, round);
      JsonNode rules = run("rules", codec, state, round);
      StringBuilder order = new StringBuilder();
      for (int k = 0; k < MODES.size(); k++) {
        order.append(k == 0 ? "" : ", ").append(MODES.get((k + round - 1) % MODES.size()).name());
      }
      double rw = ratio(rca, rep, "wallSeconds");
      double rc = ratio(rca, rep, "cpuSeconds");
      double ms = rules == null ? Double.NaN : phase(rules, "map", "Wall") / rules.path("wallSeconds").asDouble();
      double mr = rules == null ? Double.NaN : phase(rules, "map", "Wall") / phase(rules, "replay", "Wall");
      if (!Double.isNaN(rw)) {
        wall.add(rw);
        cpu.add(rc);
      }
      if (!Double.isNaN(ms)) {
        mapShare.add(ms);
        mapVsReplay.add(mr);
      }
      sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |%n", round, order,
          f1(rep == null ? Double.NaN : rep.path("wallSeconds").asDouble()),
          f1(rca == null ? Double.NaN : rca.path("wallSeconds").asDouble()), x2(rw), x2(rc),
          f2(phase(rca, "analyze", "Wall") + phase(rca, "render", "Wall")),
          f1(rules == null ? Double.NaN : rules.path("wallSeconds").asDouble()), x2(ratio(rules, rep, "wallSeconds")),
          f2(phase(rules, "map", "Wall")), f2(phase(rules, "map", "Cpu")), pct(ms), x2(mr)));
    }
    sb.append(String.format(Locale.ROOT, "| median | | | | **%s** | %s | | | | | %s | %s |%n%n", x2(median(wall)), x2(median(cpu)),
        pct(median(mapShare)), x2(median(mapVsReplay))));
    return new double[] {median(wall), median(cpu), max(values("rca", codec, state, "peakHeapAfterGcMiB")),
        runs("rca", codec, state).size(), median(mapShare), median(mapVsReplay) < 1 ? 1 : 0};
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
          return String.format(Locale.ROOT, "%.0f GiB", Long.parseLong(l.replaceAll("\\D", "")) / 1048576.0);
        }
      }
    } catch (IOException ignored) {
      // not Linux
    }
    return "?";
  }
}

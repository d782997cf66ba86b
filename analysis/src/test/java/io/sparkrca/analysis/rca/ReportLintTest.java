package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every report the analysis writes on a testkit fixture (with its logs, from the event log alone
 * and from the logs alone), in every format (text, Markdown, JSON, HTML), read as an editor reads it: no NaN or
 * Infinity, no internal reference (a testkit seed), no "about 0 ms", no "1 stages", no phrase said
 * twice in one sentence, no cost said to be under a floor it exceeds; the root cause names only its
 * own stages, its durations and counts are the JSON's, and every recommended property is one the
 * run's Spark version knows and one the run has not already set to that value. A failure names the
 * fixture, the format and the sentence. The reports are written to {@code target/report-lint/} with
 * {@code -Dsparkrca.writeReports=true}, to read them.
 */
class ReportLintTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Problems this test finds that another item of issue #41 owns, by scenario: each must still occur
   * (so that its fix takes it off this list), and only it is let through. None is open today.
   */
  private static final Map<String, String> OPEN = Map.of();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: the report lint is skipped");
  }

  @TestFactory
  Stream<DynamicTest> everyReportOfEveryFixtureReadsTrue() {
    List<DynamicTest> tests = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      tests.add(DynamicTest.dynamicTest(f.sparkVersion() + "/" + f.scenario(), () -> {
        List<String> problems = new ArrayList<>();
        problems.addAll(lint(f, "with logs", RcaAccuracyTest.analyze(f, true)));
        problems.addAll(lint(f, "event log alone", RcaAccuracyTest.analyze(f, false)));
        problems.addAll(lint(f, "logs alone", RcaAccuracyTest.analyzeLogsAlone(f)));
        String open = OPEN.getOrDefault(f.scenario(), "\u0000");
        if (OPEN.containsKey(f.scenario())) {
          assertThat(problems).as("the open problem of " + f.scenario() + " still occurs (fixed? take it off OPEN)")
              .anyMatch(p -> p.contains(open));
        }
        List<String> unexpected = problems.stream().filter(p -> !p.contains(open)).toList();
        assertThat(unexpected).as(f.sparkVersion() + "/" + f.scenario() + ": " + unexpected.size() + " problems").isEmpty();
      }));
    }
    return tests.stream();
  }

  // ---------------------------------------------------------------- the checks

  /** Everything wrong with one report, each naming the fixture, the variant, the format and the sentence. */
  static List<String> lint(TestkitFixtures.Fixture f, String variant, RcaReport r) {
    String where = f.sparkVersion() + "/" + f.scenario() + " (" + variant + ")";
    Map<String, String> formats = new LinkedHashMap<>();
    formats.put("text", r.toText());
    formats.put("markdown", r.toMarkdown());
    formats.put("json", r.toJson());
    formats.put("html", r.toHtml());
    write(f, variant, formats);
    // One problem in every format is one line, naming the formats it is in.
    Map<String, Set<String>> found = new LinkedHashMap<>();
    formats.forEach((format, body) -> {
      String at = where + " ";
      if (format.equals("html")) {
        // Attributes count (a chart's width="NaN"); sentences are read without the tags.
        for (String bad : List.of("NaN", "Infinity")) {
          if (body.contains(bad)) {
            found.computeIfAbsent(at + bad + " in the page near: " + around(body, body.indexOf(bad)),
                k -> new LinkedHashSet<>()).add(format);
          }
        }
        body = untag(body);
      }
      for (String s : sentences(body)) {
        sentence(at, s).forEach(p -> found.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(format));
      }
    });
    List<String> problems = new ArrayList<>();
    found.forEach((p, in) -> problems.add(p.replaceFirst("\\) ", ") " + in + " ")));
    problems.addAll(prose(where, r));
    problems.addAll(rootCause(where, r));
    problems.addAll(numbersAgree(where, r));
    problems.addAll(chartsAgree(where, r, formats.get("html")));
    problems.addAll(recommendations(where, r));
    problems.addAll(evidenceOnce(where, r));
    return problems;
  }

  /** A line of a log is cited once per finding (and once in the root cause's evidence), however many facts it holds. */
  static List<String> evidenceOnce(String where, RcaReport r) {
    List<String> out = new ArrayList<>();
    Map<String, List<io.sparkrca.core.report.EvidenceRef>> lists = new LinkedHashMap<>();
    lists.put("[root cause]", r.rootCause().evidenceFor());
    r.findings().forEach(f -> lists.put("[" + f.id() + "]", f.evidence()));
    lists.forEach((what, refs) -> {
      Set<String> seen = new HashSet<>();
      for (io.sparkrca.core.report.EvidenceRef e : refs) {
        if (e.line() > 0 && !seen.add(e.source() + ":" + e.line())) {
          out.add(where + " " + what + " cites " + e.source() + ":" + e.line() + " more than once");
        }
      }
    });
    return out;
  }

  private static final Pattern NAN = Pattern.compile("\\bNaN\\b|-?Infinity");
  private static final Pattern SEED = Pattern.compile("(?i)\\bseeds? ?\\d{1,4}\\b|\\(seed\\b");
  private static final Pattern ABOUT_ZERO = Pattern.compile("\\babout 0(\\.0+)? (ms|s|min)\\b");
  /** "1" and a plural noun (not "1 ms", "1 class", "1 status"), unless the 1 is a stage's, a job's... id. */
  private static final Pattern ONE_PLURAL = Pattern.compile(
      "(?<![\\d.,$])(?<!(stage|job|partition|executor|attempt|task|Stage|Job|Partition|Executor|Attempt|Task|TID|line) )"
          + "\\b1 (?!ms\\b|pos\\b)([a-z-]*[a-z&&[^su]]s)\\b");
  /** Spark's own words, quoted as they are: "Task 2 in stage 0.0 failed 1 times, most recent failure". */
  private static final Pattern SPARKS_OWN = Pattern.compile("failed 1 times, most recent failure|Failed to get block\\(s\\)");
  private static final Pattern MAYBE_PLURAL = Pattern.compile("\\b[a-z]+\\(s\\)");
  private static final Pattern UNDER_FLOOR = Pattern.compile(
      "explains only ([\\d.]+ (?:ms|s|min))[^.;]*?significance floor of ([\\d.]+ (?:ms|s|min))");
  private static final Set<String> SMALL = Set.of("the", "a", "an", "of", "in", "on", "at", "to", "and", "or",
      "is", "was", "were", "it", "its", "that", "this", "for", "with", "by", "as", "from", "than", "not", "no", "but",
      "stage", "stages", "task", "tasks", "partition", "executor", "executors", "ms", "s", "min", "mib", "kib", "gib");

  /** The checks on one sentence of one format. */
  static List<String> sentence(String at, String s) {
    List<String> out = new ArrayList<>();
    Matcher m = NAN.matcher(s);
    if (m.find()) {
      out.add(at + "\"" + m.group() + "\" in: " + s);
    }
    m = SEED.matcher(s);
    if (m.find()) {
      out.add(at + "internal reference \"" + m.group() + "\" in: " + s);
    }
    m = ABOUT_ZERO.matcher(s);
    if (m.find()) {
      out.add(at + "\"" + m.group() + "\" in: " + s);
    }
    m = ONE_PLURAL.matcher(SPARKS_OWN.matcher(s).replaceAll(""));
    if (m.find()) {
      out.add(at + "singular agreement \"" + m.group() + "\" in: " + s);
    }
    m = MAYBE_PLURAL.matcher(SPARKS_OWN.matcher(s).replaceAll(""));
    if (m.find()) {
      out.add(at + "a noun that does not know its number, \"" + m.group() + "\", in: " + s);
    }
    m = UNDER_FLOOR.matcher(s);
    if (m.find() && millis(m.group(1)) > millis(m.group(2))) {
      out.add(at + "a cost of " + m.group(1) + " said to be under the floor of " + m.group(2) + " in: " + s);
    }
    return out;
  }

  /**
   * The report's own prose (titles, explanations, summaries, actions and their reasons, the
   * alternatives' reasons; not the log lines and plans it quotes) says no phrase twice in one sentence.
   */
  static List<String> prose(String where, RcaReport r) {
    List<String> texts = new ArrayList<>();
    texts.add(r.rootCause().title());
    texts.add(r.rootCause().explanation());
    r.rootCause().toConfirm().ifPresent(texts::add);
    r.rootCause().alternatives().forEach(a -> texts.add(a.whyRejected()));
    r.findings().forEach(f -> {
      texts.add(f.title());
      texts.add(f.summary());
    });
    r.recommendations().forEach(rec -> {
      texts.add(rec.action());
      texts.add(rec.rationale());
    });
    List<String> out = new ArrayList<>();
    for (String t : texts) {
      for (String s : sentences(t)) {
        repeatedPhrase(s).ifPresent(p -> out.add(where + " [prose] the phrase \"" + p + "\" twice in: " + s));
      }
    }
    return out.stream().distinct().toList();
  }

  /**
   * A run of three words (two of them more than small words) said again right after itself, at most
   * {@value #NEAR} words on ("the application failed, but the application failed"): a clause said
   * twice. Code (a class, a property, a plan's column, anything with a dot, a bracket or a digit in
   * it) is not prose and breaks a run; a run ends at a comma, a colon or a full stop.
   */
  static Optional<String> repeatedPhrase(String s) {
    List<List<String>> runs = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    List<String> run = new ArrayList<>();
    int position = 0;
    starts.add(0);
    for (String token : s.split("\\s+")) {
      String t = token.replaceAll("^[(\"`*]+|[)\"`*,;:.!?]+$", "");
      position++;
      if (!t.matches("[A-Za-z][a-z'-]*")) {
        runs.add(run);
        run = new ArrayList<>();
        starts.add(position);
        continue;
      }
      run.add(t.toLowerCase(Locale.ROOT));
      if (!token.equals(t) && token.matches(".*[,;:.!?)]$")) {
        runs.add(run); // a clause ends: "failed, but" is two runs
        run = new ArrayList<>();
        starts.add(position);
      }
    }
    runs.add(run);
    int n = 3;
    Map<String, Integer> endOf = new HashMap<>();
    for (int r = 0; r < runs.size(); r++) {
      List<String> words = runs.get(r);
      for (int i = 0; i + n <= words.size(); i++) {
        List<String> phrase = words.subList(i, i + n);
        String p = String.join(" ", phrase);
        int start = starts.get(r) + i;
        Integer end = endOf.get(p);
        if (end != null && start - end <= NEAR && phrase.stream().filter(w -> !SMALL.contains(w)).count() >= 2) {
          return Optional.of(p);
        }
        endOf.put(p, start + n);
      }
    }
    return Optional.empty();
  }

  private static final int NEAR = 3;

  private static final Pattern STAGE = Pattern.compile("\\b[Ss]tages? (\\d+)((?:(?:, | and | or |, and )\\d+)*)");

  /** The stages the root cause names are its own. */
  static List<String> rootCause(String where, RcaReport r) {
    List<String> out = new ArrayList<>();
    List<Integer> ids = r.rootCause().stageIds();
    for (String text : List.of(r.rootCause().title(), r.rootCause().explanation())) {
      Matcher m = STAGE.matcher(text);
      while (m.find()) {
        if (text.substring(Math.max(0, m.start() - 11), m.start()).matches(".*baseline('s)? ")) {
          continue; // the baseline run's stage, not this run's
        }
        List<Integer> named = new ArrayList<>();
        named.add(Integer.parseInt(m.group(1)));
        Matcher more = Pattern.compile("\\d+").matcher(m.group(2));
        while (more.find()) {
          named.add(Integer.parseInt(more.group()));
        }
        for (int id : named) {
          if (!ids.contains(id)) {
            out.add(where + " [root cause] names stage " + id + " but its stageIds are " + ids + ": "
                + sentenceAround(text, m.start()));
          }
        }
      }
    }
    return out;
  }

  /** What comes before a duration that is a threshold or a setting, not a measurement: "at least 1.7 s", "spark.x (300 s". */
  private static final Pattern THRESHOLD = Pattern.compile("((at least|floor of|threshold of|above|under) \\(?|spark\\.[\\w.]+(=| \\())$");
  private static final Pattern DURATION = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d)?) (ms|s|min)\\b");

  /**
   * Every duration the root cause's explanation states is one the JSON carries (the application's
   * run time, a finding's cost, a metric in milliseconds), as the report shows it.
   */
  static List<String> numbersAgree(String where, RcaReport r) {
    JsonNode json;
    try {
      json = JSON.readTree(r.toJson());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> carried = new HashSet<>();
    collectDurations(json, "", carried);
    List<String> out = new ArrayList<>();
    String text = r.rootCause().explanation();
    Matcher m = DURATION.matcher(text);
    while (m.find()) {
      String before = text.substring(Math.max(0, m.start() - 40), m.start());
      if (THRESHOLD.matcher(before).find()) {
        continue; // a threshold the analysis compared with, not a measurement
      }
      if (!carried.contains(m.group())) {
        out.add(where + " [root cause vs JSON] the duration " + m.group() + " is in no JSON field: "
            + sentenceAround(text, m.start()));
      }
    }
    return out;
  }

  private static final Pattern DURATION_CHART = Pattern.compile(
      "Task durations of stage (\\d+)\\.\\d+: [^<]*?; median ([\\d.]+ (?:ms|s|min)), max ([\\d.]+ (?:ms|s|min))");

  /** The task-duration chart of the root cause's stage shows the median and the maximum its finding states. */
  static List<String> chartsAgree(String where, RcaReport r, String html) {
    List<String> out = new ArrayList<>();
    var finding = r.rootCause().findingId().flatMap(r::finding);
    if (finding.isEmpty()) {
      return out;
    }
    Matcher m = DURATION_CHART.matcher(html);
    while (m.find()) {
      int stage = Integer.parseInt(m.group(1));
      if (!finding.get().culprit().stageIds().equals(List.of(stage))) {
        continue;
      }
      for (var metric : finding.get().metrics()) {
        String shown = metric.name().equals("medianTaskDurationMs") ? m.group(2)
            : metric.name().equals("maxTaskDurationMs") ? m.group(3) : null;
        if (shown != null && !shown.equals(metric.display())) {
          out.add(where + " [chart vs text] stage " + stage + "'s chart shows " + metric.name() + " " + shown
              + ", the finding " + metric.display());
        }
      }
    }
    return out;
  }

  private static void collectDurations(JsonNode n, String field, Set<String> out) {
    if (n.isObject()) {
      if (n.has("unit") && n.path("unit").asText().equals("ms") && n.has("value")) {
        out.add(Formats.humanMillis(n.path("value").asDouble()));
      }
      n.fields().forEachRemaining(e -> collectDurations(e.getValue(), e.getKey(), out));
    } else if (n.isArray()) {
      n.forEach(c -> collectDurations(c, field, out));
    } else if (n.isNumber() && (field.endsWith("Ms") || field.endsWith("Millis"))) {
      out.add(Formats.humanMillis(n.asDouble()));
    }
  }

  /** Every recommended property is known to the run's Spark version and is not already what the run set. */
  static List<String> recommendations(String where, RcaReport r) {
    List<String> out = new ArrayList<>();
    String version = r.application().sparkVersion();
    for (Recommendation rec : r.recommendations()) {
      for (PropertyChange p : rec.properties()) {
        if (!SparkConfigs.known(p.property(), version)) {
          out.add(where + " [recommendation] " + p.property() + " is not a property Spark " + version
              + " knows: " + rec.action());
        }
        if (p.current().map(c -> same(c, p.recommended())).orElse(false)) {
          out.add(where + " [recommendation] " + p.property() + "=" + p.recommended()
              + " is what the run already has: " + rec.action());
        }
      }
    }
    return out;
  }

  private static boolean same(String a, String b) {
    return a.trim().equalsIgnoreCase(b.trim());
  }

  // ---------------------------------------------------------------- reading text

  /** The page's text: tags, styles and the SVG's markup dropped, entities read. */
  static String untag(String html) {
    String t = html.replaceAll("(?s)<style.*?</style>", " ").replaceAll("(?s)<[^>]*>", " ");
    return t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
        .replace("&amp;", "&").replaceAll("[ \\t]+", " ");
  }

  /** The text cut into sentences (and lines: a table cell or a bullet is a sentence of its own). */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      for (String s : line.split("(?<=[.!?])\\s+(?=[A-Z`*(\"])|\\s*\\|\\s*")) {
        if (!s.isBlank()) {
          out.add(s.strip());
        }
      }
    }
    return out;
  }

  private static String sentenceAround(String text, int at) {
    int a = Math.max(text.lastIndexOf(". ", at) + 1, 0);
    int b = text.indexOf(". ", at);
    return text.substring(a, b < 0 ? text.length() : b + 1).strip();
  }

  private static String around(String text, int at) {
    return text.substring(Math.max(0, at - 80), Math.min(text.length(), at + 40)).replace('\n', ' ');
  }

  /** A duration as the report writes it ({@code 1.2 min}, {@code 4.9 s}, {@code 80 ms}), in milliseconds. */
  static double millis(String human) {
    String[] p = human.split(" ");
    double v = Double.parseDouble(p[0]);
    return switch (p[1]) {
      case "min" -> v * 60_000;
      case "s" -> v * 1000;
      default -> v;
    };
  }

  private static void write(TestkitFixtures.Fixture f, String variant, Map<String, String> formats) {
    if (!Boolean.getBoolean("sparkrca.writeReports")) {
      return;
    }
    Path dir = Path.of("target", "report-lint", f.sparkVersion(), f.scenario(), variant.replace(' ', '-'));
    try {
      Files.createDirectories(dir);
      for (Map.Entry<String, String> e : formats.entrySet()) {
        String ext = switch (e.getKey()) {
          case "markdown" -> "md";
          case "text" -> "txt";
          default -> e.getKey();
        };
        Files.writeString(dir.resolve("report." + ext), e.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- the checks, checked

  @Test
  void theChecksCatchWhatTheyAreFor() {
    assertThat(sentence("x ", "The longest task read Infinityx the median.")).hasSize(1);
    assertThat(sentence("x ", "Stage 4 ran NaN ms.")).hasSize(1);
    assertThat(sentence("x ", "The partition failed (seed 002).")).hasSize(1);
    assertThat(sentence("x ", "It costs about 0 ms of the run.")).hasSize(1);
    assertThat(sentence("x ", "It ran 1 stages.")).hasSize(1);
    assertThat(sentence("x ", "Stage 1 tasks ran 11 stages.")).isEmpty();
    assertThat(sentence("x ", "It drew 1 values.")).hasSize(1);
    assertThat(sentence("x ", "It took 1 ms in 1 class of 1 status.")).isEmpty();
    assertThat(sentence("x ", "Spark's own: line 1 pos 21; Job$1 keeps data.")).isEmpty();
    assertThat(sentence("x ", "GC took 43% of the task time of stage(s) 0.")).hasSize(1);
    assertThat(repeatedPhrase("The application failed, but the application failed at the end.")).isPresent();
    assertThat(repeatedPhrase("Stage 1 of the job failed, then stage 2 of the job ran.")).isEmpty();
    assertThat(repeatedPhrase("Make the build side cheap or do not broadcast it: lower the threshold, or cache the build side"))
        .isEmpty();
    assertThat(repeatedPhrase("It joins [store_id#3L], [store_id#9L] with java.lang.String and java.lang.String")).isEmpty();
    assertThat(sentence("x ", "Task 2 in stage 0.0 failed 1 times, most recent failure: Lost task")).isEmpty();
    assertThat(sentence("x ", "It explains only 1.2 min, under the significance floor of 4.9 s.")).hasSize(1);
    assertThat(sentence("x ", "It explains only 1.2 s, under the significance floor of 4.9 s.")).isEmpty();
  }
}

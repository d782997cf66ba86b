package io.sparkrca.core.examples;

import io.sparkrca.core.io.ByteSourceProvider;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.logs.CountResult;
import io.sparkrca.core.logs.CountSetResult;
import io.sparkrca.core.logs.LogError;
import io.sparkrca.core.logs.LogQuery;
import io.sparkrca.core.logs.LogSet;
import io.sparkrca.core.logs.LogSetResult;
import io.sparkrca.core.logs.LiteralFinder;
import io.sparkrca.core.logs.LogInfo;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.LogText;
import io.sparkrca.core.logs.MatchScan;
import io.sparkrca.core.logs.SearchMatch;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.core.logs.SearchSetResult;
import java.util.List;

/** The Javadoc examples of {@code io.sparkrca.core.logs}, compiled (see {@link JavadocExamplesTest}). */
class LogsExamples {
  /** Stand-in for the caller's own code that the example of {@code LiteralFinder} calls. */
  private static void handle(LineReader lines) {}

  /** The example of {@code CountResult}. */
  void countResult() throws Exception {
    CountResult c = LogStream.open("driver.log").count(SearchQuery.literal("WARN"));
    System.out.println(c.matchingLines() + " of " + c.lines() + " lines are warnings");
  }

  /** The example of {@code LiteralFinder}. */
  void literalFinder(LineReader lines, byte[] sample) throws Exception {
    LineReader.Candidates c = LiteralFinder.anyOf(List.of("DAGScheduler", "TaskSetManager"), sample);
    while (true) {
      lines.skipUntil(c, 0, null);
      if (!lines.next()) break;
      handle(lines);
    }
  }

  /** The example of {@code LogInfo}. */
  void logInfo() throws Exception {
    LogInfo info = LogStream.open("gs://bucket/app-1.zstd").info();
    if (info.large()) { /* ... use tail or search, never read it whole ... */ }
  }

  /** The example of {@code LogJson}. */
  void logJson() throws Exception {
    String json = LogJson.search(LogStream.open("driver.log").search(SearchQuery.regex("ERROR")));
    // {"action":"search","source":"driver.log","matches":[{"match":1,"line":12,"byteOffset":804,...}]}
  }

  /** The example of {@code LogLine}. */
  void logLine() throws Exception {
    for (LogLine line : LogStream.open("driver.log").tail(20).lines()) {
      System.out.println(line.number() + ": " + line.display());
    }
  }

  /** The example of {@code LogLines}. */
  void logLines() throws Exception {
    LogLines last = LogStream.open("gs://bucket/driver.log").tail(50);
    last.lines().forEach(l -> System.out.println(l.display()));
    last.notes().forEach(n -> System.err.println("Note: " + n));
  }

  /** The example of {@code LogStream}. */
  void logStream() throws Exception {
    LogStream log = LogStream.open("gs://bucket/jobs/job-1/driveroutput");
    log.tail(100).lines().forEach(l -> System.out.println(l.display()));
    SearchResult oom = log.search(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(3));
  }

  /** The example of {@code LogStream}. */
  void logStreamForEachMatch(LogStream log, List<SearchMatch> kept) throws Exception {
    MatchScan s = log.forEachMatch(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(0, 40), m -> {
      if (kept.size() < 10) kept.add(m);
      return true;
    });
  }

  /** The example of {@code LogStream.forEachMatch} with an after-context that ends with the record. */
  void logStreamForEachMatchWhile(LogStream log) throws Exception {
    MatchScan s = log.forEachMatch(SearchQuery.regex("Exception").withContext(0, 150),
        text -> text.startsWith("\t") || text.startsWith("Caused by:"), m -> {
          System.out.println(m.line().text() + " and " + m.after().size() + " lines of its trace");
          return true;
        });
  }

  /** The example of {@code LogStream}. */
  void logStreamBuilder(ByteSourceProvider myHttpProvider) throws Exception {
    LogStream log = LogStream.builder()
        .sources(ByteSources.builder().add(myHttpProvider).build())
        .maxLineBytes(4 << 20)
        .build("https://logs.example.com/driver.log");
  }

  /** The example of {@code LogText}. */
  void logText() throws Exception {
    System.out.print(LogText.search(LogStream.open("driver.log").search(SearchQuery.literal("ERROR"))));
  }

  /** The example of {@code MatchScan}. */
  void matchScan(LogStream log, SearchQuery query) throws Exception {
    MatchScan s = log.forEachMatch(query, m -> true);
    System.out.println(s.matches() + " matches in " + s.linesScanned() + " lines");
  }

  /** The example of {@code SearchMatch}. */
  void searchMatch(SearchResult result) throws Exception {
    for (SearchMatch m : result.matches()) {
      System.out.println("#" + m.index() + " at line " + m.line().number() + ": " + m.line().text());
    }
  }

  /** The example of {@code SearchQuery}. */
  void searchQuery() throws Exception {
    SearchQuery q = SearchQuery.regex("OutOfMemoryError|Container killed")
        .withIgnoreCase(true)
        .withContext(3)
        .withMaxMatches(50);
  }

  /** The example of {@code SearchResult}. */
  void searchResult() throws Exception {
    SearchResult r = LogStream.open("driver.log").search(SearchQuery.regex("OutOfMemoryError"));
    System.out.println(r.matches().size() + " matches in " + r.linesScanned() + " lines");
    r.hint().ifPresent(System.out::println);
  }

  /** The example of {@code io.sparkrca.core.logs}. */
  void overview() throws Exception {
    LogStream log = LogStream.open("/var/log/spark/driver.log.gz");
    SearchResult r = log.search(SearchQuery.regex("OutOfMemoryError").withContext(2));
  }

  /** The example of {@code LogQuery}. */
  void logQuery() throws Exception {
    LogQuery query = LogQuery.builder()
        .name("executor-logs/")
        .name("logs/*.stderr")
        .search(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(3))
        .build();
    SearchSetResult r = LogSet.builder().build().search(query);
  }

  /** The example of {@code LogQuery.Builder}. */
  void logQueryBuilder() throws Exception {
    LogQuery count = LogQuery.builder().names(List.of("driver.log", "executor-logs/")).strict(true).build();
  }

  /** The example of {@code LogSet}. */
  void logSet() throws Exception {
    LogSet logs = LogSet.builder().sources(ByteSources.defaults()).build();
    SearchSetResult r = logs.search(LogQuery.builder()
        .name("executor-logs/")
        .search(SearchQuery.literal("Lost executor"))
        .build());
    System.out.print(r.toText());
  }

  /** The example of {@code LogSet.Builder}. */
  void logSetBuilder() throws Exception {
    LogSet oneAtATime = LogSet.builder()
        .sources(ByteSources.defaults())
        .threads(1)
        .streams(LogStream.builder().redact(false))
        .build();
  }

  /** The example of {@code LogError}. */
  void logError(LogSetResult<SearchResult> result) throws Exception {
    for (LogError e : result.errors()) {
      System.err.println(e.source() + ": " + e.message(Remedy::words));
      e.exception().remedy().ifPresent(r -> System.err.println("remedy: " + r.id()));
    }
  }

  /** The example of {@code LogSetResult}. */
  void logSetResult(LogQuery query) throws Exception {
    LogSetResult<SearchResult> r = LogSet.builder().build().search(query);
    r.errors().forEach(e -> System.err.println(e.source() + ": " + e.message()));
    System.out.println(r.toJson());
  }

  /** The example of {@code SearchSetResult}. */
  void searchSetResult(LogQuery query) throws Exception {
    SearchSetResult r = LogSet.builder().build().search(query);
    System.out.println(r.totalMatches() + " matches in " + r.logsWithMatches() + " of " + r.logs().size() + " logs");
  }

  /** The example of {@code CountSetResult}. */
  void countSetResult(LogQuery query) throws Exception {
    CountSetResult r = LogSet.builder().build().count(query);
    System.out.println(r.matchingLines() + " of " + r.lines() + " lines match");
  }

  /** The example of {@code SearchQuery.requiredLiterals}. */
  void requiredLiterals() {
    SearchQuery.regex("OutOfMemoryError: (Java heap space|GC overhead)").requiredLiterals(); // [OutOfMemoryError: ]
  }
}

package io.sparkrca.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceFiles;
import io.sparkrca.core.logs.CountResult;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.LogLine;
import io.sparkrca.core.logs.LogText;
import io.sparkrca.core.logs.SearchMatch;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * One {@code logs count} or {@code logs search} over several logs: the names expanded (directories,
 * globs), the logs read concurrently with a few in flight, the results in the order named, one
 * unreadable log an error line that does not stop the others (exit 2 at the end, as grep does).
 *
 * <pre>{@code
 * LogSet.Results<CountResult> r = LogSet.run(sources, List.of("executor-logs/"), 10_000, uri -> stream(uri).count());
 * }</pre>
 */
final class LogSet {
  /** Made on first use: text output needs no mapper, and making one costs a just-started JVM a tenth of a second. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }
  /** Matches kept across all logs of one search, so that memory stays bounded. */
  static final int MAX_TOTAL_MATCHES = 10_000;

  private LogSet() {}

  /** One log's result or error. */
  record Outcome<T>(String uri, Optional<T> result, Optional<SparkRcaException> error) {}

  /**
   * The outcomes, in order.
   *
   * @param single the one result when exactly one file was named (printed as before, in spark_gcs_log_reader.py's format)
   * @param notes what was left out (names that matched nothing, logs past a cap)
   */
  record Results<T>(List<Outcome<T>> outcomes, Optional<T> single, List<String> notes) {
    List<T> results() {
      return outcomes.stream().flatMap(o -> o.result().stream()).toList();
    }

    /** Prints each error as grep does and returns the exit code: 2 when a log could not be read. */
    int reportErrors(PrintWriter err) {
      boolean any = false;
      for (Outcome<T> o : outcomes) {
        if (o.error().isPresent()) {
          err.println("sparkrca: " + CliHints.error(o.error().get()));
          any = true;
        }
      }
      err.flush();
      return any ? SparkRcaCommand.EXIT_ERROR : 0;
    }
  }

  /** How many directory levels a directory given to search or count is read down to. */
  static final int MAX_DEPTH = 6;

  static <T> Results<T> run(ByteSources sources, List<String> names, int maxLogs, Function<String, T> action) {
    // Deep enough for a YARN or Kubernetes log tree given from above its application's directory
    // (app/container/stderr under a date or node directory); the file cap bounds the walk.
    SourceFiles.Listing listing = SourceFiles.expand(sources, names, maxLogs, MAX_DEPTH);
    if (names.size() == 1 && listing.files().size() == 1 && listing.files().get(0).equals(names.get(0))) {
      // One file named: its errors are the command's errors, its output the single-log format.
      return new Results<>(List.of(), Optional.of(action.apply(names.get(0))), List.of());
    }
    List<String> notes = new ArrayList<>();
    List<Outcome<T>> outcomes = new ArrayList<>();
    for (SourceFiles.Problem p : listing.problems()) {
      outcomes.add(new Outcome<>(p.uri(), Optional.empty(), Optional.of(p.cause().orElseGet(
          () -> new io.sparkrca.core.error.InputNotFoundException(p.uri(), p.message())))));
    }
    if (listing.files().isEmpty() && outcomes.isEmpty()) {
      throw new io.sparkrca.core.error.InputNotFoundException(String.join(" ", names), "no log found");
    }
    if (listing.capped()) {
      notes.add("Only the first " + maxLogs + " logs were read.");
    }
    int threads = Math.max(1, Math.min(listing.files().size(), Math.max(2, Runtime.getRuntime().availableProcessors())));
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "sparkrca-logs");
      t.setDaemon(true);
      return t;
    });
    long kept = 0;
    int skipped = 0;
    try {
      // A few logs in flight at a time, results taken in order: memory holds a bounded window.
      Deque<Future<Outcome<T>>> window = new ArrayDeque<>();
      List<String> files = listing.files();
      int next = 0;
      while (next < files.size() || !window.isEmpty()) {
        while (next < files.size() && window.size() < threads * 2 && kept < MAX_TOTAL_MATCHES) {
          String uri = files.get(next++);
          window.add(pool.submit(() -> {
            try {
              return new Outcome<>(uri, Optional.of(action.apply(uri)), Optional.empty());
            } catch (SparkRcaException e) {
              return new Outcome<T>(uri, Optional.empty(), Optional.of(e));
            }
          }));
        }
        if (window.isEmpty()) {
          skipped = files.size() - next;
          break;
        }
        Outcome<T> o = take(window.removeFirst());
        outcomes.add(o);
        if (o.result().isPresent() && o.result().get() instanceof SearchResult sr) {
          kept += sr.matches().size();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (skipped > 0) {
      notes.add(skipped + " more logs were not searched: " + MAX_TOTAL_MATCHES + " matches were found before them; "
          + "narrow the pattern or the logs.");
    }
    return new Results<>(outcomes, Optional.empty(), notes);
  }

  private static <T> Outcome<T> take(Future<Outcome<T>> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("interrupted while reading the logs");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new SparkRcaException(String.valueOf(e.getCause()), e.getCause());
    }
  }

  // --- count -------------------------------------------------------------------------------------

  static String countText(Results<CountResult> r, SearchQuery q) {
    StringBuilder sb = new StringBuilder();
    List<CountResult> all = r.results();
    sb.append("=== Line count for ").append(all.size()).append(all.size() == 1 ? " log" : " logs").append(" ===\n");
    long lines = 0;
    long matching = 0;
    for (CountResult c : all) {
      sb.append(LogText.safe(c.source())).append(": ").append(c.lines()).append(" lines");
      if (q != null) {
        sb.append(", ").append(c.matchingLines()).append(" matching");
      }
      sb.append('\n');
      lines += c.lines();
      matching += c.matchingLines();
    }
    sb.append("Total: ").append(lines).append(" lines");
    if (q != null) {
      sb.append("; matching lines (").append(q.regex() ? "regex" : "literal").append(" '").append(LogText.safe(q.pattern()))
          .append("'").append(q.ignoreCase() ? ", ignoring case" : "").append("): ").append(matching);
    }
    return sb.append('\n').toString();
  }

  static String countJson(Results<CountResult> r, SearchQuery q) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("action", "count");
    ArrayNode logs = o.putArray("logs");
    long lines = 0;
    long matching = 0;
    for (CountResult c : r.results()) {
      logs.add(tree(LogJson.count(c)));
      lines += c.lines();
      matching += c.matchingLines();
    }
    o.put("lines", lines);
    if (q != null) {
      o.put("matchingLines", matching);
    }
    return finish(o, r);
  }

  // --- search ------------------------------------------------------------------------------------

  static String searchText(Results<SearchResult> r, SearchQuery q) {
    StringBuilder sb = new StringBuilder();
    List<SearchResult> all = r.results();
    sb.append("=== Searching '").append(LogText.safe(q.pattern())).append("' in ").append(all.size())
        .append(all.size() == 1 ? " log" : " logs").append(" ===\n");
    long matches = 0;
    long scanned = 0;
    int withMatches = 0;
    for (SearchResult s : all) {
      scanned += s.linesScanned();
      if (s.matches().isEmpty()) {
        continue;
      }
      withMatches++;
      String name = LogText.safe(s.source());
      for (SearchMatch m : s.matches()) {
        boolean context = !m.before().isEmpty() || !m.after().isEmpty();
        sb.append(matches == 0 ? "\n" : context ? "--\n" : "");
        matches++;
        for (LogLine l : m.before()) {
          sb.append(name).append('-').append(number(l)).append(" | ").append(LogText.safe(l.display())).append('\n');
        }
        sb.append(name).append(':').append(number(m.line())).append(" | ").append(LogText.safe(m.line().display())).append('\n');
        for (LogLine l : m.after()) {
          sb.append(name).append('-').append(number(l)).append(" | ").append(LogText.safe(l.display())).append('\n');
        }
      }
      if (s.limitReached()) {
        sb.append("[").append(name).append(": reached the limit of ").append(q.maxMatches()).append(" matches]\n");
      }
    }
    sb.append('\n').append("=== Search complete. Total matches found: ").append(matches).append(" in ")
        .append(withMatches).append(" of ").append(all.size()).append(" logs (scanned ").append(scanned)
        .append(" lines) ===\n");
    if (matches == 0 && !all.isEmpty()) {
      // The zero-match hint names this command's options (--ignore-case, --regex).
      all.get(0).hintRemedy().ifPresent(h -> sb.append(CliHints.words(h)).append('\n'));
    }
    return sb.toString();
  }

  static String searchJson(Results<SearchResult> r, SearchQuery q) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("action", "search");
    ObjectNode query = o.putObject("query");
    query.put("pattern", q.pattern());
    query.put("regex", q.regex());
    query.put("ignoreCase", q.ignoreCase());
    ArrayNode logs = o.putArray("logs");
    long matches = 0;
    for (SearchResult s : r.results()) {
      logs.add(tree(LogJson.search(s)));
      matches += s.matches().size();
    }
    o.put("totalMatches", matches);
    return finish(o, r);
  }

  private static String number(LogLine l) {
    return l.numbered() ? String.format(Locale.ROOT, "%6d", l.number()) : "     ?";
  }

  private static JsonNode tree(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (java.io.IOException e) {
      throw new AssertionError("the library's own JSON did not parse", e);
    }
  }

  private static <T> String finish(ObjectNode o, Results<T> r) {
    ArrayNode errors = o.putArray("errors");
    for (Outcome<T> out : r.outcomes()) {
      out.error().ifPresent(e -> errors.addObject().put("source", out.uri()).put("message", CliHints.error(e)));
    }
    ArrayNode notes = o.putArray("notes");
    r.notes().forEach(notes::add);
    return o.toPrettyString() + "\n";
  }
}

package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceFiles;
import io.sparkrca.core.logs.CountResult;
import io.sparkrca.core.logs.LogJson;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/**
 * {@code logs_search} and {@code logs_count} over several logs, with the command line's bounds: at
 * most {@value #MAX_LOGS} logs (directories {@value #MAX_DEPTH} levels deep, local globs), at most
 * {@value #MAX_TOTAL_MATCHES} matches kept across all logs (the logs after that are not read, and
 * a note says so). One unreadable log is an entry under {@code errors}; when the only log named is
 * unreadable, its error is the call's. Logs are read one after another: an agent's call is one of
 * several the server may be running, so it does not take the machine's cores for itself.
 *
 * <pre>{@code
 * String json = LogBatch.search(sources, List.of("executor-logs/"), query, stream::open);
 * }</pre>
 */
final class LogBatch {
  static final int MAX_LOGS = 10_000;
  static final int MAX_TOTAL_MATCHES = 10_000;
  /** How deep directories are read: a YARN or Kubernetes log tree from above, as the command line's logs count/search. */
  static final int MAX_DEPTH = 6;
  private static final ObjectMapper JSON = new ObjectMapper();

  private LogBatch() {}

  static String search(ByteSources sources, List<String> names, SearchQuery query, Function<String, SearchResult> read) {
    ObjectNode out = JSON.createObjectNode();
    out.put("action", "search");
    ObjectNode q = out.putObject("query");
    q.put("pattern", query.pattern());
    q.put("regex", query.regex());
    q.put("ignoreCase", query.ignoreCase());
    q.put("before", query.before());
    q.put("after", query.after());
    q.put("maxMatches", query.maxMatches());
    long[] total = {0};
    run(sources, names, out, uri -> {
      SearchResult r = read.apply(uri);
      total[0] += r.matches().size();
      return LogJson.search(r);
    }, () -> total[0] >= MAX_TOTAL_MATCHES, "matches were found before them; narrow the pattern or the logs");
    out.put("totalMatches", total[0]);
    return out.toPrettyString();
  }

  static String count(ByteSources sources, List<String> names, SearchQuery query, Function<String, CountResult> read) {
    ObjectNode out = JSON.createObjectNode();
    out.put("action", "count");
    long[] lines = {0};
    long[] matching = {0};
    run(sources, names, out, uri -> {
      CountResult c = read.apply(uri);
      lines[0] += c.lines();
      matching[0] += c.matchingLines();
      return LogJson.count(c);
    }, () -> false, "");
    out.put("lines", lines[0]);
    if (query != null) {
      out.put("matchingLines", matching[0]);
    }
    return out.toPrettyString();
  }

  private static void run(ByteSources sources, List<String> names, ObjectNode out, Function<String, String> readOne,
      java.util.function.BooleanSupplier full, String fullReason) {
    SourceFiles.Listing listing = SourceFiles.expand(sources, names, MAX_LOGS, MAX_DEPTH);
    ArrayNode logs = out.putArray("logs");
    ArrayNode errors = out.putArray("errors");
    ArrayNode notes = out.putArray("notes");
    for (SourceFiles.Problem p : listing.problems()) {
      errors.addObject().put("source", p.uri()).put("message", redact(p.message()));
    }
    boolean onlyOne = names.size() == 1 && listing.problems().isEmpty() && listing.files().equals(names);
    if (listing.files().isEmpty() && listing.problems().isEmpty()) {
      throw new InputNotFoundException(String.join(" ", names), "no log found");
    }
    if (listing.files().isEmpty() && names.size() == 1) {
      SourceFiles.Problem p = listing.problems().get(0);
      throw p.cause().orElseGet(() -> new InputNotFoundException(p.uri(), p.message()));
    }
    if (listing.capped()) {
      notes.add("Only the first " + MAX_LOGS + " logs were read.");
    }
    List<String> files = listing.files();
    for (int i = 0; i < files.size(); i++) {
      if (full.getAsBoolean()) {
        notes.add((files.size() - i) + " more logs were not searched: " + MAX_TOTAL_MATCHES + " " + fullReason + ".");
        break;
      }
      String uri = files.get(i);
      try {
        logs.add(tree(readOne.apply(uri)));
      } catch (SparkRcaException e) {
        if (onlyOne) {
          throw e; // the one log named: its error is the call's error
        }
        errors.addObject().put("source", uri).put("message", redact(e.getMessage()));
      }
    }
  }

  private static String redact(String message) {
    return Redactor.standard().redactText(String.valueOf(message));
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new AssertionError("the library's own JSON did not parse", e);
    }
  }
}

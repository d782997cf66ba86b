package io.sparkrca.core.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Function;

/**
 * Renders {@link LogStream} results as JSON documents (two-space indented). A search gives one
 * object per match with its line number, byte offset, text and context lines; a line whose number
 * is unknown (a windowed tail) has {@code "line": null}. A {@link LogSet} result is one document
 * holding each log's, with the errors, notes and totals; the command line and the MCP server both
 * send it.
 *
 * <pre>{@code
 * String json = LogJson.search(LogStream.open("driver.log").search(SearchQuery.regex("ERROR")));
 * // {"action":"search","source":"driver.log","matches":[{"match":1,"line":12,"byteOffset":804,...}]}
 * }</pre>
 */
public final class LogJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private LogJson() {}

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static String render(String action, String source, List<String> notes, Body body) {
    return write(action, g -> document(g, action, source, notes, body)) + "\n";
  }

  /** {@code body} written to a string, two-space indented. */
  private static String write(String action, Body body) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      body.write(g);
    } catch (IOException e) {
      // A StringWriter does not fail; only a bug in the writing code gets here.
      throw new AssertionError("writing " + action + " JSON to memory failed", e);
    }
    return out.toString();
  }

  /** One log's document: its action and source, the action's fields, its notes. */
  private static void document(JsonGenerator g, String action, String source, List<String> notes, Body body)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("action", action);
    g.writeStringField("source", source);
    body.write(g);
    strings(g, "notes", notes);
    g.writeEndObject();
  }

  private static void strings(JsonGenerator g, String field, List<String> values) throws IOException {
    g.writeArrayFieldStart(field);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  public static String info(LogInfo info) {
    return render("info", info.source(), info.notes(), g -> {
      if (info.size().isPresent()) {
        g.writeNumberField("size", info.size().getAsLong());
      } else {
        g.writeNullField("size");
      }
      g.writeBooleanField("compressed", info.compressed());
      g.writeStringField("codec", info.compression().isCompressed() ? info.compression().codecName() : "none");
      g.writeBooleanField("large", info.large());
      g.writeStringField("recommendation", info.recommendation());
    });
  }

  /** head, tail or range. */
  public static String lines(String action, LogLines lines) {
    return render(action, lines.source(), lines.notes(), g -> {
      g.writeStringField("codec", lines.compression().isCompressed() ? lines.compression().codecName() : "none");
      g.writeArrayFieldStart("lines");
      for (LogLine l : lines.lines()) {
        line(g, l);
      }
      g.writeEndArray();
    });
  }

  public static String search(SearchResult r) {
    return search(r, Remedy::words);
  }

  /** As {@link #search(SearchResult)}, with the zero-match hint in {@code words}' words. */
  public static String search(SearchResult r, Function<? super Remedy, String> words) {
    return render("search", r.source(), r.notes(), searchBody(r, words));
  }

  private static Body searchBody(SearchResult r, Function<? super Remedy, String> words) {
    return g -> {
      query(g, r.query(), true);
      g.writeArrayFieldStart("matches");
      for (SearchMatch m : r.matches()) {
        g.writeStartObject();
        g.writeNumberField("match", m.index());
        lineFields(g, m.line());
        g.writeArrayFieldStart("before");
        for (LogLine l : m.before()) {
          line(g, l);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("after");
        for (LogLine l : m.after()) {
          line(g, l);
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeNumberField("totalMatches", r.matches().size());
      g.writeNumberField("linesScanned", r.linesScanned());
      g.writeBooleanField("limitReached", r.limitReached());
      if (r.hintRemedy().isPresent()) {
        g.writeStringField("hint", words.apply(r.hintRemedy().get()));
      }
    };
  }

  /** The query object; a count's leaves out the context and the match limit, which it does not use. */
  private static void query(JsonGenerator g, SearchQuery q, boolean search) throws IOException {
    g.writeObjectFieldStart("query");
    g.writeStringField("pattern", q.pattern());
    g.writeBooleanField("regex", q.regex());
    g.writeBooleanField("ignoreCase", q.ignoreCase());
    if (search) {
      g.writeNumberField("before", q.before());
      g.writeNumberField("after", q.after());
      g.writeNumberField("maxMatches", q.maxMatches());
    }
    g.writeEndObject();
  }

  public static String count(CountResult c) {
    return render("count", c.source(), c.notes(), countBody(c));
  }

  private static Body countBody(CountResult c) {
    return g -> {
      g.writeNumberField("lines", c.lines());
      if (c.query().isPresent()) {
        query(g, c.query().get(), false);
        g.writeNumberField("matchingLines", c.matchingLines());
      }
    };
  }

  // --- many logs -------------------------------------------------------------------------------

  /**
   * A search over many logs: the query, each log's document as {@link #search(SearchResult)}
   * writes it, the errors, the notes and the total. Without a line end at the end, as a tool's
   * answer is sent.
   */
  public static String search(SearchSetResult r) {
    return search(r, Remedy::words);
  }

  /** As {@link #search(SearchSetResult)}, with the advice (hints, errors' remedies) in {@code words}' words. */
  public static String search(SearchSetResult r, Function<? super Remedy, String> words) {
    return many("search", r, words, g -> query(g, r.query(), true),
        r.logs().stream().map(s -> document("search", s.source(), s.notes(), searchBody(s, words))).toList(),
        g -> g.writeNumberField("totalMatches", r.totalMatches()));
  }

  /** A count over many logs: each log's document as {@link #count(CountResult)} writes it, the errors, the notes and the totals. */
  public static String count(CountSetResult r) {
    return count(r, Remedy::words);
  }

  /** As {@link #count(CountSetResult)}, with the errors' remedies in {@code words}' words. */
  public static String count(CountSetResult r, Function<? super Remedy, String> words) {
    return many("count", r, words, g -> {},
        r.logs().stream().map(c -> document("count", c.source(), c.notes(), countBody(c))).toList(),
        g -> {
          g.writeNumberField("lines", r.lines());
          if (r.request().search().isPresent()) {
            g.writeNumberField("matchingLines", r.matchingLines());
          }
        });
  }

  private static Body document(String action, String source, List<String> notes, Body body) {
    return g -> document(g, action, source, notes, body);
  }

  /** The document of many logs: the action, {@code head}, each log's document, the errors and notes, the totals. */
  private static String many(String action, LogSetResult<?> r, Function<? super Remedy, String> words, Body head,
      List<Body> logs, Body totals) {
    return write(action, g -> {
      g.writeStartObject();
      g.writeStringField("action", action);
      head.write(g);
      g.writeArrayFieldStart("logs");
      for (Body log : logs) {
        log.write(g);
      }
      g.writeEndArray();
      errorsAndNotes(g, r, words);
      totals.write(g);
      g.writeEndObject();
    });
  }

  /** The errors (their source and message redacted: a message may quote a URL) and the notes. */
  private static void errorsAndNotes(JsonGenerator g, LogSetResult<?> r, Function<? super Remedy, String> words)
      throws IOException {
    g.writeArrayFieldStart("errors");
    for (LogError e : r.errors()) {
      g.writeStartObject();
      g.writeStringField("source", Redactor.standard().redactText(e.source()));
      g.writeStringField("message", Redactor.standard().redactText(e.message(words)));
      g.writeEndObject();
    }
    g.writeEndArray();
    strings(g, "notes", r.notes());
  }

  private static void line(JsonGenerator g, LogLine l) throws IOException {
    g.writeStartObject();
    lineFields(g, l);
    g.writeEndObject();
  }

  private static void lineFields(JsonGenerator g, LogLine l) throws IOException {
    if (l.numbered()) {
      g.writeNumberField("line", l.number());
    } else {
      g.writeNullField("line");
    }
    g.writeNumberField("byteOffset", l.byteOffset());
    g.writeStringField("text", l.text());
    if (l.truncated()) {
      g.writeBooleanField("truncated", true);
      g.writeNumberField("fullLength", l.fullLength());
    }
  }
}

package io.sparkrca.core.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sparkrca.core.error.Remedy;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Function;

/**
 * Renders {@link LogStream} results as JSON documents (two-space indented). A search gives one
 * object per match with its line number, byte offset, text and context lines; a line whose number
 * is unknown (a windowed tail) has {@code "line": null}.
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
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("action", action);
      g.writeStringField("source", source);
      body.write(g);
      g.writeArrayFieldStart("notes");
      for (String n : notes) {
        g.writeString(n);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      // A StringWriter does not fail; only a bug in the writing code gets here.
      throw new AssertionError("writing " + action + " JSON to memory failed", e);
    }
    return out.append('\n').toString();
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
    return render("search", r.source(), r.notes(), g -> {
      g.writeObjectFieldStart("query");
      g.writeStringField("pattern", r.query().pattern());
      g.writeBooleanField("regex", r.query().regex());
      g.writeBooleanField("ignoreCase", r.query().ignoreCase());
      g.writeNumberField("before", r.query().before());
      g.writeNumberField("after", r.query().after());
      g.writeNumberField("maxMatches", r.query().maxMatches());
      g.writeEndObject();
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
    });
  }

  public static String count(CountResult c) {
    return render("count", c.source(), c.notes(), g -> {
      g.writeNumberField("lines", c.lines());
      if (c.query().isPresent()) {
        SearchQuery q = c.query().get();
        g.writeObjectFieldStart("query");
        g.writeStringField("pattern", q.pattern());
        g.writeBooleanField("regex", q.regex());
        g.writeBooleanField("ignoreCase", q.ignoreCase());
        g.writeEndObject();
        g.writeNumberField("matchingLines", c.matchingLines());
      }
    });
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

package io.sparkrca.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A readable difference between two JSON trees: one line per differing path, capped, so a failing
 * conformance case says exactly what is wrong ({@code $.tasks.3.duration: expected 12, got 13}).
 */
public final class JsonDiff {
  private final List<String> lines = new ArrayList<>();
  private final int max;
  private int total;

  private JsonDiff(int max) {
    this.max = max;
  }

  /** The differences between {@code expected} and {@code actual}; empty when equal. */
  public static List<String> diff(JsonNode expected, JsonNode actual) {
    return diff(expected, actual, 40);
  }

  public static List<String> diff(JsonNode expected, JsonNode actual, int max) {
    JsonDiff d = new JsonDiff(max);
    d.walk("$", expected, actual);
    if (d.total > d.lines.size()) {
      d.lines.add("... and " + (d.total - d.lines.size()) + " more differences");
    }
    return d.lines;
  }

  private void add(String line) {
    total++;
    if (lines.size() < max) {
      lines.add(line);
    }
  }

  private void walk(String path, JsonNode e, JsonNode a) {
    if (e == null || a == null) {
      add(path + ": " + (e == null ? "unexpected " + brief(a) : "missing (expected " + brief(e) + ")"));
      return;
    }
    if (e.isObject() && a.isObject()) {
      Set<String> names = new TreeSet<>();
      e.fieldNames().forEachRemaining(names::add);
      a.fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        walk(path + "." + n, e.get(n), a.get(n));
      }
      return;
    }
    if (e.isArray() && a.isArray()) {
      if (e.size() != a.size()) {
        add(path + ": expected " + e.size() + " elements, got " + a.size());
      }
      Iterator<JsonNode> ei = e.elements();
      Iterator<JsonNode> ai = a.elements();
      int i = 0;
      while (ei.hasNext() && ai.hasNext()) {
        walk(path + "[" + i++ + "]", ei.next(), ai.next());
      }
      return;
    }
    if (e.isNumber() && a.isNumber()) {
      if (e.decimalValue().compareTo(a.decimalValue()) != 0) {
        add(path + ": expected " + e + ", got " + a);
      }
      return;
    }
    if (!e.equals(a)) {
      add(path + ": expected " + brief(e) + ", got " + brief(a));
    }
  }

  private static String brief(JsonNode n) {
    String s = String.valueOf(n);
    return s.length() > 160 ? s.substring(0, 160) + "..." : s;
  }
}

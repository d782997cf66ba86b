package io.sparkrca.core.source;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The arguments of one named read (an MCP tool call, a {@link SourceReadProvider#read}), as JSON
 * values (strings, numbers, booleans, lists, objects), read by type. The caller has usually checked
 * them against a schema already; these checks are the second line, so that a read never sees a
 * wrong type, and their messages name the read, the argument and what it must be.
 *
 * <pre>{@code
 * ReadArguments a = new ReadArguments("logs_head", Map.of("uri", "driver.log", "lines", 200));
 * int n = a.integer("lines", 50);
 * }</pre>
 */
public final class ReadArguments {
  private final String read;
  private final Map<String, Object> values;

  /**
   * The arguments {@code values} (an absent one is not in the map, or maps to JSON's null) of the
   * read named {@code read}; a protocol's call without arguments may pass null for none.
   */
  public ReadArguments(String read, Map<String, Object> values) {
    this.read = Objects.requireNonNull(read, "read");
    // A copy (that allows JSON's nulls, as Map.copyOf does not): the caller's map may change after.
    this.values = values == null ? Map.of() : Collections.unmodifiableMap(new HashMap<>(values));
  }

  /** The name of the read (the tool) these are the arguments of; error messages start with it. */
  public String read() {
    return read;
  }

  /** A string argument that must be given. */
  public String requiredString(String name) {
    return string(name).orElseThrow(() -> bad(name, "is required"));
  }

  /** A string argument, empty when absent; an error when it is not a string or is blank. */
  public Optional<String> string(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof String s)) {
      throw bad(name, "must be a string, not " + describe(v));
    }
    if (s.isBlank()) {
      throw bad(name, "must not be empty");
    }
    return Optional.of(s);
  }

  /** A boolean argument, {@code fallback} when absent. */
  public boolean bool(String name, boolean fallback) {
    Object v = values.get(name);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Boolean b)) {
      throw bad(name, "must be true or false, not " + describe(v));
    }
    return b;
  }

  /** A whole-number argument, {@code fallback} when absent. */
  public int integer(String name, int fallback) {
    return optionalInteger(name).orElse(fallback);
  }

  /** A whole-number argument within int's range, empty when absent. */
  public Optional<Integer> optionalInteger(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE) {
      return Optional.of(n.intValue());
    }
    throw bad(name, "must be a whole number, not " + describe(v));
  }

  /** A whole-number argument, empty when absent. */
  public Optional<Long> optionalLong(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      return Optional.of(n.longValue());
    }
    throw bad(name, "must be a whole number, not " + describe(v));
  }

  /** A whole-number argument that must be given. */
  public long requiredLong(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw bad(name, "is required");
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      return n.longValue();
    }
    throw bad(name, "must be a whole number, not " + describe(v));
  }

  /** A number argument, empty when absent. */
  public Optional<Double> number(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (v instanceof Number n) {
      return Optional.of(n.doubleValue());
    }
    throw bad(name, "must be a number, not " + describe(v));
  }

  /** A list of strings; empty when absent. */
  public List<String> strings(String name) {
    Object v = values.get(name);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> list)) {
      throw bad(name, "must be a list of strings, not " + describe(v));
    }
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof String s) || s.isBlank()) {
        throw bad(name, "must be a list of non-empty strings; it holds " + describe(o));
      }
      out.add(s);
    }
    return out;
  }

  /** A list of JSON objects; empty when absent. */
  public List<Map<?, ?>> objects(String name) {
    Object v = values.get(name);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> list)) {
      throw bad(name, "must be a list of objects, not " + describe(v));
    }
    List<Map<?, ?>> out = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> m)) {
        throw bad(name, "must be a list of objects; it holds " + describe(o));
      }
      out.add(m);
    }
    return out;
  }

  private InvalidRequestException bad(String name, String what) {
    return new InvalidRequestException(read + ": the argument '" + name + "' " + what);
  }

  private static String describe(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Number) {
      return "the number " + v;
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    if (v instanceof List) {
      return "a list";
    }
    if (v instanceof Map) {
      return "an object";
    }
    return v.getClass().getSimpleName();
  }
}

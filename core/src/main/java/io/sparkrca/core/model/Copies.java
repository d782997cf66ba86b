package io.sparkrca.core.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Defensive copies that keep iteration order (JSON output stays in source order). */
final class Copies {
  private Copies() {}

  static <K, V> Map<K, V> map(Map<K, V> m) {
    return m.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  static <T> List<T> list(List<T> l) {
    return List.copyOf(l);
  }
}

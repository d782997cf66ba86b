package io.sparkrca.core.eventlog.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Interns the few distinct strings of task rows (executor ids, hosts, localities) as ints. */
final class StringPool {
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> values = new ArrayList<>();

  int id(String s) {
    if (s == null) {
      return -1;
    }
    Integer id = ids.get(s);
    if (id == null) {
      id = values.size();
      values.add(s);
      ids.put(s, id);
    }
    return id;
  }

  String get(long id) {
    return id < 0 ? null : values.get((int) id);
  }
}

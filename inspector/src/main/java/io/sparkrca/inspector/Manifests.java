package io.sparkrca.inspector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses a JAR manifest's main section. Lines longer than 72 bytes are wrapped by the writer,
 * the continuation starting with one space; they are joined here, so a long Main-Class is whole.
 */
final class Manifests {
  private Manifests() {}

  static Map<String, String> mainAttributes(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    String key = null;
    StringBuilder value = new StringBuilder();
    for (String line : text.split("\r\n|\r|\n", -1)) {
      if (line.startsWith(" ")) {
        if (key != null) {
          value.append(line, 1, line.length());
        }
        continue;
      }
      if (key != null) {
        out.putIfAbsent(key, value.toString().strip());
        key = null;
      }
      if (line.isEmpty()) {
        break; // the main section ends at the first blank line
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      key = line.substring(0, colon).strip();
      value.setLength(0);
      value.append(line.substring(colon + 1).stripLeading());
    }
    if (key != null) {
      out.putIfAbsent(key, value.toString().strip());
    }
    return out;
  }
}

package io.sparkrca.core.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Deterministic damage to real inputs, the kinds a hostile or unlucky user produces: a cut
 * mid-line, flipped bits, lines deleted, duplicated or shuffled, a JSON field of the wrong type,
 * an unknown event, random bytes. The same seed gives the same bytes, so every failure a fuzz
 * target or the mutation corpus reports can be replayed from its seed.
 */
public enum Mutations {
  /** The file cut at a random byte, usually mid-line (or mid-block for a compressed file). */
  TRUNCATE {
    @Override
    public byte[] apply(byte[] in, Random r) {
      return Arrays.copyOf(in, in.length == 0 ? 0 : r.nextInt(in.length));
    }
  },
  /** One to eight random bits flipped. */
  BIT_FLIP {
    @Override
    public byte[] apply(byte[] in, Random r) {
      byte[] out = in.clone();
      if (out.length == 0) {
        return out;
      }
      int flips = 1 + r.nextInt(8);
      for (int i = 0; i < flips; i++) {
        int at = r.nextInt(out.length);
        out[at] ^= (byte) (1 << r.nextInt(8));
      }
      return out;
    }
  },
  /** One to a tenth of the lines deleted. */
  DELETE_LINES {
    @Override
    public byte[] apply(byte[] in, Random r) {
      List<String> lines = lines(in);
      int n = 1 + r.nextInt(Math.max(1, lines.size() / 10));
      for (int i = 0; i < n && !lines.isEmpty(); i++) {
        lines.remove(r.nextInt(lines.size()));
      }
      return join(lines);
    }
  },
  /** One to a tenth of the lines written twice, the copy next to the original. */
  DUPLICATE_LINES {
    @Override
    public byte[] apply(byte[] in, Random r) {
      List<String> lines = lines(in);
      int n = 1 + r.nextInt(Math.max(1, lines.size() / 10));
      for (int i = 0; i < n && !lines.isEmpty(); i++) {
        int at = r.nextInt(lines.size());
        lines.add(at, lines.get(at));
      }
      return join(lines);
    }
  },
  /** A window of lines shuffled, or every line. */
  SHUFFLE_LINES {
    @Override
    public byte[] apply(byte[] in, Random r) {
      List<String> lines = lines(in);
      if (lines.size() < 2) {
        return in.clone();
      }
      if (r.nextBoolean()) {
        Collections.shuffle(lines, r);
      } else {
        int from = r.nextInt(lines.size() - 1);
        int to = Math.min(lines.size(), from + 2 + r.nextInt(20));
        Collections.shuffle(lines.subList(from, to), r);
      }
      return join(lines);
    }
  },
  /** In some lines, one JSON value replaced by a value of another type (a number by a string, an object by a number...). */
  WRONG_FIELD_TYPES {
    private final String[] replacements = {"\"x\"", "-1", "null", "true", "[]", "{}", "1e999", "9223372036854775808", "\"\"", "[1,2]"};

    @Override
    public byte[] apply(byte[] in, Random r) {
      List<String> lines = lines(in);
      if (lines.isEmpty()) {
        return in.clone();
      }
      int n = 1 + r.nextInt(Math.max(1, lines.size() / 10));
      for (int i = 0; i < n; i++) {
        int at = r.nextInt(lines.size());
        lines.set(at, retype(lines.get(at), r));
      }
      return join(lines);
    }

    private String retype(String line, Random r) {
      // The value after a random "key": a number, a string, true/false/null, an object or an array.
      List<Integer> colons = new ArrayList<>();
      for (int i = line.indexOf("\":"); i >= 0; i = line.indexOf("\":", i + 2)) {
        colons.add(i + 2);
      }
      if (colons.isEmpty()) {
        return line;
      }
      int start = colons.get(r.nextInt(colons.size()));
      int end = valueEnd(line, start);
      return line.substring(0, start) + replacements[r.nextInt(replacements.length)] + line.substring(end);
    }

    private int valueEnd(String s, int start) {
      if (start >= s.length()) {
        return start;
      }
      char c = s.charAt(start);
      if (c == '"') {
        for (int i = start + 1; i < s.length(); i++) {
          if (s.charAt(i) == '\\') {
            i++;
          } else if (s.charAt(i) == '"') {
            return i + 1;
          }
        }
        return s.length();
      }
      if (c == '{' || c == '[') {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < s.length(); i++) {
          char d = s.charAt(i);
          if (inString) {
            if (d == '\\') {
              i++;
            } else if (d == '"') {
              inString = false;
            }
          } else if (d == '"') {
            inString = true;
          } else if (d == '{' || d == '[') {
            depth++;
          } else if (d == '}' || d == ']') {
            if (--depth == 0) {
              return i + 1;
            }
          }
        }
        return s.length();
      }
      int i = start;
      while (i < s.length() && ",}]".indexOf(s.charAt(i)) < 0) {
        i++;
      }
      return i;
    }
  },
  /** Events of names no Spark writes inserted, some well-formed and some not. */
  UNKNOWN_EVENTS {
    private final String[] events = {
      "{\"Event\":\"org.example.MadeUpEvent\",\"Time\":1}",
      "{\"Event\":\"SparkListenerNoSuchThing\"}",
      "{\"Event\":null}",
      "{\"Event\":42,\"Stage ID\":\"zero\"}",
      "{}",
      "[]",
      "{\"Event\":\"SparkListenerTaskEnd\"}",
      "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{}}",
      "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":-7}",
      "not json at all",
    };

    @Override
    public byte[] apply(byte[] in, Random r) {
      List<String> lines = lines(in);
      int n = 1 + r.nextInt(5);
      for (int i = 0; i < n; i++) {
        lines.add(r.nextInt(lines.size() + 1), events[r.nextInt(events.length)]);
      }
      return join(lines);
    }
  },
  /** A run of random bytes written over the file somewhere. */
  RANDOM_BYTES {
    @Override
    public byte[] apply(byte[] in, Random r) {
      byte[] out = in.clone();
      if (out.length == 0) {
        return out;
      }
      int at = r.nextInt(out.length);
      int len = Math.min(out.length - at, 1 + r.nextInt(64));
      for (int i = 0; i < len; i++) {
        out[at + i] = (byte) r.nextInt(256);
      }
      return out;
    }
  };

  /** {@code in} damaged this way, decided by {@code r}. */
  public abstract byte[] apply(byte[] in, Random r);

  /** A mutation chosen by {@code r} applied to {@code in}. */
  public static byte[] any(byte[] in, Random r) {
    Mutations[] all = values();
    return all[r.nextInt(all.length)].apply(in, r);
  }

  /** Whether this mutation works on lines (and so on the decompressed text of a compressed log). */
  public boolean lineWise() {
    return this == DELETE_LINES || this == DUPLICATE_LINES || this == SHUFFLE_LINES || this == WRONG_FIELD_TYPES || this == UNKNOWN_EVENTS;
  }

  static List<String> lines(byte[] in) {
    String text = new String(in, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  static byte[] join(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}

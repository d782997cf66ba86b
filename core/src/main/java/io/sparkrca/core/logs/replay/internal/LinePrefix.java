package io.sparkrca.core.logs.replay.internal;

import java.util.List;

/**
 * What a file puts before each Spark line, told from its first lines and stripped from every line:
 * {@code kubectl logs --timestamps}' RFC 3339 time, {@code kubectl logs --prefix}'s {@code
 * [pod/name/container]} (each pod its own section), or an Airflow task log's {@code [time]
 * {spark_submit.py:490} INFO - } (Airflow 2.x; also without the {@code {source}}, and with
 * KubernetesPodOperator's {@code [base] }).
 *
 * <p>Airflow logs its own lines among Spark's: each line's {@code {source}} is its channel, and a
 * line continues a record only when it came through the same channel (an Airflow line after a
 * Spark stack trace does not join it).
 *
 * <pre>{@code
 * LinePrefix prefix = LinePrefix.detect(sampleLines);
 * if (prefix.strip(buf, start, end)) parse(buf, prefix.start, end, prefix.channel, prefix.key);
 * }</pre>
 */
final class LinePrefix {
  /** The wrappers. */
  enum Kind {
    NONE(""),
    KUBECTL_TIMESTAMPS("kubectl timestamps > "),
    KUBECTL_PREFIX("kubectl pod prefixes > "),
    KUBECTL_PREFIX_TIMESTAMPS("kubectl pod prefixes and timestamps > "),
    AIRFLOW("Airflow task log > ");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  private static final byte[] POD = Scan.lit("[pod/");
  private static final byte[] BASE = Scan.lit("[base] ");

  final Kind kind;
  /** After {@link #strip}: where the Spark line starts. */
  int start;
  /** After {@link #strip}: the line's channel (Airflow's source), 0 when the wrapper has none. */
  int channel;
  /** After {@link #strip}: the pod of a {@code --prefix} line, or null. */
  String key;
  private int lastChannel;

  LinePrefix(Kind kind) {
    this.kind = kind;
  }

  /** The wrapper of a file whose first lines are {@code sample} (each a byte range). */
  static LinePrefix detect(List<byte[]> sample) {
    int lines = 0;
    int airflow = 0;
    int pods = 0;
    int stamped = 0;
    int stampedEvidence = 0;
    for (byte[] l : sample) {
      if (l.length == 0) {
        continue;
      }
      lines++;
      if (airflowInner(l, 0, l.length) >= 0) {
        airflow++;
      }
      int p = 0;
      if (PlainHeader.startsWith(l, 0, l.length, POD)) {
        pods++;
        p = podEnd(l, 0, l.length);
        if (p < 0) {
          continue;
        }
      }
      int after = rfc3339(l, p, l.length);
      if (after >= 0) {
        stamped++;
        if (after + 1 >= l.length || Levels.at(l, after + 1, l.length) == null) {
          stampedEvidence++;
        }
      }
    }
    if (lines == 0) {
      return new LinePrefix(Kind.NONE);
    }
    if (airflow * 2 >= lines) {
      return new LinePrefix(Kind.AIRFLOW);
    }
    // kubectl stamps every line, stack frames too; an ISO log4j layout stamps only headers, whose
    // time is followed by the level: a stamp followed by anything else says kubectl put it there.
    boolean kubectlStamps = stamped * 10 >= lines * 9 && stampedEvidence > 0;
    if (pods * 2 >= lines) {
      return new LinePrefix(kubectlStamps ? Kind.KUBECTL_PREFIX_TIMESTAMPS : Kind.KUBECTL_PREFIX);
    }
    return new LinePrefix(kubectlStamps ? Kind.KUBECTL_TIMESTAMPS : Kind.NONE);
  }

  /** Finds the Spark line in {@code b[from, to)}: sets {@link #start}, {@link #channel} and {@link #key}. */
  void strip(byte[] b, int from, int to) {
    start = from;
    channel = 0;
    key = null;
    switch (kind) {
      case KUBECTL_TIMESTAMPS -> start = stamp(b, from, to);
      case KUBECTL_PREFIX, KUBECTL_PREFIX_TIMESTAMPS -> {
        int p = PlainHeader.startsWith(b, from, to, POD) ? podEnd(b, from, to) : -1;
        if (p >= 0) {
          key = new String(b, from + 1, p - from - 3, java.nio.charset.StandardCharsets.UTF_8);
          start = kind == Kind.KUBECTL_PREFIX_TIMESTAMPS ? stamp(b, p, to) : p;
        }
      }
      case AIRFLOW -> {
        int inner = airflowInner(b, from, to);
        if (inner >= 0) {
          lastChannel = sourceHash(b, from, inner);
          start = PlainHeader.startsWith(b, inner, to, BASE) ? inner + BASE.length : inner;
        }
        // a line without the prefix continues the Airflow record before it
        channel = lastChannel;
      }
      default -> {
      }
    }
  }

  private static int stamp(byte[] b, int from, int to) {
    int after = rfc3339(b, from, to);
    return after >= 0 ? Math.min(after + 1, to) : from;
  }

  /** The position after {@code [pod/name/container] }, or -1. */
  private static int podEnd(byte[] b, int from, int to) {
    for (int i = from; i + 1 < to; i++) {
      if (b[i] == ']' && b[i + 1] == ' ') {
        return i + 2;
      }
    }
    return -1;
  }

  /** The position after an RFC 3339 time with a {@code T} and a zone ({@code ...Z} or an offset) at {@code p}, or -1. */
  static int rfc3339(byte[] b, int p, int to) {
    if (to - p < 20 || b[p + 4] != '-' || b[p + 7] != '-' || b[p + 10] != 'T' || b[p + 13] != ':' || b[p + 16] != ':'
        || !Character.isDigit(b[p]) || !Character.isDigit(b[p + 3])) {
      return -1;
    }
    int q = p + 19;
    if (q < to && (b[q] == '.' || b[q] == ',')) {
      q++;
      while (q < to && Character.isDigit(b[q])) {
        q++;
      }
    }
    if (q < to && b[q] == 'Z') {
      q++;
    } else if (q + 5 < to && (b[q] == '+' || b[q] == '-')) {
      q += b[q + 3] == ':' ? 6 : 5;
    } else {
      return -1;
    }
    return q < to && b[q] == ' ' ? q : (q == to ? q : -1);
  }

  /**
   * Where the Spark line starts in an Airflow line {@code [time] {source} LEVEL - line} (the
   * {@code {source}} optional), or -1 when the line is not one.
   */
  static int airflowInner(byte[] b, int from, int to) {
    if (to - from < 12 || b[from] != '[' || !Character.isDigit(b[from + 1])) {
      return -1;
    }
    int close = -1;
    for (int i = from + 1; i < Math.min(to, from + 48); i++) {
      if (b[i] == ']') {
        close = i;
        break;
      }
    }
    if (close < 0 || close + 1 >= to || b[close + 1] != ' ') {
      return -1;
    }
    int p = close + 2;
    if (p < to && b[p] == '{') {
      int end = -1;
      for (int i = p; i < Math.min(to, p + 200); i++) {
        if (b[i] == '}') {
          end = i;
          break;
        }
      }
      if (end < 0 || end + 1 >= to || b[end + 1] != ' ') {
        return -1;
      }
      p = end + 2;
    }
    String level = Levels.at(b, p, to);
    if (level == null) {
      return -1;
    }
    while (p < to && b[p] >= 'A' && b[p] <= 'Z') {
      p++;
    }
    if (p + 2 > to || b[p] != ' ' || b[p + 1] != '-') {
      return -1;
    }
    return Math.min(p + 3, to);
  }

  /** A hash of the {@code {source}} file (line number left out), 1 when there is none. */
  private static int sourceHash(byte[] b, int from, int inner) {
    int open = -1;
    for (int i = from; i < inner; i++) {
      if (b[i] == '{') {
        open = i;
        break;
      }
    }
    if (open < 0) {
      return 1;
    }
    int h = 17;
    for (int i = open + 1; i < inner && b[i] != ':' && b[i] != '}'; i++) {
      h = 31 * h + b[i];
    }
    return h == 0 ? 2 : h;
  }
}

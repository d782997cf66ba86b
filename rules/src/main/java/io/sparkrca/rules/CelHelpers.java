package io.sparkrca.rules;

import com.google.protobuf.Timestamp;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.format.Formats;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The helper functions rules may call besides CEL's standard library: {@code ratio(a, b)} (0.0
 * when {@code b} is 0), {@code mb(n)} and {@code gb(n)} (MiB and GiB rounded to 2 decimals, half
 * to even), {@code seconds_between(start, end)} (0.0 when either is unset), and for details
 * {@code human_bytes(n)}, {@code human_millis(ms)}, {@code round(x, digits)} and
 * {@code truncate(text, n)} (first line, at most n characters). {@code sum(list)} adds a list of
 * ints or doubles, so that an application rule can total a stage metric:
 * {@code sum(stages.map(x, x.stage_metrics.executor_run_time_millis))}.
 */
final class CelHelpers {
  private CelHelpers() {}

  private static final CelType INT = SimpleType.INT;
  private static final CelType UINT = SimpleType.UINT;
  private static final CelType DOUBLE = SimpleType.DOUBLE;
  private static final CelType[] NUMERIC = {INT, UINT, DOUBLE};

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    List<CelOverloadDecl> ratio = new ArrayList<>();
    for (CelType a : NUMERIC) {
      for (CelType b : NUMERIC) {
        ratio.add(CelOverloadDecl.newGlobalOverload("ratio_" + a.name() + "_" + b.name(), DOUBLE, a, b));
      }
    }
    out.add(CelFunctionDecl.newFunctionDeclaration("ratio", ratio));
    out.add(unary("mb", DOUBLE));
    out.add(unary("gb", DOUBLE));
    out.add(unary("human_bytes", SimpleType.STRING));
    out.add(unary("human_millis", SimpleType.STRING));
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "seconds_between",
            CelOverloadDecl.newGlobalOverload(
                "seconds_between_timestamp_timestamp", DOUBLE, SimpleType.TIMESTAMP, SimpleType.TIMESTAMP)));
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "round", CelOverloadDecl.newGlobalOverload("round_double_int", DOUBLE, DOUBLE, INT)));
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "sum",
            CelOverloadDecl.newGlobalOverload("sum_list_int", INT, ListType.create(INT)),
            CelOverloadDecl.newGlobalOverload("sum_list_double", DOUBLE, ListType.create(DOUBLE))));
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "truncate",
            CelOverloadDecl.newGlobalOverload(
                "truncate_string_int", SimpleType.STRING, SimpleType.STRING, INT)));
    return out;
  }

  private static CelFunctionDecl unary(String name, CelType result) {
    List<CelOverloadDecl> o = new ArrayList<>();
    for (CelType a : NUMERIC) {
      o.add(CelOverloadDecl.newGlobalOverload(name + "_" + a.name(), result, a));
    }
    return CelFunctionDecl.newFunctionDeclaration(name, o);
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    for (CelType a : NUMERIC) {
      for (CelType b : NUMERIC) {
        out.add(
            CelFunctionBinding.from(
                "ratio_" + a.name() + "_" + b.name(),
                List.of(javaClass(a), javaClass(b)),
                args -> ratio(num(args[0]), num(args[1]))));
      }
      Class<?> c = javaClass(a);
      out.add(CelFunctionBinding.from("mb_" + a.name(), List.of(c), args -> mb(num(args[0]))));
      out.add(CelFunctionBinding.from("gb_" + a.name(), List.of(c), args -> gb(num(args[0]))));
      out.add(
          CelFunctionBinding.from(
              "human_bytes_" + a.name(), List.of(c), args -> humanBytes(num(args[0]))));
      out.add(
          CelFunctionBinding.from(
              "human_millis_" + a.name(), List.of(c), args -> humanMillis(num(args[0]))));
    }
    out.add(
        CelFunctionBinding.from(
            "seconds_between_timestamp_timestamp",
            List.of(Object.class, Object.class),
            args -> secondsBetween(instant(args[0]), instant(args[1]))));
    out.add(
        CelFunctionBinding.from(
            "round_double_int", Double.class, Long.class, (x, d) -> round(x, d.intValue())));
    out.add(
        CelFunctionBinding.from(
            "truncate_string_int", String.class, Long.class, (t, n) -> truncate(t, n)));
    out.add(CelFunctionBinding.from("sum_list_int", List.class, CelHelpers::sumLongs));
    out.add(CelFunctionBinding.from("sum_list_double", List.class, CelHelpers::sumDoubles));
    return out;
  }

  private static Class<?> javaClass(CelType t) {
    if (t == DOUBLE) {
      return Double.class;
    }
    if (t == UINT) {
      return com.google.common.primitives.UnsignedLong.class;
    }
    return Long.class;
  }

  private static double num(Object o) {
    if (o instanceof com.google.common.primitives.UnsignedLong u) {
      return u.doubleValue();
    }
    return ((Number) o).doubleValue();
  }

  private static Instant instant(Object o) {
    if (o instanceof Instant i) {
      return i;
    }
    if (o instanceof Timestamp t) {
      return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
    }
    throw new InvalidRequestException(
        "seconds_between: not a timestamp: " + o + "; pass timestamp fields such as "
            + "s.submission_time and s.completion_time");
  }

  static double ratio(double a, double b) {
    return b == 0 ? 0.0 : a / b;
  }

  static double mb(double n) {
    return round(n / 1048576.0, 2);
  }

  static double gb(double n) {
    return round(n / 1073741824.0, 2);
  }

  /** The sum of a list of ints; an overflow is an evaluation error rather than a wrong total. */
  static long sumLongs(List<?> values) {
    long total = 0;
    for (Object v : values) {
      total = Math.addExact(total, ((Number) v).longValue());
    }
    return total;
  }

  static double sumDoubles(List<?> values) {
    double total = 0;
    for (Object v : values) {
      total += ((Number) v).doubleValue();
    }
    return total;
  }

  /** Rounds the exact binary value half to even, as Python's {@code round(x, n)} does. */
  static double round(double x, int digits) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    return new BigDecimal(x).setScale(Math.max(0, Math.min(digits, 15)), RoundingMode.HALF_EVEN).doubleValue();
  }

  /** Seconds from {@code start} to {@code end}; 0.0 when either is unset (at or before the epoch). */
  static double secondsBetween(Instant start, Instant end) {
    if (!start.isAfter(Instant.EPOCH) || !end.isAfter(Instant.EPOCH)) {
      return 0.0;
    }
    return java.time.Duration.between(start, end).toNanos() / 1e9;
  }

  /** {@code 0 B}, {@code 1.5 KiB}, {@code 3.0 GiB}; {@code n/a} when negative (Spark's "unknown"). */
  static String humanBytes(double n) {
    return Double.isNaN(n) ? "n/a" : Formats.humanBytes(n);
  }

  /** {@code 250 ms}, {@code 2.5 s}, {@code 1.5 min}; {@code n/a} when negative. */
  static String humanMillis(double ms) {
    return Double.isNaN(ms) ? "n/a" : Formats.humanMillis(ms);
  }

  /** The first line of {@code text}, cut to {@code max} characters with "..." when longer. */
  static String truncate(String text, long max) {
    String line = text.strip();
    int nl = line.indexOf('\n');
    boolean cut = false;
    if (nl >= 0) {
      line = line.substring(0, nl).stripTrailing();
      cut = true;
    }
    int n = (int) Math.max(0, Math.min(max, Integer.MAX_VALUE));
    if (line.length() > n) {
      line = line.substring(0, n);
      cut = true;
    }
    return cut ? line + " ..." : line;
  }

  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%s%%", Formats.fixed(fraction * 100, 0));
  }
}

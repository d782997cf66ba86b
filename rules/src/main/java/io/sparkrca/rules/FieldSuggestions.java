package io.sparkrca.rules;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Explains an unknown field: on which message it was looked up (when the path says) and which
 * real fields are closest, so that {@code s.stage_metrics.jvm_gc_ms} reports
 * {@code jvm_gc_time_millis}.
 */
final class FieldSuggestions {
  private FieldSuggestions() {}

  /** A step of a field path: a field selection, or an index into a list or map. */
  private record Step(String field) {
    boolean isIndex() {
      return field == null;
    }
  }

  /** Where a path may stand: a message, or a list/map whose elements are that message. */
  private record Place(Descriptor message, boolean container) {}

  /**
   * The text to append to CEL's {@code undefined field 'f'} for the select expression {@code
   * select} of a parsed rule.
   */
  static String explain(CelExpr select, String field) {
    List<Step> path = new ArrayList<>();
    CelExpr cur = select.select().operand();
    String root = null;
    while (true) {
      if (cur.getKind() == CelExpr.ExprKind.Kind.SELECT) {
        path.add(0, new Step(cur.select().field()));
        cur = cur.select().operand();
      } else if (cur.getKind() == CelExpr.ExprKind.Kind.CALL
          && cur.call().function().equals("_[_]")
          && cur.call().args().size() == 2) {
        path.add(0, new Step(null));
        cur = cur.call().args().get(0);
      } else {
        if (cur.getKind() == CelExpr.ExprKind.Kind.IDENT) {
          root = cur.ident().name();
        }
        break;
      }
    }
    List<Place> starts = new ArrayList<>();
    if ("stages".equals(root)) {
      starts.add(new Place(DataprocSchema.message("StageData"), true));
    } else if ("s".equals(root)) {
      starts.add(new Place(DataprocSchema.message("StageData"), false));
    } else if ("total_executor_summary".equals(root)) {
      starts.add(new Place(DataprocSchema.message("ConsolidatedExecutorSummary"), false));
    } else {
      for (Descriptor d : DataprocSchema.messages()) {
        starts.add(new Place(d, false));
      }
    }
    Set<Descriptor> ends = new LinkedHashSet<>();
    for (Place p : starts) {
      walk(p, path).ifPresent(ends::add);
    }
    String where = "";
    List<String> candidates = new ArrayList<>();
    if (ends.size() == 1) {
      Descriptor d = ends.iterator().next();
      where = " on " + d.getName();
      d.getFields().forEach(f -> candidates.add(f.getName()));
    } else {
      Set<Descriptor> pool = ends.isEmpty() ? new LinkedHashSet<>(DataprocSchema.messages()) : ends;
      for (Descriptor d : pool) {
        d.getFields().forEach(f -> candidates.add(f.getName()));
      }
    }
    List<String> close = closest(field, candidates, 3);
    StringBuilder sb = new StringBuilder(where);
    if (!close.isEmpty()) {
      sb.append(" (did you mean ").append(String.join(", ", close)).append("?)");
    } else {
      sb.append(" (no field of a similar name; fields are the Dataproc v1 proto's snake_case names)");
    }
    return sb.toString();
  }

  private static Optional<Descriptor> walk(Place start, List<Step> path) {
    Place p = start;
    for (Step s : path) {
      if (s.isIndex()) {
        if (!p.container()) {
          return Optional.empty();
        }
        p = new Place(p.message(), false);
        continue;
      }
      if (p.container()) {
        return Optional.empty();
      }
      FieldDescriptor f = p.message().findFieldByName(s.field());
      if (f == null || f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        return Optional.empty();
      }
      if (f.isMapField()) {
        FieldDescriptor value = f.getMessageType().findFieldByName("value");
        if (value.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
          return Optional.empty();
        }
        p = new Place(value.getMessageType(), true);
      } else {
        p = new Place(f.getMessageType(), f.isRepeated());
      }
    }
    return p.container() ? Optional.empty() : Optional.of(p.message());
  }

  /** The up to {@code max} names most like {@code name}: its snake_case form first, then by similarity. */
  static List<String> closest(String name, List<String> candidates, int max) {
    String snake = snake(name);
    List<String> out = new ArrayList<>();
    if (!snake.equals(name) && candidates.contains(snake)) {
      out.add(snake);
    }
    candidates.stream()
        .distinct()
        .filter(c -> !out.contains(c))
        .filter(c -> similarity(snake, c) >= 0.6 || isSubsequence(snake, c))
        .sorted(Comparator.comparingDouble((String c) -> -similarity(snake, c)).thenComparing(c -> c))
        .limit(Math.max(0, max - out.size()))
        .forEach(out::add);
    return out;
  }

  /** Whether {@code abbreviation}'s characters appear in order in {@code name} (p50, percentile_50). */
  static boolean isSubsequence(String abbreviation, String name) {
    int j = 0;
    for (int i = 0; i < name.length() && j < abbreviation.length(); i++) {
      if (name.charAt(i) == abbreviation.charAt(j)) {
        j++;
      }
    }
    return j == abbreviation.length() && abbreviation.length() >= 2;
  }

  /** {@code 2·LCS / (|a| + |b|)}: close to difflib's ratio for identifiers. */
  static double similarity(String a, String b) {
    if (a.isEmpty() && b.isEmpty()) {
      return 1;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        d[i][j] =
            a.charAt(i - 1) == b.charAt(j - 1)
                ? d[i - 1][j - 1] + 1
                : Math.max(d[i - 1][j], d[i][j - 1]);
      }
    }
    return 2.0 * d[a.length()][b.length()] / (a.length() + b.length());
  }

  static String snake(String camel) {
    return camel.replaceAll("(?<=[a-z0-9])(?=[A-Z])", "_").toLowerCase(Locale.ROOT);
  }
}

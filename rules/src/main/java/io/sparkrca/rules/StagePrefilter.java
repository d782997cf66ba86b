package io.sparkrca.rules;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A fast, exact "definitely false" test for per-stage rules. It reads the top of the checked rule,
 * a tree of {@code &&}, {@code ||} and {@code !} over simple tests of the stage ({@code
 * s.a.b OP constant}, {@code has(s.a.b)}), in three-valued logic, reading fields straight from
 * the message. When that tree is false for a stage, CEL would return false too (CEL's {@code &&}
 * is false when any operand is false, whatever errors the others raise), so the engine skips CEL
 * for that stage. Anything else is "unknown" and CEL decides. Rules written with a magnitude floor
 * first ({@code s.stage_metrics.executor_run_time_millis >= 2000 && ...}) reject most stages here.
 */
final class StagePrefilter {
  private enum Tri {
    FALSE,
    TRUE,
    UNKNOWN
  }

  /** One node of the tree. */
  private interface Node {
    Tri test(Message s, Message executors);
  }

  private static final Node UNKNOWN = (s, x) -> Tri.UNKNOWN;

  private final Node root;

  private StagePrefilter(Node root) {
    this.root = root;
  }

  /** The prefilter of a checked per-stage rule; never rejects when nothing at the top is simple. */
  static StagePrefilter of(CelAbstractSyntaxTree ast) {
    return new StagePrefilter(build(ast, ast.getExpr()));
  }

  /** Whether CEL would certainly return false for this stage. */
  boolean rejects(Message stage, Message executors) {
    return root.test(stage, executors) == Tri.FALSE;
  }

  /** Whether any part of the rule can be decided here. */
  boolean isUseful() {
    return root != UNKNOWN;
  }

  private static Node build(CelAbstractSyntaxTree ast, CelExpr e) {
    if (e.getKind() == CelExpr.ExprKind.Kind.SELECT && e.select().testOnly()) {
      Path path = path(e.select().operand());
      if (path == null) {
        return UNKNOWN;
      }
      FieldDescriptor last = field(path.owner(), e.select().field());
      if (last == null || last.isRepeated() || last.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        return UNKNOWN;
      }
      return (s, x) -> {
        Message m = path.walk(s, x);
        return m != null && m.hasField(last) ? Tri.TRUE : Tri.FALSE;
      };
    }
    if (e.getKind() != CelExpr.ExprKind.Kind.CALL || e.call().target().isPresent()) {
      return UNKNOWN;
    }
    String f = e.call().function();
    List<CelExpr> args = e.call().args();
    switch (f) {
      case "_&&_", "_||_" -> {
        List<Node> parts = new ArrayList<>();
        for (CelExpr a : args) {
          parts.add(build(ast, a));
        }
        if (parts.stream().allMatch(p -> p == UNKNOWN) && f.equals("_&&_")) {
          return UNKNOWN;
        }
        boolean and = f.equals("_&&_");
        return (s, x) -> {
          boolean unknown = false;
          for (Node p : parts) {
            Tri t = p.test(s, x);
            if (and ? t == Tri.FALSE : t == Tri.TRUE) {
              return t;
            }
            unknown |= t == Tri.UNKNOWN;
          }
          return unknown ? Tri.UNKNOWN : (and ? Tri.TRUE : Tri.FALSE);
        };
      }
      case "!_" -> {
        Node inner = build(ast, args.get(0));
        if (inner == UNKNOWN) {
          return UNKNOWN;
        }
        return (s, x) -> switch (inner.test(s, x)) {
          case TRUE -> Tri.FALSE;
          case FALSE -> Tri.TRUE;
          default -> Tri.UNKNOWN;
        };
      }
      case "_<_", "_<=_", "_>_", "_>=_", "_==_", "_!=_" -> {
        return comparison(ast, f, args.get(0), args.get(1));
      }
      default -> {
        return UNKNOWN;
      }
    }
  }

  private static Node comparison(CelAbstractSyntaxTree ast, String op, CelExpr left, CelExpr right) {
    Value l = value(ast, left);
    Value r = value(ast, right);
    if (l == null || r == null) {
      return UNKNOWN;
    }
    return (s, ex) -> {
      Object a = l.of(s, ex);
      Object b = r.of(s, ex);
      if (a == null || b == null) {
        return Tri.UNKNOWN;
      }
      int c;
      if (a instanceof Number x && b instanceof Number y) {
        if ((x instanceof Long || x instanceof Integer) && (y instanceof Long || y instanceof Integer)) {
          c = Long.compare(x.longValue(), y.longValue());
        } else {
          double dx = x.doubleValue();
          double dy = y.doubleValue();
          if (Double.isNaN(dx) || Double.isNaN(dy)) {
            return op.equals("_!=_") ? Tri.TRUE : Tri.FALSE;
          }
          c = Double.compare(dx, dy);
          if (dx == dy) {
            c = 0; // -0.0 == 0.0 in CEL
          }
        }
      } else if (a instanceof String x && b instanceof String y) {
        if (!op.equals("_==_") && !op.equals("_!=_")) {
          return Tri.UNKNOWN; // CEL orders strings by code point, Java by UTF-16 unit
        }
        c = x.equals(y) ? 0 : 1;
      } else if (a instanceof Boolean x && b instanceof Boolean y) {
        c = Boolean.compare(x, y);
      } else {
        return Tri.UNKNOWN;
      }
      boolean result =
          switch (op) {
            case "_<_" -> c < 0;
            case "_<=_" -> c <= 0;
            case "_>_" -> c > 0;
            case "_>=_" -> c >= 0;
            case "_==_" -> c == 0;
            default -> c != 0;
          };
      return result ? Tri.TRUE : Tri.FALSE;
    };
  }

  /** A value computed from the stage and the executor totals; null when CEL would fail or it is not simple. */
  private interface Value {
    Object of(Message s, Message executors);
  }

  private static Value value(CelAbstractSyntaxTree ast, CelExpr e) {
    switch (e.getKind()) {
      case CONSTANT -> {
        Object c = constant(e.constant());
        return c == null ? null : (s, x) -> c;
      }
      case IDENT -> {
        Optional<CelConstant> v = ast.getReference(e.id()).flatMap(r -> r.value());
        Object c = v.map(StagePrefilter::constant).orElse(null);
        return c == null ? null : (s, x) -> c;
      }
      case SELECT -> {
        if (e.select().testOnly()) {
          return null;
        }
        Path p = path(e.select().operand());
        if (p == null) {
          return null;
        }
        FieldDescriptor f = field(p.owner(), e.select().field());
        if (f == null || f.isMapField() || (!f.isRepeated() && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE)) {
          return null;
        }
        if (f.isRepeated()) {
          return null; // only through size() or a constant index below
        }
        return (s, x) -> {
          Object v = p.walk(s, x).getField(f);
          return v instanceof EnumValueDescriptor en ? (Object) (long) en.getNumber() : v;
        };
      }
      case CALL -> {
        return call(ast, e);
      }
      default -> {
        return null;
      }
    }
  }

  private static Value call(CelAbstractSyntaxTree ast, CelExpr e) {
    String f = e.call().function();
    List<CelExpr> args = e.call().args();
    if (e.call().target().isPresent()) {
      return null;
    }
    if ((f.equals("size") || f.equals("_[_]")) && !args.isEmpty() && args.get(0).getKind() == CelExpr.ExprKind.Kind.SELECT) {
      CelExpr sel = args.get(0);
      Path p = sel.select().testOnly() ? null : path(sel.select().operand());
      FieldDescriptor rf = p == null ? null : field(p.owner(), sel.select().field());
      if (rf == null || !rf.isRepeated() || rf.isMapField() || rf.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        return null;
      }
      if (f.equals("size") && args.size() == 1) {
        return (s, x) -> (long) p.walk(s, x).getRepeatedFieldCount(rf);
      }
      if (f.equals("_[_]") && args.size() == 2 && args.get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT
          && args.get(1).constant().getKind() == CelConstant.Kind.INT64_VALUE) {
        long i = args.get(1).constant().int64Value();
        return (s, x) -> {
          Message m = p.walk(s, x);
          return i >= 0 && i < m.getRepeatedFieldCount(rf) ? m.getRepeatedField(rf, (int) i) : null;
        };
      }
      return null;
    }
    List<Value> vs = new ArrayList<>();
    for (CelExpr a : args) {
      Value v = value(ast, a);
      if (v == null) {
        return null;
      }
      vs.add(v);
    }
    switch (f) {
      case "double" -> {
        return vs.size() != 1 ? null : (s, x) -> {
          Object v = vs.get(0).of(s, x);
          return v instanceof Long || v instanceof Integer || v instanceof Double ? (Object) ((Number) v).doubleValue() : null;
        };
      }
      case "ratio" -> {
        return vs.size() != 2 ? null : (s, x) -> {
          Object a = vs.get(0).of(s, x);
          Object b = vs.get(1).of(s, x);
          return a instanceof Number na && b instanceof Number nb
              ? (Object) CelHelpers.ratio(na.doubleValue(), nb.doubleValue())
              : null;
        };
      }
      case "_+_", "_-_", "_*_", "_/_" -> {
        if (vs.size() != 2) {
          return null;
        }
        return (s, x) -> arithmetic(f, vs.get(0).of(s, x), vs.get(1).of(s, x));
      }
      default -> {
        return null;
      }
    }
  }

  /** CEL arithmetic on two ints or two doubles; null when CEL would fail (overflow, division by zero). */
  private static Object arithmetic(String op, Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      return switch (op) {
        case "_+_" -> x + y;
        case "_-_" -> x - y;
        case "_*_" -> x * y;
        default -> x / y;
      };
    }
    if ((a instanceof Long || a instanceof Integer) && (b instanceof Long || b instanceof Integer)) {
      long x = ((Number) a).longValue();
      long y = ((Number) b).longValue();
      try {
        return switch (op) {
          case "_+_" -> Math.addExact(x, y);
          case "_-_" -> Math.subtractExact(x, y);
          case "_*_" -> Math.multiplyExact(x, y);
          default -> y == 0 || (x == Long.MIN_VALUE && y == -1) ? null : (Object) (x / y);
        };
      } catch (ArithmeticException e) {
        return null;
      }
    }
    return null;
  }

  private static Object constant(CelConstant c) {
    return switch (c.getKind()) {
      case INT64_VALUE -> c.int64Value();
      case DOUBLE_VALUE -> c.doubleValue();
      case STRING_VALUE -> c.stringValue();
      case BOOLEAN_VALUE -> c.booleanValue();
      default -> null;
    };
  }

  /** Singular message fields from {@code s} or {@code total_executor_summary} to an operand. */
  private record Path(boolean executors, List<FieldDescriptor> fields) {
    Descriptor owner() {
      if (fields.isEmpty()) {
        return DataprocSchema.message(executors ? "ConsolidatedExecutorSummary" : "StageData");
      }
      return fields.get(fields.size() - 1).getMessageType();
    }

    Message walk(Message s, Message x) {
      Message m = executors ? x : s;
      for (FieldDescriptor f : fields) {
        m = (Message) m.getField(f);
      }
      return m;
    }
  }

  private static Path path(CelExpr e) {
    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
      String n = e.ident().name();
      if (n.equals("s") || n.equals("total_executor_summary")) {
        return new Path(n.equals("total_executor_summary"), new ArrayList<>());
      }
      return null;
    }
    if (e.getKind() != CelExpr.ExprKind.Kind.SELECT || e.select().testOnly()) {
      return null;
    }
    Path p = path(e.select().operand());
    if (p == null) {
      return null;
    }
    FieldDescriptor f = field(p.owner(), e.select().field());
    if (f == null
        || f.isRepeated()
        || f.getJavaType() != FieldDescriptor.JavaType.MESSAGE
        || f.getMessageType().getFullName().startsWith("google.protobuf.")) {
      return null;
    }
    p.fields().add(f);
    return p;
  }

  private static FieldDescriptor field(Descriptor d, String name) {
    return d.findFieldByName(name);
  }
}

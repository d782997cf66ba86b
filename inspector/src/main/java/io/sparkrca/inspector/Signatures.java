package io.sparkrca.inspector;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns JVM descriptors and generic signatures into Java-like text. Never throws on malformed
 * input: descriptors degrade to {@code ?}, signatures to empty (the caller falls back to the
 * descriptor). Nesting is capped so a hostile signature cannot exhaust the stack.
 */
final class Signatures {
  private static final int MAX_DEPTH = 64;

  private Signatures() {}

  /** {@code java/lang/String} to {@code java.lang.String}. */
  static String dotted(String internalName) {
    return internalName == null ? "?" : internalName.replace('/', '.');
  }

  /** A field descriptor as a Java type: {@code [Ljava/lang/String;} to {@code java.lang.String[]}. */
  static String type(String desc) {
    int[] pos = {0};
    String t = parseType(desc, pos);
    return pos[0] == desc.length() ? t : t.equals("?") ? "?" : t;
  }

  /** The parameter types of a method descriptor; a malformed one gives what could be read. */
  static List<String> params(String desc) {
    List<String> out = new ArrayList<>();
    if (desc == null || !desc.startsWith("(")) {
      return out;
    }
    int[] pos = {1};
    while (pos[0] < desc.length() && desc.charAt(pos[0]) != ')') {
      int before = pos[0];
      out.add(parseType(desc, pos));
      if (pos[0] == before) {
        break;
      }
    }
    return out;
  }

  /** The return type of a method descriptor, {@code ?} when malformed. */
  static String returnType(String desc) {
    if (desc == null) {
      return "?";
    }
    int close = desc.indexOf(')');
    if (close < 0) {
      return desc.startsWith("(") ? "?" : type(desc);
    }
    return type(desc.substring(close + 1));
  }

  /** {@code java.io.PrintStream.println(java.lang.String)}. */
  static String methodRef(String owner, String name, String desc) {
    return dotted(owner) + "." + name + "(" + String.join(", ", params(desc)) + ")";
  }

  private static String parseType(String d, int[] pos) {
    if (d == null || pos[0] >= d.length()) {
      return "?";
    }
    int dims = 0;
    while (pos[0] < d.length() && d.charAt(pos[0]) == '[') {
      dims++;
      pos[0]++;
    }
    if (pos[0] >= d.length()) {
      return "?" + "[]".repeat(dims);
    }
    char c = d.charAt(pos[0]++);
    String base = switch (c) {
      case 'B' -> "byte";
      case 'C' -> "char";
      case 'D' -> "double";
      case 'F' -> "float";
      case 'I' -> "int";
      case 'J' -> "long";
      case 'S' -> "short";
      case 'Z' -> "boolean";
      case 'V' -> "void";
      case 'L' -> {
        int semi = d.indexOf(';', pos[0]);
        if (semi < 0) {
          pos[0] = d.length();
          yield "?";
        }
        String n = dotted(d.substring(pos[0], semi));
        pos[0] = semi + 1;
        yield n;
      }
      default -> "?";
    };
    return base + "[]".repeat(dims);
  }

  /** A parsed class signature. */
  record ClassSig(String typeParameters, String superclass, List<String> interfaces) {}

  /** A parsed method signature. */
  record MethodSig(String typeParameters, List<String> params, String returnType,
      List<String> exceptions) {}

  static Optional<ClassSig> classSignature(String sig) {
    if (sig == null) {
      return Optional.empty();
    }
    try {
      Parser p = new Parser(sig);
      String tp = p.peek() == '<' ? p.typeParameters() : "";
      String sup = p.referenceType(0);
      List<String> itf = new ArrayList<>();
      while (!p.atEnd()) {
        itf.add(p.referenceType(0));
      }
      return Optional.of(new ClassSig(tp, sup, itf));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  static Optional<MethodSig> methodSignature(String sig) {
    if (sig == null) {
      return Optional.empty();
    }
    try {
      Parser p = new Parser(sig);
      String tp = p.peek() == '<' ? p.typeParameters() : "";
      p.expect('(');
      List<String> params = new ArrayList<>();
      while (p.peek() != ')') {
        params.add(p.javaType(0));
      }
      p.expect(')');
      String ret = p.peek() == 'V' ? p.skipVoid() : p.javaType(0);
      List<String> ex = new ArrayList<>();
      while (!p.atEnd()) {
        p.expect('^');
        ex.add(p.referenceType(0));
      }
      return Optional.of(new MethodSig(tp, params, ret, ex));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  static Optional<String> fieldSignature(String sig) {
    if (sig == null) {
      return Optional.empty();
    }
    try {
      Parser p = new Parser(sig);
      String t = p.referenceType(0);
      return p.atEnd() ? Optional.of(t) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A malformed signature attribute: the parser gives up and the signature is left out. */
  private static final class BadSignature extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadSignature(String why) {
      super(why, null, false, false);
    }
  }

  /** Recursive-descent parser for JVMS 4.7.9.1 signatures. */
  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    boolean atEnd() {
      return i >= s.length();
    }

    char peek() {
      if (i >= s.length()) {
        throw new BadSignature("signature ends early");
      }
      return s.charAt(i);
    }

    void expect(char c) {
      if (peek() != c) {
        throw new BadSignature("expected " + c);
      }
      i++;
    }

    String skipVoid() {
      expect('V');
      return "void";
    }

    String identifier() {
      int start = i;
      while (i < s.length() && ".;[/<>:".indexOf(s.charAt(i)) < 0) {
        i++;
      }
      if (i == start) {
        throw new BadSignature("empty identifier");
      }
      return s.substring(start, i);
    }

    String typeParameters() {
      expect('<');
      List<String> out = new ArrayList<>();
      while (peek() != '>') {
        String name = identifier();
        List<String> bounds = new ArrayList<>();
        expect(':');
        if (peek() != ':' && peek() != '>' && "LT[".indexOf(peek()) >= 0) {
          bounds.add(referenceType(1));
        }
        while (peek() == ':') {
          i++;
          bounds.add(referenceType(1));
        }
        bounds.remove("java.lang.Object");
        out.add(bounds.isEmpty() ? name : name + " extends " + String.join(" & ", bounds));
      }
      expect('>');
      return "<" + String.join(", ", out) + ">";
    }

    String javaType(int depth) {
      char c = peek();
      if ("BCDFIJSZ".indexOf(c) >= 0) {
        i++;
        return switch (c) {
          case 'B' -> "byte";
          case 'C' -> "char";
          case 'D' -> "double";
          case 'F' -> "float";
          case 'I' -> "int";
          case 'J' -> "long";
          case 'S' -> "short";
          default -> "boolean";
        };
      }
      return referenceType(depth);
    }

    String referenceType(int depth) {
      if (depth > MAX_DEPTH) {
        throw new BadSignature("signature nested too deeply");
      }
      char c = peek();
      switch (c) {
        case 'L' -> {
          i++;
          StringBuilder b = new StringBuilder();
          b.append(identifier().replace('/', '.'));
          while (true) {
            // Package segments are separated by '/', consumed by identifier() only up to '/'.
            if (peek() == '/') {
              i++;
              b.append('.').append(identifier());
              continue;
            }
            if (peek() == '<') {
              b.append(typeArguments(depth + 1));
            }
            if (peek() == '.') {
              i++;
              b.append('.').append(identifier());
              continue;
            }
            expect(';');
            return b.toString();
          }
        }
        case 'T' -> {
          i++;
          String n = identifier();
          expect(';');
          return n;
        }
        case '[' -> {
          i++;
          return javaType(depth + 1) + "[]";
        }
        default -> throw new BadSignature("unexpected " + c);
      }
    }

    String typeArguments(int depth) {
      expect('<');
      List<String> out = new ArrayList<>();
      while (peek() != '>') {
        char c = peek();
        if (c == '*') {
          i++;
          out.add("?");
        } else if (c == '+') {
          i++;
          out.add("? extends " + referenceType(depth + 1));
        } else if (c == '-') {
          i++;
          out.add("? super " + referenceType(depth + 1));
        } else {
          out.add(referenceType(depth + 1));
        }
      }
      expect('>');
      return "<" + String.join(", ", out) + ">";
    }
  }
}

package io.sparkrca.inspector;

import io.sparkrca.core.redaction.Redactor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Renders a class as {@code javap -c -p} would, from ASM's tree: declarations with generics,
 * exact byte offsets and mnemonics (taken from the Code attribute itself), constants and
 * references spelled out in comments, and source lines in a left gutter.
 */
final class Disassembler {
  static final int MAX_LINES = 100_000;
  private static final int MAX_INSNS_PER_METHOD = 20_000;
  private static final int MAX_LITERAL = 300;

  private final ClassNode cn;
  private final Map<String, Bytecode.Code> codes;
  private final List<String> out = new ArrayList<>();
  private boolean full;
  boolean offsetsApproximate;

  Disassembler(ClassNode cn, Map<String, Bytecode.Code> codes) {
    this.cn = cn;
    this.codes = codes;
  }

  List<String> render() {
    add(classDeclaration(cn) + " {");
    for (FieldNode f : cn.fields) {
      add("  " + fieldDeclaration(f) + ";");
    }
    if (!cn.fields.isEmpty() && !cn.methods.isEmpty()) {
      add("");
    }
    boolean first = true;
    for (MethodNode m : cn.methods) {
      if (!first) {
        add("");
      }
      first = false;
      method(m);
      if (full) {
        break;
      }
    }
    add("}");
    return out;
  }

  private void add(String line) {
    if (out.size() >= MAX_LINES) {
      if (!full) {
        out.add("  [listing stopped at " + Texts.count(MAX_LINES) + " lines]");
        full = true;
      }
      return;
    }
    out.add(line);
  }

  // ---- declarations -------------------------------------------------------------------------

  static String classDeclaration(ClassNode cn) {
    StringBuilder b = new StringBuilder();
    int a = cn.access;
    boolean itf = (a & Opcodes.ACC_INTERFACE) != 0;
    if ((a & Opcodes.ACC_PUBLIC) != 0) {
      b.append("public ");
    }
    if ((a & Opcodes.ACC_FINAL) != 0) {
      b.append("final ");
    }
    if ((a & Opcodes.ACC_ABSTRACT) != 0 && !itf) {
      b.append("abstract ");
    }
    if ((a & Opcodes.ACC_ANNOTATION) != 0) {
      b.append("@interface ");
    } else if (itf) {
      b.append("interface ");
    } else {
      b.append("class ");
    }
    b.append(Signatures.dotted(cn.name));
    Optional<Signatures.ClassSig> sig = Signatures.classSignature(cn.signature);
    String sup;
    List<String> itfs = new ArrayList<>();
    if (sig.isPresent()) {
      b.append(sig.get().typeParameters());
      sup = sig.get().superclass();
      itfs.addAll(sig.get().interfaces());
    } else {
      sup = cn.superName == null ? null : Signatures.dotted(cn.superName);
      for (String i : cn.interfaces) {
        itfs.add(Signatures.dotted(i));
      }
    }
    if (itf) {
      if (!itfs.isEmpty()) {
        b.append(" extends ").append(String.join(", ", itfs));
      }
    } else {
      if (sup != null && !sup.equals("java.lang.Object")) {
        b.append(" extends ").append(sup);
      }
      if (!itfs.isEmpty()) {
        b.append(" implements ").append(String.join(", ", itfs));
      }
    }
    return Texts.safe(b.toString());
  }

  static String fieldDeclaration(FieldNode f) {
    StringBuilder b = new StringBuilder();
    int a = f.access;
    appendVisibility(b, a);
    if ((a & Opcodes.ACC_STATIC) != 0) {
      b.append("static ");
    }
    if ((a & Opcodes.ACC_FINAL) != 0) {
      b.append("final ");
    }
    if ((a & Opcodes.ACC_VOLATILE) != 0) {
      b.append("volatile ");
    }
    if ((a & Opcodes.ACC_TRANSIENT) != 0) {
      b.append("transient ");
    }
    b.append(Signatures.fieldSignature(f.signature).orElse(Signatures.type(f.desc)));
    b.append(' ').append(f.name);
    if (f.value != null) {
      // static final String DB_PASSWORD = "...": the field's name says what its value is.
      b.append(" = ").append(f.value instanceof String && Redactor.standard().isSecretKey(f.name)
          ? Texts.quote(Redactor.REDACTED, MAX_LITERAL) : constant(f.value));
    }
    if ((a & Opcodes.ACC_SYNTHETIC) != 0) {
      b.append(" /* synthetic */");
    }
    return Texts.safe(b.toString());
  }

  static String methodDeclaration(ClassNode cn, MethodNode m) {
    StringBuilder b = new StringBuilder();
    int a = m.access;
    boolean itf = (cn.access & Opcodes.ACC_INTERFACE) != 0;
    appendVisibility(b, a);
    if ((a & Opcodes.ACC_STATIC) != 0) {
      b.append("static ");
    }
    if ((a & Opcodes.ACC_FINAL) != 0) {
      b.append("final ");
    }
    if ((a & Opcodes.ACC_SYNCHRONIZED) != 0) {
      b.append("synchronized ");
    }
    if ((a & Opcodes.ACC_NATIVE) != 0) {
      b.append("native ");
    }
    if ((a & Opcodes.ACC_ABSTRACT) != 0) {
      b.append("abstract ");
    } else if (itf && (a & Opcodes.ACC_STATIC) == 0 && (a & Opcodes.ACC_PRIVATE) == 0
        && !m.name.startsWith("<")) {
      b.append("default ");
    }
    if (m.name.equals("<clinit>")) {
      return "static {}";
    }
    Optional<Signatures.MethodSig> sig = Signatures.methodSignature(m.signature);
    List<String> params;
    String ret;
    List<String> throwsList = new ArrayList<>();
    if (sig.isPresent() && sig.get().params().size() == Signatures.params(m.desc).size()) {
      if (!sig.get().typeParameters().isEmpty()) {
        b.append(sig.get().typeParameters()).append(' ');
      }
      params = new ArrayList<>(sig.get().params());
      ret = sig.get().returnType();
      throwsList.addAll(sig.get().exceptions());
    } else {
      params = new ArrayList<>(Signatures.params(m.desc));
      ret = Signatures.returnType(m.desc);
    }
    if (throwsList.isEmpty() && m.exceptions != null) {
      for (String e : m.exceptions) {
        throwsList.add(Signatures.dotted(e));
      }
    }
    if ((a & Opcodes.ACC_VARARGS) != 0 && !params.isEmpty()) {
      int last = params.size() - 1;
      String p = params.get(last);
      if (p.endsWith("[]")) {
        params.set(last, p.substring(0, p.length() - 2) + "...");
      }
    }
    if (m.name.equals("<init>")) {
      b.append(Signatures.dotted(cn.name));
    } else {
      b.append(ret).append(' ').append(m.name);
    }
    b.append('(').append(String.join(", ", params)).append(')');
    if (!throwsList.isEmpty()) {
      b.append(" throws ").append(String.join(", ", throwsList));
    }
    List<String> flags = new ArrayList<>();
    if ((a & Opcodes.ACC_BRIDGE) != 0) {
      flags.add("bridge");
    }
    if ((a & Opcodes.ACC_SYNTHETIC) != 0) {
      flags.add("synthetic");
    }
    if (!flags.isEmpty()) {
      b.append(" /* ").append(String.join(", ", flags)).append(" */");
    }
    return Texts.safe(b.toString());
  }

  private static void appendVisibility(StringBuilder b, int a) {
    if ((a & Opcodes.ACC_PUBLIC) != 0) {
      b.append("public ");
    } else if ((a & Opcodes.ACC_PRIVATE) != 0) {
      b.append("private ");
    } else if ((a & Opcodes.ACC_PROTECTED) != 0) {
      b.append("protected ");
    }
  }

  /** A property or option name (no spaces, not too long) that {@link Redactor} holds secret. */
  private static boolean looksLikeSecretKey(String s) {
    return s.length() <= 200 && !s.isEmpty() && s.chars().noneMatch(Character::isWhitespace)
        && Redactor.standard().isSecretKey(s);
  }

  static String constant(Object v) {
    if (v instanceof String s) {
      return Texts.quote(Texts.redact(s), MAX_LITERAL);
    }
    if (v instanceof Long l) {
      return l + "l";
    }
    if (v instanceof Float f) {
      return f + "f";
    }
    if (v instanceof Double d) {
      return d + "d";
    }
    if (v instanceof Type t) {
      return t.getSort() == Type.METHOD ? "MethodType " + t.getDescriptor()
          : "class " + t.getInternalName();
    }
    if (v instanceof Handle h) {
      return "MethodHandle " + h.getOwner() + "." + h.getName() + ":" + h.getDesc();
    }
    return String.valueOf(v);
  }

  // ---- code --------------------------------------------------------------------------------

  private void method(MethodNode m) {
    add("  " + methodDeclaration(cn, m) + ";");
    if (m.instructions.size() == 0) {
      return;
    }
    Bytecode.Code code = codes.get(m.name + m.desc);
    List<AbstractInsnNode> real = new ArrayList<>();
    for (AbstractInsnNode n : m.instructions) {
      if (n.getOpcode() >= 0) {
        real.add(n);
      }
    }
    boolean exact = code != null && code.offsets().length == real.size();
    if (!exact) {
      offsetsApproximate = true;
    }
    Map<AbstractInsnNode, Integer> offsetOf = new IdentityHashMap<>();
    Map<AbstractInsnNode, Integer> rawOp = new IdentityHashMap<>();
    for (int i = 0; i < real.size(); i++) {
      offsetOf.put(real.get(i), exact ? code.offsets()[i] : i);
      if (exact) {
        rawOp.put(real.get(i), code.opcodes()[i]);
      }
    }
    // A label's offset is that of the next real instruction.
    Map<LabelNode, Integer> labelOffset = new HashMap<>();
    int end = exact ? code.length() : real.size();
    List<LabelNode> pending = new ArrayList<>();
    for (AbstractInsnNode n : m.instructions) {
      if (n instanceof LabelNode l) {
        pending.add(l);
      } else if (n.getOpcode() >= 0) {
        for (LabelNode l : pending) {
          labelOffset.put(l, offsetOf.get(n));
        }
        pending.clear();
      }
    }
    for (LabelNode l : pending) {
      labelOffset.put(l, end);
    }
    Map<Integer, String> localNames = new HashMap<>();
    if (m.localVariables != null) {
      for (LocalVariableNode lv : m.localVariables) {
        localNames.merge(lv.index, lv.name, (x, y) -> x.equals(y) ? x : x + "|" + y);
      }
    }
    add("    Code: stack=" + m.maxStack + ", locals=" + m.maxLocals + ", "
        + (exact ? Texts.count(code.length()) + " bytes" : real.size() + " instructions")
        + (exact ? "" : " (offsets are instruction indexes)"));
    int shown = 0;
    int line = -1;
    int lastLine = -1;
    boolean afterSecretKey = false;
    for (AbstractInsnNode n : m.instructions) {
      if (n instanceof LineNumberNode ln) {
        line = ln.line;
        continue;
      }
      if (n.getOpcode() < 0) {
        continue;
      }
      if (shown >= MAX_INSNS_PER_METHOD) {
        add("      ... " + Texts.count(real.size() - shown) + " more instructions not shown");
        break;
      }
      shown++;
      String gutter = line != lastLine && line >= 0 ? "L" + line : "";
      lastLine = line;
      int off = offsetOf.get(n);
      int op = rawOp.getOrDefault(n, n.getOpcode());
      String mnemonic = Bytecode.mnemonic(op);
      String operand = operand(n, op, labelOffset, localNames);
      // conf.set("spark.hadoop.fs.s3a.secret.key", "...") compiles to two ldc in a row: the value
      // has nothing of a secret about it but the key loaded just before.
      boolean stringConstant = n instanceof LdcInsnNode l && l.cst instanceof String;
      if (stringConstant && afterSecretKey) {
        operand = "// String " + Texts.quote(Redactor.REDACTED, MAX_LITERAL);
      }
      afterSecretKey = stringConstant && looksLikeSecretKey((String) ((LdcInsnNode) n).cst);
      StringBuilder text = new StringBuilder(32 + operand.length());
      Texts.padLeft(text, gutter, 7);
      text.append(' ');
      Texts.padLeft(text, Integer.toString(off), 6);
      text.append(": ").append(mnemonic);
      if (!operand.isEmpty()) {
        for (int p = mnemonic.length(); p < 13; p++) {
          text.append(' ');
        }
        text.append(' ').append(operand);
      }
      add(text.toString());
      if (n instanceof TableSwitchInsnNode ts) {
        for (int k = 0; k < ts.labels.size(); k++) {
          add(String.format("%7s %20d: %d", "", ts.min + k, labelOffset.getOrDefault(ts.labels.get(k), -1)));
        }
        add(String.format("%7s %20s: %d", "", "default", labelOffset.getOrDefault(ts.dflt, -1)));
        add(String.format("%7s %10s}", "", ""));
      } else if (n instanceof LookupSwitchInsnNode ls) {
        for (int k = 0; k < ls.labels.size(); k++) {
          add(String.format("%7s %20d: %d", "", ls.keys.get(k), labelOffset.getOrDefault(ls.labels.get(k), -1)));
        }
        add(String.format("%7s %20s: %d", "", "default", labelOffset.getOrDefault(ls.dflt, -1)));
        add(String.format("%7s %10s}", "", ""));
      }
    }
    if (m.tryCatchBlocks != null && !m.tryCatchBlocks.isEmpty()) {
      add("    Exception table:");
      add("       from    to  target type");
      for (TryCatchBlockNode t : m.tryCatchBlocks) {
        add(String.format("      %5d %5d %5d   %s", labelOffset.getOrDefault(t.start, -1),
            labelOffset.getOrDefault(t.end, -1), labelOffset.getOrDefault(t.handler, -1),
            t.type == null ? "any" : "Class " + Texts.safe(t.type)));
      }
    }
  }

  private static String operand(AbstractInsnNode n, int op, Map<LabelNode, Integer> labels,
      Map<Integer, String> localNames) {
    if (n instanceof VarInsnNode v) {
      String name = localNames.get(v.var);
      boolean shortForm = (op >= 26 && op <= 45) || (op >= 59 && op <= 78);
      String base = shortForm ? "" : String.valueOf(v.var);
      if (name == null) {
        return base;
      }
      return (base.isEmpty() ? "" : base + " ") + "// " + Texts.safe(name);
    }
    if (n instanceof IntInsnNode i) {
      if (i.getOpcode() == Opcodes.NEWARRAY) {
        return switch (i.operand) {
          case Opcodes.T_BOOLEAN -> "boolean";
          case Opcodes.T_CHAR -> "char";
          case Opcodes.T_FLOAT -> "float";
          case Opcodes.T_DOUBLE -> "double";
          case Opcodes.T_BYTE -> "byte";
          case Opcodes.T_SHORT -> "short";
          case Opcodes.T_INT -> "int";
          case Opcodes.T_LONG -> "long";
          default -> String.valueOf(i.operand);
        };
      }
      return String.valueOf(i.operand);
    }
    if (n instanceof TypeInsnNode t) {
      return "// class " + Texts.safe(t.desc);
    }
    if (n instanceof FieldInsnNode f) {
      return "// Field " + Texts.safe(f.owner + "." + f.name + ":" + f.desc);
    }
    if (n instanceof MethodInsnNode mi) {
      String name = mi.name.startsWith("<") ? "\"" + mi.name + "\"" : mi.name;
      return "// " + (mi.itf ? "InterfaceMethod " : "Method ")
          + Texts.safe(mi.owner + "." + name + ":" + mi.desc);
    }
    if (n instanceof InvokeDynamicInsnNode indy) {
      StringBuilder b = new StringBuilder("// InvokeDynamic ").append(Texts.safe(indy.name))
          .append(':').append(Texts.safe(indy.desc));
      Handle impl = lambdaImpl(indy);
      if (impl != null) {
        b.append(" => ").append(Texts.safe(impl.getOwner() + "." + impl.getName() + ":" + impl.getDesc()));
      } else if (indy.bsm.getName().startsWith("makeConcat") && indy.bsmArgs.length > 0
          && indy.bsmArgs[0] instanceof String recipe) {
        b.append(" recipe ")
            .append(Texts.quote(Texts.redact(recipe.replace('\u0001', '?')), MAX_LITERAL));
      } else {
        b.append(" (bootstrap ").append(Texts.safe(indy.bsm.getOwner() + "." + indy.bsm.getName())).append(')');
      }
      return b.toString();
    }
    if (n instanceof JumpInsnNode j) {
      return String.valueOf(labels.getOrDefault(j.label, -1));
    }
    if (n instanceof LdcInsnNode l) {
      Object c = l.cst;
      String kind = c instanceof String ? "String " : c instanceof Integer ? "int "
          : c instanceof Long ? "long " : c instanceof Float ? "float "
          : c instanceof Double ? "double " : "";
      return "// " + kind + (c instanceof String s
          ? Texts.quote(Texts.redact(s), MAX_LITERAL)
          : Texts.safe(constant(c)));
    }
    if (n instanceof IincInsnNode i) {
      return i.var + ", " + i.incr;
    }
    if (n instanceof TableSwitchInsnNode t) {
      return "{ // " + t.min + " to " + t.max;
    }
    if (n instanceof LookupSwitchInsnNode l) {
      return "{ // " + l.keys.size();
    }
    if (n instanceof MultiANewArrayInsnNode ma) {
      return "// class " + Texts.safe(ma.desc) + ", " + ma.dims;
    }
    return "";
  }

  /** The implementation method named by a LambdaMetafactory bootstrap, or null. */
  static Handle lambdaImpl(InvokeDynamicInsnNode indy) {
    if (indy.bsm == null || indy.bsmArgs == null) {
      return null;
    }
    if (!indy.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")) {
      return null;
    }
    if (indy.bsmArgs.length > 1 && indy.bsmArgs[1] instanceof Handle h) {
      return h;
    }
    return null;
  }
}

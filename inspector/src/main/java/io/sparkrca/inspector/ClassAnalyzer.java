package io.sparkrca.inspector;

import io.sparkrca.inspector.ClassView.Call;
import io.sparkrca.inspector.ClassView.CallKind;
import io.sparkrca.inspector.ClassView.ClassDetail;
import io.sparkrca.inspector.ClassView.MethodSummary;
import io.sparkrca.inspector.SparkApi.Role;
import io.sparkrca.inspector.StringConstant.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Reads one class with ASM and produces its {@link ClassDetail} (declaration, members, ranked
 * strings, per-method call graph, listing) and the Spark anti-patterns in its bytecode.
 *
 * <p>Loops are found from backward branches; lambda bodies and Scala closures handed to a
 * driver-side iteration ({@code foreach}, {@code forEach}, {@code foldLeft}...) are recorded in
 * the shared {@link Context} so that, when their class is analysed, their actions count as "in a
 * loop" too.
 */
final class ClassAnalyzer {
  /** The newest class-file major version ASM 9.8 parses (Java 25). */
  static final int NEWEST_MAJOR = 69;
  private static final int MAX_STRINGS = 300;
  private static final int MAX_CALLS_PER_METHOD = 500;
  private static final int LOOKAHEAD = 12;

  /** A method (or, with name "*", every method of a class) run once per driver iteration. */
  record LoopBody(String owner, String name, String desc, boolean fold, String via, int line,
      String from) {
    String key() {
      return owner + "." + name + desc;
    }
  }

  /** What analyses share across the classes of one inspection. */
  static final class Context {
    final Map<String, LoopBody> loopBodies = new LinkedHashMap<>();

    Optional<LoopBody> bodyFor(String owner, String name, String desc) {
      LoopBody b = loopBodies.get(owner + "." + name + desc);
      if (b == null) {
        b = loopBodies.get(owner + ".*");
      }
      return Optional.ofNullable(b);
    }
  }

  /** The result for one class. */
  record Result(ClassDetail detail, List<Finding> findings, List<String> follow,
      List<String> notes) {}

  private final String entry;
  private final String followedBecause;
  private final Context ctx;
  private final List<String> notes = new ArrayList<>();
  private final List<Finding> findings = new ArrayList<>();
  private final Set<String> findingKeys = new LinkedHashSet<>();
  private final Set<String> follow = new LinkedHashSet<>();
  private final Map<String, StringAcc> strings = new LinkedHashMap<>();
  private int droppedStrings;
  private ClassNode cn;

  private ClassAnalyzer(String entry, String followedBecause, Context ctx) {
    this.entry = entry;
    this.followedBecause = followedBecause;
    this.ctx = ctx;
  }

  static Result analyze(byte[] bytes, String entry, String followedBecause, Context ctx) {
    return new ClassAnalyzer(entry, followedBecause, ctx).run(bytes);
  }

  private Result run(byte[] bytes) {
    if (bytes.length < 10 || (bytes[0] & 0xFF) != 0xCA || (bytes[1] & 0xFF) != 0xFE
        || (bytes[2] & 0xFF) != 0xBA || (bytes[3] & 0xFF) != 0xBE) {
      String why = bytes.length < 4 ? "the file is only " + bytes.length + " bytes"
          : bytes.length >= 4 && (bytes[0] & 0xFF) == 0xCA && (bytes[1] & 0xFF) == 0xFE
              && (bytes[2] & 0xFF) == 0xBA && (bytes[3] & 0xFF) == 0xBE
              ? "the class file is truncated after its magic number"
              : "not a Java class file (bad magic number '" + Texts.preview(bytes) + "')";
      return partial(bytes, why);
    }
    int major = ((bytes[6] & 0xFF) << 8) | (bytes[7] & 0xFF);
    int minor = ((bytes[4] & 0xFF) << 8) | (bytes[5] & 0xFF);
    byte[] toParse = bytes;
    if (major > NEWEST_MAJOR) {
      toParse = bytes.clone();
      toParse[6] = 0;
      toParse[7] = (byte) NEWEST_MAJOR;
      notes.add(entry + ": class file version " + major + " (" + Bytecode.javaRelease(major)
          + ") is newer than the disassembler knows; read as version " + NEWEST_MAJOR);
    }
    try {
      ClassReader cr = new ClassReader(toParse);
      cn = new ClassNode(Opcodes.ASM9);
      cr.accept(cn, ClassReader.SKIP_FRAMES);
    } catch (RuntimeException | StackOverflowError e) {
      return partial(bytes, describe(e));
    }
    try {
      return full(bytes, major, minor);
    } catch (RuntimeException | StackOverflowError e) {
      // ASM parsed it but a later step met something it cannot handle: fall back.
      return partial(bytes, describe(e));
    }
  }

  private static String describe(Throwable e) {
    if (e instanceof ArrayIndexOutOfBoundsException || e instanceof StringIndexOutOfBoundsException) {
      return "the class file is truncated or its structure is inconsistent";
    }
    if (e instanceof StackOverflowError) {
      return "the class file nests too deeply";
    }
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  /** What can be shown of a class ASM cannot read: the header and the constant pool strings. */
  private Result partial(byte[] bytes, String why) {
    ConstantPoolScanner.Scan scan = ConstantPoolScanner.scan(bytes);
    String name = scan.thisClass().map(Signatures::dotted).orElse(entryClassName(entry));
    for (String s : scan.strings()) {
      addString(s, "<constant pool>", -1, Optional.empty());
    }
    List<String> listing = new ArrayList<>();
    listing.add("// Failed to parse bytecode for " + Texts.safe(entry) + ": " + why);
    if (scan.major() > 0) {
      listing.add("// class file version " + scan.major() + "." + scan.minor() + " ("
          + Bytecode.javaRelease(scan.major()) + "), " + scan.constants() + " constants read"
          + (scan.complete() ? "" : " before the damage"));
    }
    for (String ref : scan.methodRefs()) {
      listing.add("//   references " + Texts.safe(ref));
    }
    notes.add(entry + ": " + why + "; showing only what could be read");
    List<StringConstant> ranked = rankedStrings();
    return new Result(new ClassDetail(entry, Texts.safe(name), followedBecause, scan.major(),
        scan.minor(), scan.major() > 0 ? Bytecode.javaRelease(scan.major()) : "unknown",
        Optional.empty(), "class " + Texts.safe(name), false, List.of(), List.of(), ranked,
        lowInterest(), listing, Optional.of(why)), List.of(), List.of(), notes);
  }

  static String entryClassName(String entry) {
    String e = entry;
    int bang = e.lastIndexOf("!/");
    if (bang >= 0) {
      e = e.substring(bang + 2);
    }
    if (e.endsWith(".class")) {
      e = e.substring(0, e.length() - 6);
    }
    for (String prefix : List.of("BOOT-INF/classes/", "WEB-INF/classes/")) {
      if (e.startsWith(prefix)) {
        e = e.substring(prefix.length());
      }
    }
    return e.replace('/', '.');
  }

  // ---- full analysis ------------------------------------------------------------------------

  private final class M {
    final MethodNode node;
    final String display;
    final List<AbstractInsnNode> insns = new ArrayList<>();
    final List<Integer> lines = new ArrayList<>();
    final Map<LabelNode, Integer> labelIndex = new HashMap<>();
    final List<int[]> loops = new ArrayList<>();
    final List<Call> calls = new ArrayList<>();
    final Set<String> callKeys = new LinkedHashSet<>();
    final List<String> directActions = new ArrayList<>();
    Optional<LoopBody> body = Optional.empty();

    M(MethodNode node) {
      this.node = node;
      this.display = displayName(node);
    }

    int line(int idx) {
      return idx >= 0 && idx < lines.size() ? lines.get(idx) : -1;
    }

    OptionalInt lineOpt(int idx) {
      int l = line(idx);
      return l > 0 ? OptionalInt.of(l) : OptionalInt.empty();
    }

    Optional<int[]> loopAt(int idx) {
      int[] best = null;
      for (int[] l : loops) {
        if (idx >= l[0] && idx <= l[1] && (best == null || l[1] - l[0] < best[1] - best[0])) {
          best = l;
        }
      }
      return Optional.ofNullable(best);
    }

    String loopLines(int[] loop) {
      int lo = Integer.MAX_VALUE;
      int hi = -1;
      for (int i = loop[0]; i <= loop[1]; i++) {
        int l = line(i);
        if (l > 0) {
          lo = Math.min(lo, l);
          hi = Math.max(hi, l);
        }
      }
      if (hi < 0) {
        return "the loop";
      }
      return lo == hi ? "the loop at line " + lo : "the loop at lines " + lo + "-" + hi;
    }
  }

  private String displayName(MethodNode m) {
    if (m.name.equals("<clinit>")) {
      return "static {}";
    }
    String n = m.name.equals("<init>") ? Signatures.dotted(cn.name).substring(
        cn.name.lastIndexOf('/') + 1) : m.name;
    return Texts.safe(n + "(" + String.join(", ", Signatures.params(m.desc)) + ")");
  }

  private Result full(byte[] bytes, int major, int minor) {
    Map<String, Bytecode.Code> codes = Bytecode.codes(bytes);
    String className = Texts.safe(Signatures.dotted(cn.name));
    boolean scala = isScala(cn);
    List<M> methods = new ArrayList<>();
    Map<String, M> byKey = new HashMap<>();
    for (MethodNode mn : cn.methods) {
      M m = new M(mn);
      methods.add(m);
      byKey.put(mn.name + mn.desc, m);
      m.body = ctx.bodyFor(cn.name, mn.name, mn.desc);
      scan(m);
    }
    for (FieldNode f : cn.fields) {
      if (f.value instanceof String s) {
        addString(s, "<field " + f.name + ">", -1, Optional.empty());
      }
    }
    // Lambda bodies found in this class that live in this class are now known: refresh.
    for (M m : methods) {
      if (m.body.isEmpty()) {
        m.body = ctx.bodyFor(cn.name, m.node.name, m.node.desc);
      }
    }
    for (M m : methods) {
      findings(m, byKey);
    }
    Disassembler d = new Disassembler(cn, codes);
    List<String> listing = d.render();
    if (d.offsetsApproximate) {
      notes.add(entry + ": some methods could not be matched to their Code attribute; their "
          + "offsets are instruction indexes");
    }
    List<String> fields = new ArrayList<>();
    for (FieldNode f : cn.fields) {
      fields.add(Disassembler.fieldDeclaration(f));
    }
    List<MethodSummary> summaries = new ArrayList<>();
    for (M m : methods) {
      OptionalInt first = OptionalInt.empty();
      for (int l : m.lines) {
        if (l > 0) {
          first = OptionalInt.of(l);
          break;
        }
      }
      summaries.add(new MethodSummary(Texts.safe(m.node.name), Texts.safe(m.node.desc),
          Disassembler.methodDeclaration(cn, m.node), first, m.insns.size(), m.calls));
    }
    ClassDetail detail = new ClassDetail(entry, className, followedBecause, major, minor,
        Bytecode.javaRelease(major), Optional.ofNullable(cn.sourceFile).map(Texts::safe),
        Disassembler.classDeclaration(cn), scala, fields, summaries, rankedStrings(),
        lowInterest(), listing, Optional.empty());
    return new Result(detail, findings, new ArrayList<>(follow), notes);
  }

  private static boolean isScala(ClassNode cn) {
    if (cn.attrs != null) {
      for (Attribute a : cn.attrs) {
        if (a.type.equals("ScalaSig") || a.type.equals("Scala") || a.type.equals("TASTY")
            || a.type.equals("ScalaInlineInfo")) {
          return true;
        }
      }
    }
    if (cn.visibleAnnotations != null) {
      for (AnnotationNode an : cn.visibleAnnotations) {
        if (an.desc.equals("Lscala/reflect/ScalaSignature;")
            || an.desc.equals("Lscala/reflect/ScalaLongSignature;")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Pass 1: instructions, lines, loops, calls, strings, lambda bodies. */
  private void scan(M m) {
    int line = -1;
    List<LabelNode> pendingLabels = new ArrayList<>();
    for (AbstractInsnNode n : m.node.instructions) {
      if (n instanceof LineNumberNode ln) {
        line = ln.line;
      } else if (n instanceof LabelNode l) {
        pendingLabels.add(l);
      } else if (n.getOpcode() >= 0) {
        for (LabelNode l : pendingLabels) {
          m.labelIndex.put(l, m.insns.size());
        }
        pendingLabels.clear();
        m.insns.add(n);
        m.lines.add(line);
      }
    }
    for (LabelNode l : pendingLabels) {
      m.labelIndex.put(l, m.insns.size());
    }
    List<Integer> pendingStrings = new ArrayList<>();
    List<String> pendingValues = new ArrayList<>();
    for (int i = 0; i < m.insns.size(); i++) {
      AbstractInsnNode n = m.insns.get(i);
      if (n instanceof JumpInsnNode j) {
        loopTo(m, i, j.label);
      } else if (n instanceof TableSwitchInsnNode ts) {
        for (LabelNode l : ts.labels) {
          loopTo(m, i, l);
        }
        loopTo(m, i, ts.dflt);
      } else if (n instanceof LookupSwitchInsnNode ls) {
        for (LabelNode l : ls.labels) {
          loopTo(m, i, l);
        }
        loopTo(m, i, ls.dflt);
      } else if (n instanceof LdcInsnNode ldc && ldc.cst instanceof String s) {
        pendingStrings.add(i);
        pendingValues.add(s);
      } else if (n instanceof MethodInsnNode mi) {
        addCall(m, CallKind.INVOKE, Signatures.methodRef(mi.owner, mi.name, mi.desc), i,
            SparkApi.label(mi.owner, mi.name, mi.desc));
        Optional<Kind> usage = StringRanker.usageKind(mi.owner, mi.name);
        for (int k = 0; k < pendingValues.size(); k++) {
          Optional<String> usedBy = usage.isPresent() && k == 0
              ? Optional.of(SparkApi.simpleOwner(mi.owner) + "." + mi.name) : Optional.empty();
          addString(pendingValues.get(k), m.display, m.line(pendingStrings.get(k)),
              usedBy.isPresent() ? usage : Optional.empty(), usedBy);
        }
        pendingStrings.clear();
        pendingValues.clear();
        Optional<Role> role = SparkApi.role(mi.owner, mi.name, mi.desc);
        if (role.isPresent() && (role.get() == Role.ACTION || role.get() == Role.COLLECT
            || role.get() == Role.WRITE)) {
          m.directActions.add(SparkApi.shortName(mi.owner, mi.name)
              + (m.line(i) > 0 ? " at line " + m.line(i) : ""));
        }
      } else if (n instanceof InvokeDynamicInsnNode indy) {
        flushStrings(m, pendingStrings, pendingValues);
        Handle impl = Disassembler.lambdaImpl(indy);
        if (impl != null) {
          addCall(m, CallKind.LAMBDA, Signatures.methodRef(impl.getOwner(), impl.getName(),
              impl.getDesc()), i, Optional.empty());
          lambda(m, i, impl);
        } else {
          addCall(m, CallKind.DYNAMIC, Texts.safe(indy.name) + " via "
              + Signatures.dotted(indy.bsm.getOwner()) + "." + indy.bsm.getName(), i,
              Optional.empty());
          if (indy.bsm.getName().startsWith("makeConcat") && indy.bsmArgs.length > 0
              && indy.bsmArgs[0] instanceof String recipe) {
            // The constant parts of a string concatenation; '?' marks the values.
            pendingStrings.add(i);
            pendingValues.add(recipe.replace('\u0001', '?'));
          }
        }
      } else if (n instanceof FieldInsnNode f) {
        boolean write = f.getOpcode() == Opcodes.PUTFIELD || f.getOpcode() == Opcodes.PUTSTATIC;
        addCall(m, write ? CallKind.FIELD_WRITE : CallKind.FIELD_READ,
            Signatures.dotted(f.owner) + "." + f.name, i, Optional.empty());
      } else if (n instanceof TypeInsnNode t && t.getOpcode() == Opcodes.NEW
          && t.desc.contains("$anonfun")) {
        anonClass(m, i, t.desc);
      }
    }
    flushStrings(m, pendingStrings, pendingValues);
  }

  private void flushStrings(M m, List<Integer> idx, List<String> values) {
    for (int k = 0; k < values.size(); k++) {
      addString(values.get(k), m.display, m.line(idx.get(k)), Optional.empty());
    }
    idx.clear();
    values.clear();
  }

  private void loopTo(M m, int from, LabelNode target) {
    Integer t = m.labelIndex.get(target);
    if (t != null && t <= from) {
      m.loops.add(new int[] {t, from});
    }
  }

  private void addCall(M m, CallKind kind, String target, int idx, Optional<String> spark) {
    String key = kind + " " + target;
    if (m.calls.size() < MAX_CALLS_PER_METHOD && m.callKeys.add(key)) {
      m.calls.add(new Call(kind, Texts.safe(target), m.lineOpt(idx), spark));
    }
  }

  /** The call that consumes what instruction {@code from} produced, looking a few ahead. */
  private Optional<MethodInsnNode> consumer(M m, int from) {
    for (int k = from + 1; k < Math.min(m.insns.size(), from + LOOKAHEAD); k++) {
      if (m.insns.get(k) instanceof MethodInsnNode mi && !mi.name.equals("<init>")) {
        return Optional.of(mi);
      }
      if (m.insns.get(k) instanceof InvokeDynamicInsnNode) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private void lambda(M m, int i, Handle impl) {
    if (!impl.getOwner().equals(cn.name)) {
      follow.add(impl.getOwner());
    }
    Optional<MethodInsnNode> c = consumer(m, i);
    if (c.isPresent() && SparkApi.isDriverIteration(c.get().owner, c.get().name)) {
      boolean fold = SparkApi.isFold(c.get().owner, c.get().name);
      LoopBody body = new LoopBody(impl.getOwner(), impl.getName(), impl.getDesc(), fold,
          Signatures.dotted(c.get().owner) + "." + c.get().name, m.line(i), m.display);
      ctx.loopBodies.putIfAbsent(body.key(), body);
    }
  }

  private void anonClass(M m, int i, String anonClass) {
    follow.add(anonClass);
    for (int k = i + 1; k < Math.min(m.insns.size(), i + LOOKAHEAD + 4); k++) {
      if (m.insns.get(k) instanceof MethodInsnNode mi && !mi.name.equals("<init>")) {
        if (SparkApi.isDriverIteration(mi.owner, mi.name)) {
          LoopBody body = new LoopBody(anonClass, "*", "", SparkApi.isFold(mi.owner, mi.name),
              Signatures.dotted(mi.owner) + "." + mi.name, m.line(i), m.display);
          ctx.loopBodies.putIfAbsent(body.key(), body);
        }
        return;
      }
    }
  }

  // ---- pass 2: findings ---------------------------------------------------------------------

  private void findings(M m, Map<String, M> byKey) {
    for (int i = 0; i < m.insns.size(); i++) {
      if (!(m.insns.get(i) instanceof MethodInsnNode mi)) {
        continue;
      }
      Optional<Role> role = SparkApi.role(mi.owner, mi.name, mi.desc);
      if (role.isEmpty()) {
        if (mi.owner.equals(cn.name)) {
          helperInLoop(m, i, mi, byKey);
        }
        continue;
      }
      String call = SparkApi.shortName(mi.owner, mi.name);
      switch (role.get()) {
        case COLLECT -> {
          actionInLoop(m, i, call);
          collect(m, i, call);
        }
        case ACTION, WRITE -> actionInLoop(m, i, call);
        case TRANSFORMATION, BOUNDING, REPARTITION -> {
          lineage(m, i, mi, call);
          if (role.get() == Role.REPARTITION) {
            repartition(m, i, mi, call);
          }
        }
        case CACHE -> cache(m, i, call);
        case BROADCAST -> broadcast(m, i, call);
        default -> {
        }
      }
    }
  }

  private void add(AntiPattern p, M m, int idx, String evidence, String remediation) {
    String key = p + "|" + m.display + "|" + m.line(idx) + "|" + evidence;
    if (!findingKeys.add(key)) {
      return;
    }
    findings.add(new Finding(p, entry, Optional.of(Texts.safe(Signatures.dotted(cn.name))),
        Optional.of(methodLabel(m)), m.lineOpt(idx), evidence, remediation));
  }

  private String methodLabel(M m) {
    String n = m.node.name;
    if (n.startsWith("lambda$")) {
      String[] parts = n.split("\\$");
      return m.display + " (lambda in " + (parts.length > 1 ? parts[1] : "?") + ")";
    }
    int anon = n.indexOf("$anonfun$");
    if (anon >= 0) {
      String rest = n.substring(anon + 9);
      int d = rest.indexOf('$');
      return m.display + " (closure in " + (d > 0 ? rest.substring(0, d) : rest) + ")";
    }
    return m.display;
  }

  private void actionInLoop(M m, int i, String call) {
    Optional<int[]> loop = m.loopAt(i);
    if (loop.isPresent()) {
      add(AntiPattern.ACTION_IN_LOOP, m, i, call + " runs once per iteration of "
          + m.loopLines(loop.get()) + " in " + m.display, AntiPattern.ACTION_IN_LOOP.remediation());
    } else if (m.body.isPresent() && !m.body.get().fold()) {
      LoopBody b = m.body.get();
      add(AntiPattern.ACTION_IN_LOOP, m, i, call + " runs once per element: this "
          + (b.name().equals("*") ? "closure class" : "lambda") + " is passed to " + b.via()
          + " in " + b.from() + (b.line() > 0 ? " (line " + b.line() + ")" : ""),
          AntiPattern.ACTION_IN_LOOP.remediation());
    }
  }

  private void helperInLoop(M m, int i, MethodInsnNode mi, Map<String, M> byKey) {
    M target = byKey.get(mi.name + mi.desc);
    if (target == null || target == m || target.directActions.isEmpty()) {
      return;
    }
    Optional<int[]> loop = m.loopAt(i);
    if (loop.isPresent()) {
      add(AntiPattern.ACTION_IN_LOOP, m, i, "calls " + target.display + " once per iteration of "
          + m.loopLines(loop.get()) + "; it runs " + String.join(", ", target.directActions),
          AntiPattern.ACTION_IN_LOOP.remediation());
    }
  }

  private void collect(M m, int i, String call) {
    Optional<String> bound = producerBound(m, i);
    if (bound.isPresent()) {
      return;
    }
    add(AntiPattern.COLLECT_UNBOUNDED, m, i, call + " with no limit(), sample() or aggregation "
        + "before it in " + m.display, AntiPattern.COLLECT_UNBOUNDED.remediation());
  }

  /** The bounding call that produced the receiver of the call at {@code i}, if any. */
  private Optional<String> producerBound(M m, int i) {
    int k = i - 1;
    while (k >= 0 && m.insns.get(k).getOpcode() == Opcodes.CHECKCAST) {
      k--;
    }
    if (k < 0) {
      return Optional.empty();
    }
    AbstractInsnNode prev = m.insns.get(k);
    if (prev instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD) {
      for (int s = k - 1; s > 0; s--) {
        if (m.insns.get(s) instanceof VarInsnNode st && st.getOpcode() == Opcodes.ASTORE
            && st.var == v.var) {
          int p = s - 1;
          while (p >= 0 && m.insns.get(p).getOpcode() == Opcodes.CHECKCAST) {
            p--;
          }
          prev = p >= 0 ? m.insns.get(p) : null;
          break;
        }
      }
    }
    if (prev instanceof MethodInsnNode pm && SparkApi.bounds(pm.owner, pm.name, pm.desc)) {
      return Optional.of(pm.name);
    }
    return Optional.empty();
  }

  private void lineage(M m, int i, MethodInsnNode mi, String call) {
    if (!SparkApi.returnsDataset(mi.desc)) {
      return;
    }
    Optional<int[]> loop = m.loopAt(i);
    if (loop.isPresent() && i + 1 < m.insns.size()
        && m.insns.get(i + 1) instanceof VarInsnNode st && st.getOpcode() == Opcodes.ASTORE) {
      for (int k = loop.get()[0]; k < i; k++) {
        if (m.insns.get(k) instanceof VarInsnNode ld && ld.getOpcode() == Opcodes.ALOAD
            && ld.var == st.var) {
          add(AntiPattern.LINEAGE_IN_LOOP, m, i, call + " is applied to its own result in "
              + m.loopLines(loop.get()) + " in " + m.display + ", so the plan grows every "
              + "iteration", AntiPattern.LINEAGE_IN_LOOP.remediation());
          return;
        }
      }
    }
    if (m.body.isPresent() && m.body.get().fold() && SparkApi.returnsDataset(m.node.desc)) {
      LoopBody b = m.body.get();
      add(AntiPattern.LINEAGE_IN_LOOP, m, i, call + " inside a function folded over a "
          + "collection by " + b.via() + " in " + b.from()
          + (b.line() > 0 ? " (line " + b.line() + ")" : "") + ": one more plan node per element",
          AntiPattern.LINEAGE_IN_LOOP.remediation());
    }
  }

  private void repartition(M m, int i, MethodInsnNode mi, String call) {
    if (!(mi.desc.startsWith("(I)") || mi.desc.startsWith("(ILscala/math/Ordering;)"))) {
      return;
    }
    OptionalInt n = OptionalInt.empty();
    for (int k = i - 1; k >= Math.max(0, i - 4); k--) {
      OptionalInt c = intConstant(m.insns.get(k));
      if (c.isPresent()) {
        n = c;
        break;
      }
    }
    if (n.isEmpty()) {
      return;
    }
    int writeAt = -1;
    for (int k = i + 1; k < m.insns.size(); k++) {
      if (m.insns.get(k) instanceof MethodInsnNode w) {
        Optional<Role> r = SparkApi.role(w.owner, w.name, w.desc);
        if (r.isPresent() && (r.get() == Role.WRITER || r.get() == Role.WRITE
            || w.name.startsWith("saveAs"))) {
          writeAt = k;
          break;
        }
      }
    }
    if (n.getAsInt() == 1 || writeAt >= 0) {
      String what = "repartition(" + n.getAsInt() + ")"
          + (writeAt >= 0 ? " right before a write" + (m.line(writeAt) > 0
              ? " (line " + m.line(writeAt) + ")" : "") : "")
          + " in " + m.display;
      String fix = "use coalesce(" + n.getAsInt() + "): it merges existing partitions without "
          + "shuffling every row; keep repartition only to raise parallelism or to spread skewed "
          + "data by a column";
      add(AntiPattern.REPARTITION_WHERE_COALESCE_FITS, m, i, what, fix);
    }
  }

  private static OptionalInt intConstant(AbstractInsnNode n) {
    int op = n.getOpcode();
    if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5) {
      return OptionalInt.of(op - Opcodes.ICONST_0);
    }
    if (n instanceof IntInsnNode in && (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH)) {
      return OptionalInt.of(in.operand);
    }
    if (n instanceof LdcInsnNode l && l.cst instanceof Integer v) {
      return OptionalInt.of(v);
    }
    return OptionalInt.empty();
  }

  private void broadcast(M m, int i, String call) {
    for (int k = 0; k < i; k++) {
      if (m.insns.get(k) instanceof MethodInsnNode c) {
        Optional<Role> r = SparkApi.role(c.owner, c.name, c.desc);
        if (r.isPresent() && r.get() == Role.COLLECT) {
          add(AntiPattern.BROADCAST_DRIVER_COLLECTION, m, i, call + " of data collected to the "
              + "driver by " + SparkApi.shortName(c.owner, c.name)
              + (m.line(k) > 0 ? " at line " + m.line(k) : "") + " in " + m.display,
              AntiPattern.BROADCAST_DRIVER_COLLECTION.remediation());
          return;
        }
      }
    }
  }

  private void cache(M m, int i, String call) {
    if (m.loopAt(i).isPresent() || m.body.isPresent()) {
      return; // caching per iteration is another story
    }
    int var = -1;
    int chained = 0;
    AbstractInsnNode next = i + 1 < m.insns.size() ? m.insns.get(i + 1) : null;
    if (next instanceof VarInsnNode st && st.getOpcode() == Opcodes.ASTORE) {
      var = st.var;
    } else if (next instanceof InsnNode pop && pop.getOpcode() == Opcodes.POP) {
      var = receiverVar(m, i);
    } else if (next instanceof MethodInsnNode) {
      chained = 1;
      var = receiverVar(m, i);
    } else {
      return; // returned, stored in a field or passed on: used elsewhere
    }
    int uses = 0;
    boolean inLoop = false;
    int start = i + 2;
    if (var >= 0) {
      for (int k = start; k < m.insns.size(); k++) {
        AbstractInsnNode n = m.insns.get(k);
        if (n instanceof VarInsnNode v && v.var == var) {
          if (v.getOpcode() == Opcodes.ASTORE) {
            break;
          }
          if (v.getOpcode() != Opcodes.ALOAD) {
            continue;
          }
          AbstractInsnNode after = k + 1 < m.insns.size() ? m.insns.get(k + 1) : null;
          if (after != null && (after.getOpcode() == Opcodes.ARETURN
              || after.getOpcode() == Opcodes.PUTFIELD || after.getOpcode() == Opcodes.PUTSTATIC
              || after.getOpcode() == Opcodes.AASTORE)) {
            return; // escapes the method
          }
          if (after instanceof MethodInsnNode u && u.name.equals("unpersist")) {
            continue;
          }
          if (after instanceof MethodInsnNode u && !SparkApi.isSpark(u.owner)
              && !u.desc.startsWith("()")) {
            return; // handed to other code, which may reuse it
          }
          uses++;
          if (m.loopAt(k).isPresent()) {
            inLoop = true;
          }
        }
      }
    } else if (chained == 0) {
      return;
    }
    int total = uses + chained;
    if (total <= 1 && !inLoop) {
      add(AntiPattern.CACHE_WITHOUT_REUSE, m, i, call + " result is used "
          + (total == 0 ? "by no action" : "only once") + " afterwards in " + m.display,
          AntiPattern.CACHE_WITHOUT_REUSE.remediation());
    }
  }

  private static int receiverVar(M m, int i) {
    for (int k = i - 1; k >= Math.max(0, i - 4); k--) {
      if (m.insns.get(k) instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD) {
        return v.var;
      }
    }
    return -1;
  }

  // ---- strings -------------------------------------------------------------------------------

  private static final class StringAcc {
    final String value;
    final String method;
    final int line;
    Optional<Kind> usage;
    Optional<String> usedBy;
    int count;
    StringRanker.Ranked rank;

    StringRanker.Ranked rank() {
      if (rank == null) {
        rank = StringRanker.rank(value, usage);
      }
      return rank;
    }

    StringAcc(String value, String method, int line) {
      this.value = value;
      this.method = method;
      this.line = line;
      this.usage = Optional.empty();
      this.usedBy = Optional.empty();
    }
  }

  private void addString(String s, String method, int line, Optional<Kind> usage) {
    addString(s, method, line, usage, Optional.empty());
  }

  private void addString(String s, String method, int line, Optional<Kind> usage,
      Optional<String> usedBy) {
    if (s.length() < 2) {
      return;
    }
    StringAcc acc = strings.get(s);
    if (acc == null) {
      if (strings.size() >= 20_000) {
        droppedStrings++; // an enormous constant pool: keep the first ones
        return;
      }
      acc = new StringAcc(s, method, line);
      strings.put(s, acc);
    }
    acc.count++;
    if (acc.usage.isEmpty() && usage.isPresent()) {
      acc.usage = usage;
      acc.rank = null;
      acc.usedBy = usedBy;
    }
  }

  private List<StringConstant> rankedStrings() {
    List<StringConstant> all = new ArrayList<>();
    for (StringAcc a : strings.values()) {
      StringRanker.Ranked rank = a.rank();
      if (rank.score() < StringRanker.NOISE) {
        continue;
      }
      all.add(new StringConstant(Texts.redact(a.value), rank.kind(), rank.score(), a.method,
          a.line > 0 ? OptionalInt.of(a.line) : OptionalInt.empty(),
          a.usedBy.map(Texts::safe), a.count));
    }
    // Stable: by score, then first appearance.
    List<StringConstant> sorted = new ArrayList<>(all);
    sorted.sort((x, y) -> Integer.compare(y.score(), x.score()));
    return sorted.size() > MAX_STRINGS ? sorted.subList(0, MAX_STRINGS) : sorted;
  }

  private int lowInterest() {
    int noise = 0;
    int kept = 0;
    for (StringAcc a : strings.values()) {
      if (a.rank().score() < StringRanker.NOISE) {
        noise++;
      } else {
        kept++;
      }
    }
    return noise + Math.max(0, kept - MAX_STRINGS) + droppedStrings;
  }

}

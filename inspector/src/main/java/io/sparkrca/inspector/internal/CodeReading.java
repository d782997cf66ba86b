package io.sparkrca.inspector.internal;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.evidence.CodeEvidence;
import io.sparkrca.core.evidence.CodeFinding;
import io.sparkrca.core.evidence.CodeLocation;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.inspector.AmbiguousEntryException;
import io.sparkrca.inspector.ArchiveOverview;
import io.sparkrca.inspector.ArchiveOverview.NestedArchive;
import io.sparkrca.inspector.ArchiveOverview.PackageCount;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.inspector.ClassView;
import io.sparkrca.inspector.ClassView.ClassDetail;
import io.sparkrca.inspector.ClassView.MethodSummary;
import io.sparkrca.inspector.EntryNotFoundException;
import io.sparkrca.inspector.Finding;
import io.sparkrca.inspector.Inspection;
import io.sparkrca.inspector.InspectorLimits;
import io.sparkrca.inspector.SourceView;
import io.sparkrca.inspector.internal.ClassInspectorProvider.Kinds;
import io.sparkrca.inspector.internal.ClassInspectorProvider.Target;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One inspection for {@link ClassInspectorProvider}: asks {@link ClassInspector} about the input
 * (overview, anti-pattern scan, the classes and sources the stack frames name) and turns the
 * answers into {@link CodeEvidence}. Not thread-safe: one per call.
 */
final class CodeReading {
  /** Source lines shown on each side of a frame's line. */
  static final int CONTEXT_LINES = 3;
  private static final int MAX_NOTES = 40;
  private static final int MAX_CALLS_NOTED = 12;
  private static final int MAX_SNIPPET_LINE = 300;
  /** An instruction line of a ClassDetail listing that starts a new source line: {@code "   L38  12: aload_1"}. */
  private static final Pattern GUTTER = Pattern.compile("\\s*L(\\d+)\\s+\\d+: ");
  private static final Pattern SPARK_JAR = Pattern.compile(
      "(?:^|/)spark-(?:core|sql|catalyst)_[\\d.]+-(\\d[\\w.+-]*?)\\.jar$");
  private static final Set<String> BOXES = Set.of("java.lang.Integer", "java.lang.Long",
      "java.lang.Double", "java.lang.Float", "java.lang.Short", "java.lang.Byte",
      "java.lang.Character", "java.lang.Boolean", "java.lang.String");
  private static final Set<String> NOISE_OWNERS = Set.of("java.lang.StringBuilder",
      "java.lang.StringBuffer", "java.util.Objects", "scala.runtime.BoxesRunTime",
      "kotlin.jvm.internal.Intrinsics", "scala.runtime.java8.JFunction0$mcV$sp");

  private final Target target;
  private final ByteSource source;
  private final String sourceDisplay;
  private final List<StackFrame> frames;
  private final ClassInspector inspector;
  private final Set<String> notes = new LinkedHashSet<>();
  private int droppedNotes;
  private final List<CodeLocation> locations = new ArrayList<>();
  private final Map<ClassDetail, Map<MethodSummary, int[]>> ranges = new IdentityHashMap<>();

  CodeReading(Target target, ByteSource source, ByteSources sources, InspectorLimits limits,
      List<StackFrame> frames) {
    this.target = target;
    this.source = source;
    this.sourceDisplay = Redactor.redactUri(source.name());
    this.frames = List.copyOf(new LinkedHashSet<>(frames));
    this.inspector = ClassInspector.builder().sources(sources).limits(limits).build();
  }

  CodeEvidence read() {
    Optional<String> entry = target.entry();
    String byName = Kinds.byName(target.lastName()).orElse("");
    if (Kinds.isSource(byName)) {
      return source(entry, byName);
    }
    Inspection first;
    try {
      first = inspector.inspect(source, entry);
    } catch (RuntimeException e) {
      throw ClassInspectorProvider.failure(target.display(), e);
    }
    if (first instanceof ArchiveOverview o) {
      return archive(o, entry, byName);
    }
    if (first instanceof ClassView v) {
      return classes(v);
    }
    // Any other text (an entry with no source extension): read it as a source.
    return source(entry, first instanceof SourceView s ? s.language() : "text");
  }

  // ---- archives -------------------------------------------------------------------------------

  private CodeEvidence archive(ArchiveOverview o, Optional<String> entry, String byName) {
    for (String n : o.notes()) {
      // An archive with no classes (a --py-files zip) is not run with spark-submit --class.
      if (o.classes() > 0 || !n.contains("spark-submit needs --class")) {
        note(n);
      }
    }
    o.warnings().forEach(w -> note("packaging: " + w));
    List<Finding> found = List.of();
    int omitted = 0;
    try {
      Inspection scan = inspector.toBuilder().findingsOnly(true).build().inspect(source, entry);
      found = scan.findings();
      omitted = scan.findingsOmitted();
      scan.notes().forEach(this::note);
    } catch (RuntimeException e) {
      // The overview was read, so the archive is usable: a scan cut short (a total inflate cap,
      // a damaged entry) loses the findings, not the rest.
      note("the anti-pattern scan stopped: " + message(e));
    }
    Map<String, PackageCount> packages = new HashMap<>();
    for (PackageCount p : o.packages()) {
      packages.put(p.name(), p);
    }
    // A sampled overview may have missed a package, so it cannot rule a frame out.
    boolean unsure = o.estimated();
    boolean anySources = unsure || o.packages().stream().anyMatch(p -> p.sources() > 0);
    ClassInspector single = inspector.toBuilder().followInnerClasses(false).build();
    Map<String, Optional<ClassDetail>> read = new HashMap<>();
    for (StackFrame f : frames) {
      if (locations.size() >= ClassInspectorProvider.MAX_LOCATIONS || interrupted()) {
        break;
      }
      if (f.className().isEmpty()) {
        if (anySources) {
          pythonEntry(f).flatMap(name -> sourceEntry(entry, name, f)).ifPresent(locations::add);
        }
        continue;
      }
      String pkg = packageOf(f.className());
      PackageCount p = packages.get(pkg);
      Optional<ClassDetail> d = Optional.empty();
      if (unsure || p != null && p.classes() > 0) {
        d = read.computeIfAbsent(f.className(), c -> readClass(single, entry, c));
      }
      if (d.isPresent()) {
        locations.add(classLocation(f, d.get()));
      } else if (!f.file().isEmpty() && (unsure || p != null && p.sources() > 0)) {
        // A sources jar, or sources shipped beside the classes: the frame's file in its package.
        String name = (pkg.equals("(default package)") ? "" : pkg.replace('.', '/') + "/")
            + baseName(f.file());
        sourceEntry(entry, name, f).ifPresent(locations::add);
      }
    }
    String kind = Kinds.isArchive(target.lastName()) ? byName : "jar";
    return evidence(kind, archiveSummary(kind, o), found, omitted);
  }

  private String archiveSummary(String kind, ArchiveOverview o) {
    List<String> parts = new ArrayList<>();
    parts.add(kind);
    parts.add(plural(o.entries(), "entry", "entries"));
    parts.add(plural(o.classes(), "class", "classes"));
    o.mainClass().ifPresent(m -> parts.add("Main-Class " + m));
    Optional.ofNullable(o.manifest().get("Start-Class")).ifPresent(s -> parts.add("Start-Class " + s));
    sparkVersion(o).ifPresent(v -> parts.add("Spark " + v));
    o.scala().ifPresent(s -> parts.add("Scala " + s.version()));
    if (o.estimated()) {
      parts.add("counts estimated from a sample of the directory");
    }
    return String.join(", ", parts);
  }

  /** The Spark version the archive bundles, when its Maven metadata or nested jars say it. */
  private static Optional<String> sparkVersion(ArchiveOverview o) {
    for (String a : o.bundledArtifacts()) {
      String[] p = a.split(":");
      if (p.length >= 3 && p[0].equals("org.apache.spark")
          && p[1].matches("spark-(core|sql|catalyst)_.*") && !p[2].isBlank()) {
        return Optional.of(p[2]);
      }
    }
    for (NestedArchive n : o.nestedArchives()) {
      Matcher m = SPARK_JAR.matcher(n.name());
      if (m.find()) {
        return Optional.of(m.group(1));
      }
    }
    return Optional.empty();
  }

  /** The class's detail, when the archive holds exactly that class. */
  private Optional<ClassDetail> readClass(ClassInspector single, Optional<String> entry, String className) {
    String name = className.replace('.', '/') + ".class";
    try {
      Inspection i = single.inspect(source, Optional.of(entry.map(e -> e + "!/").orElse("") + name));
      if (!(i instanceof ClassView v) || v.classes().isEmpty()) {
        return Optional.empty();
      }
      ClassDetail d = v.classes().get(0);
      // The inspector also resolves bare and case-folded names: only the frame's own class counts.
      if (!d.name().equals(className)) {
        return Optional.empty();
      }
      v.notes().forEach(this::note);
      return Optional.of(d);
    } catch (EntryNotFoundException | AmbiguousEntryException e) {
      return Optional.empty(); // not this code's class: skipped silently
    } catch (RuntimeException e) {
      note(className + " (a stack frame's class) could not be read: " + message(e));
      return Optional.empty();
    }
  }

  /** The archive entry a Python frame's file is, e.g. {@code pkg/util.py} for {@code .../deps.zip/pkg/util.py}. */
  private Optional<String> pythonEntry(StackFrame f) {
    String file = f.file().replace('\\', '/');
    String name = baseName(file);
    if (!Kinds.isSource(Kinds.byName(name).orElse(""))) {
      return Optional.empty();
    }
    // --py-files archives are unpacked under their own name or imported from it in place.
    String archive = target.lastName();
    int at = file.indexOf("/" + archive + "/");
    if (at >= 0) {
      return Optional.of(file.substring(at + archive.length() + 2));
    }
    if (file.startsWith(archive + "/")) {
      return Optional.of(file.substring(archive.length() + 1));
    }
    return Optional.of(name);
  }

  /** The lines around a frame in a source entry of the archive, when the entry exists. */
  private Optional<CodeLocation> sourceEntry(Optional<String> entry, String name, StackFrame f) {
    Optional<String> path = Optional.of(entry.map(e -> e + "!/").orElse("") + name);
    int line = f.line().orElse(1);
    try {
      Optional<Inspection> i = window(path, Math.max(1, line - CONTEXT_LINES), line + CONTEXT_LINES);
      if (i.isEmpty()) {
        i = window(path, 1, 1);
      }
      if (i.isEmpty() || !(i.get() instanceof SourceView s)
          || !baseName(s.source()).equals(baseName(name))) {
        return Optional.empty();
      }
      s.notes().forEach(this::note);
      return Optional.of(sourceLocation(f, s, shortName(s.source())));
    } catch (EntryNotFoundException | AmbiguousEntryException e) {
      return Optional.empty();
    } catch (RuntimeException e) {
      note(name + " (a stack frame's file) could not be read: " + message(e));
      return Optional.empty();
    }
  }

  // ---- classes --------------------------------------------------------------------------------

  private CodeEvidence classes(ClassView v) {
    v.notes().forEach(this::note);
    for (StackFrame f : frames) {
      if (locations.size() >= ClassInspectorProvider.MAX_LOCATIONS) {
        break;
      }
      for (ClassDetail d : v.classes()) {
        if (!f.className().isEmpty() && d.name().equals(f.className())) {
          locations.add(classLocation(f, d));
          break;
        }
      }
    }
    ClassDetail main = v.classes().get(0);
    List<String> parts = new ArrayList<>();
    parts.add("class " + main.name() + " (" + main.java()
        + main.sourceFile().map(s -> ", " + s).orElse("") + ")");
    parts.add(plural(main.methods().size(), "method", "methods"));
    if (v.classes().size() > 1) {
      parts.add(plural(v.classes().size() - 1, "inner class or closure", "inner classes and closures")
          + " followed");
    }
    main.malformed().ifPresent(m -> parts.add("malformed: " + m));
    return evidence("class", String.join(", ", parts), v.findings(), v.findingsOmitted());
  }

  private CodeLocation classLocation(StackFrame f, ClassDetail d) {
    String file = shortName(d.entry()) + d.sourceFile().map(s -> " (" + s + ")").orElse("");
    OptionalInt line = f.line();
    List<String> parts = new ArrayList<>();
    if (d.malformed().isPresent()) {
      parts.add("the class could be read only in part: " + d.malformed().get());
      return new CodeLocation(f, file, line, List.of(), String.join("; ", parts));
    }
    List<MethodSummary> named = d.methods().stream().filter(m -> m.name().equals(f.method())).toList();
    if (named.isEmpty()) {
      parts.add("this build of " + simpleName(d.name()) + " has no method " + f.method()
          + ": the code may not be the build that ran");
      return new CodeLocation(f, file, line, List.of(), String.join("; ", parts));
    }
    Map<MethodSummary, int[]> lines = ranges.computeIfAbsent(d, CodeReading::lineRanges);
    MethodSummary m = named.get(0);
    if (line.isPresent()) {
      int l = line.getAsInt();
      // Overloads share a name: the one whose lines hold the frame's line is the one that ran.
      for (MethodSummary c : named) {
        int[] r = lines.get(c);
        if (r != null && l >= r[0] && l <= r[1]) {
          m = c;
          break;
        }
      }
    }
    String calls = calls(m, line);
    if (!calls.isEmpty()) {
      parts.add(calls);
    }
    int[] r = lines.get(m);
    if (line.isPresent() && r != null && (line.getAsInt() < r[0] || line.getAsInt() > r[1])) {
      parts.add("line " + line.getAsInt() + " is outside " + m.name() + "'s lines " + r[0] + "-"
          + r[1] + " in this build: the code may not be the build that ran");
    } else if (line.isEmpty() && m.firstLine().isPresent()) {
      line = m.firstLine();
      parts.add("the frame names no line; " + m.name() + " starts at line " + line.getAsInt());
    } else if (line.isPresent() && r == null && lines.isEmpty()) {
      parts.add("the class has no line numbers (compiled without debug information), so the "
          + "line could not be checked");
    }
    return new CodeLocation(f, file, line, List.of(), String.join("; ", parts));
  }

  /**
   * Each method's first and last source line: from the listing's line gutter (every line of the
   * LineNumberTable, in the listing's method order), widened by the call graph's lines.
   */
  static Map<MethodSummary, int[]> lineRanges(ClassDetail d) {
    Map<String, List<MethodSummary>> byHeader = new HashMap<>();
    for (MethodSummary m : d.methods()) {
      byHeader.computeIfAbsent("  " + m.declaration() + ";", k -> new ArrayList<>()).add(m);
    }
    Map<MethodSummary, int[]> out = new IdentityHashMap<>();
    Set<MethodSummary> seen = new HashSet<>();
    MethodSummary current = null;
    for (String l : d.listing()) {
      List<MethodSummary> header = byHeader.get(l);
      if (header != null) {
        current = header.stream().filter(seen::add).findFirst().orElse(null);
        continue;
      }
      if (current != null) {
        Matcher g = GUTTER.matcher(l);
        if (g.lookingAt()) {
          widen(out, current, Integer.parseInt(g.group(1)));
        }
      }
    }
    for (MethodSummary m : d.methods()) {
      m.firstLine().ifPresent(l -> widen(out, m, l));
      for (ClassView.Call c : m.calls()) {
        c.line().ifPresent(l -> widen(out, m, l));
      }
    }
    return out;
  }

  private static void widen(Map<MethodSummary, int[]> ranges, MethodSummary m, int line) {
    int[] r = ranges.computeIfAbsent(m, k -> new int[] {line, line});
    r[0] = Math.min(r[0], line);
    r[1] = Math.max(r[1], line);
  }

  /**
   * {@code calls Dataset.collectAsList(), Long.parseLong}: the method's Spark calls, then its
   * other calls, those on the frame's line first; boxing, string building, null checks and
   * for-each plumbing are left out, as they hardly ever explain a failure.
   */
  static String calls(MethodSummary m, OptionalInt line) {
    Set<String> spark = new LinkedHashSet<>();
    Set<String> atLine = new LinkedHashSet<>();
    Set<String> other = new LinkedHashSet<>();
    for (ClassView.Call c : m.calls()) {
      if (c.kind() != ClassView.CallKind.INVOKE) {
        continue;
      }
      String t = c.target();
      int paren = t.indexOf('(');
      String qualified = paren >= 0 ? t.substring(0, paren) : t;
      int dot = qualified.lastIndexOf('.');
      if (dot <= 0) {
        continue;
      }
      String owner = qualified.substring(0, dot);
      String name = qualified.substring(dot + 1);
      String simple = owner.substring(owner.lastIndexOf('.') + 1);
      while (simple.endsWith("$") && simple.length() > 1) {
        simple = simple.substring(0, simple.length() - 1); // a Scala object
      }
      simple = simple.replace('$', '.'); // SparkSession$Builder reads as SparkSession.Builder
      if (c.spark().isPresent() || owner.startsWith("org.apache.spark.")) {
        spark.add(simple + "." + name + "()");
        continue;
      }
      if (noise(owner, name)) {
        continue;
      }
      String shown = name.equals("<init>") ? "new " + simple : simple + "." + name;
      boolean here = line.isPresent() && c.line().isPresent() && c.line().getAsInt() == line.getAsInt();
      (here ? atLine : other).add(shown);
    }
    List<String> all = new ArrayList<>(spark);
    atLine.forEach(s -> {
      if (!all.contains(s)) {
        all.add(s);
      }
    });
    other.forEach(s -> {
      if (!all.contains(s)) {
        all.add(s);
      }
    });
    if (all.isEmpty()) {
      return "";
    }
    String shown = String.join(", ", all.subList(0, Math.min(MAX_CALLS_NOTED, all.size())));
    return "calls " + shown + (all.size() > MAX_CALLS_NOTED
        ? " and " + (all.size() - MAX_CALLS_NOTED) + " more" : "");
  }

  private static boolean noise(String owner, String name) {
    if (NOISE_OWNERS.contains(owner) || owner.startsWith("java.lang.invoke.")) {
      return true;
    }
    if (owner.equals("java.lang.Object") && name.equals("<init>")) {
      return true;
    }
    // The plumbing of a for-each loop.
    if ((owner.startsWith("java.util.") || owner.startsWith("scala.collection."))
        && (name.equals("iterator") || name.equals("hasNext") || name.equals("next"))) {
      return true;
    }
    return BOXES.contains(owner) && (name.equals("valueOf") || name.endsWith("Value"));
  }

  // ---- sources --------------------------------------------------------------------------------

  private CodeEvidence source(Optional<String> entry, String kind) {
    String base = baseName(target.lastName());
    List<StackFrame> matching = new ArrayList<>();
    for (StackFrame f : frames) {
      if (!f.file().isEmpty() && baseName(f.file()).equals(base)
          && matching.size() < ClassInspectorProvider.MAX_LOCATIONS) {
        matching.add(f);
      }
    }
    int lo = matching.stream().filter(f -> f.line().isPresent())
        .mapToInt(f -> f.line().getAsInt()).min().orElse(1);
    int hi = matching.stream().filter(f -> f.line().isPresent())
        .mapToInt(f -> f.line().getAsInt()).max().orElse(1);
    Inspection read;
    try {
      // One read covers every frame's lines (a source is at most maxSourceBytes).
      Optional<Inspection> w = window(entry, Math.max(1, lo - CONTEXT_LINES), hi + CONTEXT_LINES);
      read = w.isPresent() ? w.get() : window(entry, 1, 1).orElseThrow();
    } catch (RuntimeException e) {
      throw ClassInspectorProvider.failure(target.display(), e);
    }
    if (read instanceof ClassView v) {
      return classes(v); // a class file with a source's name
    }
    if (!(read instanceof SourceView s)) {
      return evidence(kind, kind, read.findings(), read.findingsOmitted());
    }
    s.notes().forEach(this::note);
    String label = shortName(s.source());
    for (StackFrame f : matching) {
      locations.add(sourceLocation(f, s, label));
    }
    String language = kind.equals("text") ? s.language() : kind;
    String summary = language + " source, " + s.totalLines() + (s.totalLinesExact() ? "" : "+")
        + " lines";
    return evidence(language, summary, s.findings(), s.findingsOmitted());
  }

  /**
   * The file (or entry) from line {@code from} to {@code to}; empty when {@code from} is past its
   * end.
   */
  private Optional<Inspection> window(Optional<String> entry, int from, int to) {
    ClassInspector w = inspector.toBuilder().startLine(from).maxSourceLines(Math.max(1, to - from + 1))
        .build();
    try {
      return Optional.of(w.inspect(source, entry));
    } catch (InvalidRequestException e) {
      if (from > 1) {
        return Optional.empty(); // the file is shorter than the frame's line
      }
      throw e;
    }
  }

  private CodeLocation sourceLocation(StackFrame f, SourceView s, String label) {
    if (f.line().isEmpty()) {
      return new CodeLocation(f, label, OptionalInt.empty(), List.of(), "the frame names no line");
    }
    int line = f.line().getAsInt();
    if (s.totalLinesExact() && line > s.totalLines()) {
      return new CodeLocation(f, label, f.line(), List.of(), "line " + line + " is past the end of "
          + label + " (" + plural((int) s.totalLines(), "line", "lines") + "): the source may not "
          + "be the version that ran");
    }
    List<Integer> numbers = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int n = Math.max(1, line - CONTEXT_LINES); n <= line + CONTEXT_LINES; n++) {
      int i = n - s.firstLine();
      if (i >= 0 && i < s.lines().size()) {
        numbers.add(n);
        texts.add(s.lines().get(i).stripTrailing());
      }
    }
    if (texts.isEmpty()) {
      return new CodeLocation(f, label, f.line(), List.of(), "line " + line
          + " is beyond the part of " + label + " that was read");
    }
    // The block's common indentation says nothing; its relative indentation shows the structure.
    int indent = Integer.MAX_VALUE;
    for (String t : texts) {
      if (!t.isBlank()) {
        indent = Math.min(indent, t.length() - t.stripLeading().length());
      }
    }
    List<String> snippet = new ArrayList<>();
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      t = t.isBlank() ? "" : t.substring(Math.min(indent, t.length()));
      if (t.length() > MAX_SNIPPET_LINE) {
        t = t.substring(0, MAX_SNIPPET_LINE) + "...";
      }
      snippet.add(numbers.get(k) + (t.isEmpty() ? ":" : ": " + t));
    }
    return new CodeLocation(f, label, f.line(), snippet, "");
  }

  // ---- common ---------------------------------------------------------------------------------

  /**
   * The evidence, with at most {@link ClassInspectorProvider#MAX_FINDINGS} of {@code found};
   * {@code omitted} more were left out already by the inspection's own cap.
   */
  private CodeEvidence evidence(String kind, String summary, List<Finding> found, int omitted) {
    // When capped, findings in the frames' classes come first: they are the likeliest culprits.
    Set<String> frameClasses = new HashSet<>();
    for (StackFrame f : frames) {
      if (!f.className().isEmpty()) {
        frameClasses.add(outer(f.className()));
      }
    }
    List<Finding> ordered = new ArrayList<>(found);
    ordered.sort(Comparator.comparing(
        (Finding f) -> !f.className().map(c -> frameClasses.contains(outer(c))).orElse(false)));
    List<CodeFinding> findings = new ArrayList<>();
    for (Finding f : ordered.subList(0, Math.min(ClassInspectorProvider.MAX_FINDINGS, ordered.size()))) {
      findings.add(new CodeFinding(f.pattern().id(), f.pattern().title(), f.location(), f.evidence(),
          f.remediation()));
    }
    int total = ordered.size() + omitted;
    if (total > findings.size()) {
      note(total + " anti-pattern findings; the first " + findings.size() + " are listed");
    }
    String withFindings = summary + ", " + plural(total, "finding", "findings");
    List<String> allNotes = new ArrayList<>(notes);
    if (droppedNotes > 0) {
      allNotes.add(droppedNotes + " more notes not shown");
    }
    return new CodeEvidence(target.display(), kind, withFindings, findings, locations, allNotes);
  }

  private void note(String note) {
    if (notes.size() < MAX_NOTES) {
      notes.add(note);
    } else if (!notes.contains(note)) {
      droppedNotes++;
    }
  }

  private boolean interrupted() {
    if (Thread.currentThread().isInterrupted()) {
      note("stopped looking up stack frames: the inspection was interrupted");
      return true;
    }
    return false;
  }

  /** {@code app.jar!/com/x/Job.class} for {@code /long/path/app.jar!/com/x/Job.class}. */
  private String shortName(String display) {
    String file = ClassInspectorProvider.fileName(sourceDisplay);
    if (display.startsWith(sourceDisplay)) {
      return file + display.substring(sourceDisplay.length());
    }
    return display;
  }

  private static String message(Throwable e) {
    return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
  }

  static String baseName(String file) {
    String f = file.replace('\\', '/');
    int bang = f.lastIndexOf("!/");
    if (bang >= 0) {
      f = f.substring(bang + 2);
    }
    return f.substring(f.lastIndexOf('/') + 1);
  }

  private static String packageOf(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "(default package)" : className.substring(0, dot);
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  private static String outer(String className) {
    int dollar = className.indexOf('$', className.lastIndexOf('.') + 1);
    return dollar > 0 ? className.substring(0, dollar) : className;
  }

  private static String plural(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }
}

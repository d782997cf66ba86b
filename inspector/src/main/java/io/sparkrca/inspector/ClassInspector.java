package io.sparkrca.inspector;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.inspector.ClassView.ClassDetail;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks inside a Spark job's deployed code: JAR/ZIP archives (by ranged reads of the central
 * directory and of the wanted entries only, never extracting entries to disk; only a compressed
 * nested jar too big for memory is inflated to a private temporary file, deleted when the
 * inspection ends), single class files and
 * plain sources. Gives an archive overview, a {@code javap -c -p}-like disassembly of a class
 * with ranked string constants and a call graph, numbered text, and the Spark anti-patterns in
 * bytecode and source.
 *
 * <p>Any URI a {@link ByteSources} registry opens works (local paths, {@code https://}, and
 * {@code gs://} with the gcp module); {@code app.jar!/com/x/Job.class} names an entry, and
 * {@code app.jar!/BOOT-INF/lib/lib.jar!/com/y/Z.class} one inside a nested jar.
 *
 * <pre>{@code
 * ClassInspector inspector = ClassInspector.create();
 * Inspection result = inspector.inspect("gs://bucket/jobs/app.jar!/com/example/Job.class");
 * System.out.println(result.toText());
 * }</pre>
 *
 * <p>Configured:
 *
 * <pre>{@code
 * ClassInspector inspector = ClassInspector.builder()
 *     .maxLines(500)
 *     .followInnerClasses(false)
 *     .limits(InspectorLimits.defaults().withMaxEntryBytes(8 << 20))
 *     .build();
 * FindingsReport report =
 *     (FindingsReport) inspector.toBuilder().findingsOnly(true).build().inspect("app.jar");
 * }</pre>
 *
 * <p><b>Remote archives.</b> Nothing is downloaded whole. An overview costs one 64-byte ranged
 * request for the size (its bytes also give the magic number), one for the archive's last KiB
 * (the end record), the central directory in ranged reads of up to 1 MiB, and one small read each
 * for the manifest and a few class headers: 5 requests and 0.01% of a 200 MB spring-boot fat
 * jar. One class adds one read of its compressed bytes; a class in a stored nested jar adds that
 * jar's end record and directory, read in place. Overviews are exact, so they read the whole
 * central directory, which is 3-8% of a flat shaded jar of small classes; {@link
 * Builder#overviewSampling(double)} bounds that, with counts labelled as estimates. HTTP
 * timeouts, retries, credentials and extra CAs are settings of the {@link
 * io.sparkrca.core.io.HttpByteSourceProvider} in the {@link ByteSources} given to {@link
 * Builder#sources}; a server that ignores {@code Range} is refused, not downloaded.
 *
 * <pre>{@code
 * ClassInspector remote = ClassInspector.builder()
 *     .sources(ByteSources.builder().add(HttpByteSourceProvider.of(HttpSettings.builder()
 *         .header("Authorization", "Bearer " + token)
 *         .readTimeout(Duration.ofSeconds(20))
 *         .build())).build())
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; each {@code inspect} call has its own caps.
 */
public final class ClassInspector {
  private static final Logger LOG = LoggerFactory.getLogger(ClassInspector.class);
  private static final int DEFAULT_SOURCE_LINES = 300;
  private static final int DEFAULT_CLASS_LINES = 2_000;
  private static final int DEFAULT_FOLLOWED = 10;
  private static final List<String> LIBRARY_PREFIXES = List.of("java/", "javax/", "jakarta/",
      "jdk/", "sun/", "com/sun/", "scala/", "kotlin/", "kotlinx/", "org/apache/", "com/google/",
      "com/fasterxml/", "io/netty/", "org/slf4j/", "org/eclipse/", "org/json4s/", "org/glassfish/",
      "org/codehaus/", "org/objectweb/", "net/jpountz/", "org/xerial/", "com/github/luben/",
      "org/roaringbitmap/", "com/esotericsoftware/", "org/yaml/", "io/grpc/", "okhttp3/", "okio/",
      "org/checkerframework/", "org/jetbrains/", "org/intellij/", "com/twitter/", "org/typelevel/",
      "cats/", "shapeless/", "io/circe/", "akka/", "com/typesafe/", "org/joda/", "org/antlr/",
      "org/bouncycastle/", "org/springframework/", "ch/qos/", "org/hamcrest/", "junit/",
      "org/junit/", "com/amazonaws/", "software/amazon/", "com/microsoft/", "io/delta/",
      "org/postgresql/", "com/mysql/", "io/opentelemetry/", "io/opencensus/", "io/perfmark/",
      "com/squareup/", "org/threeten/", "org/reactivestreams/", "net/bytebuddy/", "org/xml/",
      "org/w3c/", "org/jctools/", "com/ctc/", "org/tukaani/", "org/lz4/", "org/iq80/",
      "org/sparkproject/", "org/datanucleus/", "com/zaxxer/", "org/HdrHistogram/", "io/airlift/",
      "com/clearspring/", "org/jpmml/", "breeze/", "spire/", "algebra/", "com/univocity/",
      "org/locationtech/", "com/jcraft/", "io/dropwizard/", "com/codahale/", "org/htrace/",
      "io/prometheus/", "org/mortbay/", "org/znerd/", "org/javassist/", "javassist/",
      "org/apiguardian/", "org/opentest4j/", "org/assertj/", "org/mockito/", "META-INF/");

  private final ByteSources sources;
  private final int maxSourceLines;
  private final int maxClassLines;
  private final int startLine;
  private final boolean follow;
  private final int maxFollowed;
  private final boolean findingsOnly;
  private final InspectorLimits limits;
  private final double overviewSampling;

  private ClassInspector(Builder b) {
    this.sources = b.sources;
    this.maxSourceLines = b.maxSourceLines;
    this.maxClassLines = b.maxClassLines;
    this.startLine = b.startLine;
    this.follow = b.follow;
    this.maxFollowed = b.maxFollowed;
    this.findingsOnly = b.findingsOnly;
    this.limits = b.limits;
    this.overviewSampling = b.overviewSampling;
  }

  /** An inspector with the defaults: 300 source lines, 2,000 disassembly lines, follow on. */
  public static ClassInspector create() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this inspector's settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.sources = sources;
    b.maxSourceLines = maxSourceLines;
    b.maxClassLines = maxClassLines;
    b.startLine = startLine;
    b.follow = follow;
    b.maxFollowed = maxFollowed;
    b.findingsOnly = findingsOnly;
    b.limits = limits;
    b.overviewSampling = overviewSampling;
    return b;
  }

  /**
   * Inspects {@code uri}: an archive overview, or the entry its {@code !/} fragment names, or a
   * class file or source.
   *
   * @throws EntryNotFoundException when the named entry does not exist (the message lists the
   *     nearest names)
   * @throws AmbiguousEntryException when a bare or case-insensitive name matches several entries
   * @throws io.sparkrca.core.error.InputNotFoundException when {@code uri} does not exist
   * @throws io.sparkrca.core.error.AccessDeniedException when it may not be read
   * @throws io.sparkrca.core.error.CorruptInputException when it is truncated or damaged
   * @throws io.sparkrca.core.error.SparkRcaException for other unreadable, hostile or unsupported
   *     input, always naming it, with a message that says what to do
   */
  public Inspection inspect(String uri) {
    return inspect(uri, "");
  }

  /**
   * Inspects one entry of the archive at {@code uri}. The entry wins over a {@code !/} fragment
   * naming a class; after a fragment naming a nested archive it is looked up inside that archive.
   * It may go through nested archives itself ({@code BOOT-INF/lib/x.jar!/com/x/Job.class}). A
   * blank entry means none.
   */
  public Inspection inspect(String uri, String entry) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(entry, "entry");
    String base = uri;
    List<String> chain = new ArrayList<>();
    int bang = uri.indexOf("!/");
    if (bang >= 0) {
      base = uri.substring(0, bang);
      for (String part : uri.substring(bang + 2).split("!/")) {
        if (!part.isBlank()) {
          chain.add(part);
        }
      }
    }
    List<String> notes = new ArrayList<>();
    if (!entry.isBlank()) {
      // An entry may itself go through nested archives: BOOT-INF/lib/x.jar!/com/x/Job.class.
      List<String> parts = new ArrayList<>();
      for (String part : entry.strip().split("!/")) {
        if (!part.isBlank()) {
          parts.add(part);
        }
      }
      if (!chain.isEmpty() && !TextKinds.isArchiveName(chain.get(chain.size() - 1))) {
        notes.add("the entry '" + entry.strip() + "' takes precedence over the fragment '"
            + chain.get(chain.size() - 1) + "'");
        chain.remove(chain.size() - 1);
      }
      chain.addAll(parts);
    }
    if (base.isBlank()) {
      throw new InvalidRequestException("no URI given: pass a path, gs:// or https:// URI");
    }
    ByteSource source = sources.open(base);
    return inspect(source, Redactor.redactUri(base), chain, notes);
  }

  /**
   * How the code at {@code candidateUri} differs from the code at {@code baselineUri}: two builds
   * of a job's JAR (entries added, removed and changed, told apart by the central directories'
   * CRC-32s without reading unchanged entries; the string constants that appeared or went away in
   * each changed class), two class files, or two versions of a script (its lines).
   *
   * <pre>{@code
   * CodeDiff d = ClassInspector.create().diff("releases/1.4/app.jar", "releases/1.5/app.jar");
   * d.changed().forEach(c -> System.out.println(c.name() + ": +" + c.addedStrings()));
   * }</pre>
   *
   * @throws io.sparkrca.core.error.SparkRcaException naming the input that could not be read
   */
  public io.sparkrca.core.evidence.CodeDiff diff(String baselineUri, String candidateUri) {
    Objects.requireNonNull(baselineUri, "baselineUri");
    Objects.requireNonNull(candidateUri, "candidateUri");
    return new CodeDiffer(limits).diff(sources.open(baselineUri), sources.open(candidateUri));
  }

  /**
   * Inspects a source directly; {@code entry} (empty for none) names an archive entry, or a chain
   * of them joined by {@code !/}.
   */
  public Inspection inspect(ByteSource source, Optional<String> entry) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(entry, "entry");
    List<String> chain = new ArrayList<>();
    entry.ifPresent(e -> {
      for (String part : e.split("!/")) {
        if (!part.isBlank()) {
          chain.add(part);
        }
      }
    });
    return inspect(source, Redactor.redactUri(source.name()), chain, new ArrayList<>());
  }

  private Inspection inspect(ByteSource source, String display, List<String> chain,
      List<String> notes) {
    // Closing the context deletes the temporary files of large compressed nested archives; the
    // result holds no reference to them.
    try (ReadContext ctx = new ReadContext(limits)) {
      notes.forEach(ctx::note);
      LOG.debug("inspecting {} {}", display, chain);
      // The source's I/O failures (missing, denied, cut off...) become exceptions naming the input.
      return IoErrors.call(display, () -> dispatch(source, display, chain, ctx));
    }
  }

  private Inspection dispatch(ByteSource src, String display, List<String> chain,
      ReadContext ctx) throws IOException {
    // The size first: a remote source learns it from a small ranged read of the first bytes, which
    // it keeps, so the magic bytes below cost no second request.
    src.size();
    byte[] head = src.read(0, 8);
    boolean classMagic = head.length >= 4 && (head[0] & 0xFF) == 0xCA
        && (head[1] & 0xFF) == 0xFE && (head[2] & 0xFF) == 0xBA && (head[3] & 0xFF) == 0xBE;
    if (ZipArchive.hasZipMagic(head) || (!classMagic && TextKinds.isArchiveName(src.fileName()))) {
      boolean overview = chain.isEmpty() && !findingsOnly;
      ZipArchive zip = ZipArchive.open(src, ctx, overview ? overviewSampling : 0);
      if (chain.isEmpty()) {
        if (findingsOnly) {
          return scanArchive(zip, display, ctx);
        }
        ArchiveOverview o = OverviewBuilder.build(zip, display, ctx);
        if (ctx.notes().isEmpty()) {
          return o;
        }
        List<String> all = new ArrayList<>(o.notes());
        ctx.notes().forEach(n -> {
          if (!all.contains(n)) {
            all.add(n);
          }
        });
        return new ArchiveOverview(o.source(), o.sizeBytes(), o.entries(), o.declaredEntries(),
            o.files(), o.directories(), o.classes(), o.uncompressedBytes(),
            o.compressedBytes(), o.mainClass(), o.manifest(), o.packages(), o.keyEntries(),
            o.keyEntriesTotal(), o.nestedArchives(), o.relocations(), o.bundledArtifacts(),
            o.classVersions(), o.scala(), o.largestEntries(), o.warnings(), all, o.drillIn(),
            o.sample());
      }
      zip.notes.forEach(ctx::note);
      EntryResolver.Resolved r = EntryResolver.resolve(zip, chain.get(0));
      r.note().ifPresent(ctx::note);
      ZipEntryInfo e = r.entry();
      String entryDisplay = display + "!/" + Texts.safe(e.name());
      List<String> rest = chain.subList(1, chain.size());
      if (TextKinds.isArchiveName(e.name())) {
        return dispatch(zip.nested(e), entryDisplay, new ArrayList<>(rest), ctx);
      }
      if (!rest.isEmpty()) {
        throw new InvalidRequestException("'" + Texts.safe(e.name()) + "' in " + display
            + " is not an archive, so '!/" + Texts.safe(rest.get(0)) + "' cannot follow it");
      }
      if (e.isClass()) {
        return classEntry(zip, e, entryDisplay, ctx);
      }
      try (ZipArchive.EntryStream in = zip.open(e, limits.maxSourceBytes(), 64 * 1024)) {
        // At the cap, one more read tells whether the entry goes on (from the chunk already
        // fetched, or with at most one more ranged read).
        return text(in, entryDisplay, true, e.name(), ctx, () -> in.read() >= 0 || in.truncated());
      }
    }
    if (!chain.isEmpty()) {
      throw new InvalidRequestException("an entry (or a '!/' fragment) can only be named inside a "
          + ".jar/.zip archive, not in a plain file like '" + display + "'; inspect the file itself");
    }
    if (classMagic) {
      long size = src.size().orElse(-1);
      if (size > limits.maxEntryBytes()) {
        throw new io.sparkrca.core.error.CorruptInputException(display + " is "
            + Texts.bytes(size) + ", more than the " + Texts.bytes(limits.maxEntryBytes())
            + " read for one class");
      }
      byte[] bytes;
      try (InputStream in = src.openStream()) {
        bytes = in.readNBytes((int) Math.min(limits.maxEntryBytes(), Integer.MAX_VALUE - 16));
      }
      ClassAnalyzer.Result r = ClassAnalyzer.analyze(bytes, display, "requested",
          new ClassAnalyzer.Context());
      r.notes().forEach(ctx::note);
      FindingCap cap = new FindingCap();
      cap.addAll(r.findings());
      if (findingsOnly) {
        return new FindingsReport(display, 1, 0, cap.findings(), cap.omitted(), ctx.notes());
      }
      return new ClassView(display, List.of(r.detail()), cap.findings(), cap.omitted(),
          List.of(), maxClassLines, ctx.notes());
    }
    if (TextKinds.isLogName(src.fileName())) {
      throw new NotCodeException(display, TextKinds.logKindOfName(src.fileName()), false);
    }
    try (InputStream in = src.openStream()) {
      long size = src.size().orElse(-1);
      return text(in, display, false, src.fileName(), ctx,
          () -> size > limits.maxSourceBytes());
    }
  }


  // ---- text and sources -----------------------------------------------------------------------

  private interface MoreCheck {
    boolean more() throws IOException;
  }

  private Inspection text(InputStream in, String display, boolean entry, String name,
      ReadContext ctx, MoreCheck more) throws IOException {
    String fileName = name.substring(name.lastIndexOf('/') + 1);
    if (TextKinds.isLogName(fileName)) {
      throw new NotCodeException(display, TextKinds.logKindOfName(fileName), entry);
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    byte[] chunk = new byte[64 * 1024];
    long cap = limits.maxSourceBytes();
    int n;
    while (buf.size() < cap && (n = in.read(chunk, 0, (int) Math.min(chunk.length,
        cap - buf.size()))) > 0) {
      buf.write(chunk, 0, n);
    }
    byte[] bytes = buf.toByteArray();
    boolean partial = bytes.length >= cap && more.more();
    if (TextKinds.isBinary(bytes, bytes.length)) {
      String binary = display + " is binary (neither a class file, an archive nor text), so there is nothing to show";
      throw entry ? new UnsupportedInputException(binary + "; ", InspectorRemedies.LIST_THE_ARCHIVE)
          : new UnsupportedInputException(binary);
    }
    String content = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
        .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    List<String> lines = new ArrayList<>(List.of(content.split("\r\n|\r|\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    if (partial && !lines.isEmpty()) {
      lines.remove(lines.size() - 1); // the last line may be cut mid-way
      ctx.note("only the first " + Texts.bytes(cap) + " were read; line counts and findings "
          + "cover that part");
    }
    List<String> head = lines.subList(0, Math.min(40, lines.size()));
    if (TextKinds.looksLikeLog(head)) {
      throw new NotCodeException(display, TextKinds.logKindOfLines(head), entry);
    }
    String language = SourceAnalyzer.languageName(name);
    SourceAnalyzer.Result analysis = SourceAnalyzer.language(name)
        .map(l -> SourceAnalyzer.analyze(display, l, lines))
        .orElse(new SourceAnalyzer.Result(List.of(), 0, List.of()));
    analysis.notes().forEach(ctx::note);
    List<Finding> findings = analysis.findings();
    if (findingsOnly) {
      return new FindingsReport(display, 0, 1, findings, analysis.findingsOmitted(), ctx.notes());
    }
    int from = Math.max(1, startLine);
    if (from > lines.size() && !lines.isEmpty()) {
      throw new InvalidRequestException(display + " has " + lines.size() + " lines; the start line "
          + from + " is past its end: ", InspectorRemedies.startLine(lines.size()));
    }
    List<String> shown = new ArrayList<>();
    Redactor redactor = Redactor.standard();
    for (int i = from - 1; i < Math.min(lines.size(), from - 1 + maxSourceLines); i++) {
      shown.add(Texts.safe(redactor.redactText(lines.get(i))));
    }
    return new SourceView(display, entry, language, from, shown, lines.size(), !partial, findings,
        analysis.findingsOmitted(), ctx.notes());
  }

  // ---- classes ------------------------------------------------------------------------------

  private static String classRoot(String entryName) {
    for (String root : List.of("BOOT-INF/classes/", "WEB-INF/classes/")) {
      if (entryName.startsWith(root)) {
        return root;
      }
    }
    if (entryName.startsWith("META-INF/versions/")) {
      int next = entryName.indexOf('/', "META-INF/versions/".length());
      if (next > 0) {
        return entryName.substring(0, next + 1);
      }
    }
    return "";
  }

  private Inspection classEntry(ZipArchive zip, ZipEntryInfo e, String display, ReadContext ctx)
      throws IOException {
    byte[] bytes = zip.readAll(e, limits.maxEntryBytes());
    ClassAnalyzer.Context actx = new ClassAnalyzer.Context();
    ClassAnalyzer.Result main = ClassAnalyzer.analyze(bytes, display, "requested", actx);
    List<ClassDetail> details = new ArrayList<>(List.of(main.detail()));
    FindingCap findings = new FindingCap();
    findings.addAll(main.findings());
    main.notes().forEach(ctx::note);
    List<String> omitted = new ArrayList<>();
    if (follow) {
      String root = classRoot(e.name());
      String stem = e.name().substring(0, e.name().length() - ".class".length());
      Map<String, String> toFollow = new LinkedHashMap<>();
      List<ZipEntryInfo> companions = new ArrayList<>();
      for (ZipEntryInfo c : zip.entries) {
        if (c.isClass() && c.name().startsWith(stem + "$")) {
          companions.add(c);
        }
      }
      companions.sort(Comparator.comparing(ZipEntryInfo::name));
      for (ZipEntryInfo c : companions) {
        String tail = c.name().substring(stem.length());
        toFollow.put(c.name(), tail.equals("$.class") ? "Scala companion object"
            : tail.contains("anonfun") ? "Scala closure class" : "inner class");
      }
      for (String internal : main.follow()) {
        String name = root + internal + ".class";
        if (!name.equals(e.name()) && zip.get(name).isPresent()) {
          toFollow.putIfAbsent(name, internal.contains("$anonfun") ? "Scala closure class"
              : "lambda body class");
        }
      }
      int n = 0;
      for (Map.Entry<String, String> f : toFollow.entrySet()) {
        if (n >= maxFollowed) {
          omitted.add(Texts.safe(f.getKey()));
          continue;
        }
        n++;
        ZipEntryInfo c = zip.get(f.getKey()).orElseThrow();
        String cDisplay = zip.name().equals(display.substring(0, display.lastIndexOf("!/")))
            ? display.substring(0, display.lastIndexOf("!/")) + "!/" + Texts.safe(c.name())
            : display + " -> " + Texts.safe(c.name());
        try {
          byte[] cb = zip.readAll(c, limits.maxEntryBytes());
          ClassAnalyzer.Result r = ClassAnalyzer.analyze(cb, cDisplay, f.getValue(), actx);
          details.add(r.detail());
          findings.addAll(r.findings());
          r.notes().forEach(ctx::note);
        } catch (RuntimeException ex) {
          ctx.note(cDisplay + " was not followed: " + ex.getMessage());
        }
      }
    }
    if (findingsOnly) {
      return new FindingsReport(display, details.size(), 0, findings.findings(),
          findings.omitted(), ctx.notes());
    }
    return new ClassView(display, details, findings.findings(), findings.omitted(), omitted,
        maxClassLines, ctx.notes());
  }

  private FindingsReport scanArchive(ZipArchive zip, String display, ReadContext ctx)
      throws IOException {
    zip.notes.forEach(ctx::note);
    List<ZipEntryInfo> classes = new ArrayList<>();
    List<ZipEntryInfo> sourcesToScan = new ArrayList<>();
    int library = 0;
    for (ZipEntryInfo e : zip.entries) {
      if (e.isDirectory()) {
        continue;
      }
      boolean app = isApplication(e.name());
      if (e.isClass()) {
        if (app) {
          classes.add(e);
        } else {
          library++;
        }
      } else if (app && SourceAnalyzer.language(e.name()).isPresent()) {
        sourcesToScan.add(e);
      }
    }
    if (classes.isEmpty() && sourcesToScan.isEmpty() && library > 0) {
      ctx.note("no application classes found (every package belongs to a known library); "
          + "scanned the library classes instead");
      for (ZipEntryInfo e : zip.entries) {
        if (e.isClass()) {
          classes.add(e);
        }
      }
      library = 0;
    } else if (library > 0) {
      ctx.note(Texts.plural(library, "library class") + " (org.apache, scala, com.google...) "
          + "not scanned");
    }
    // Outer classes before their inner classes and closures, so loop contexts are known.
    classes.sort(Comparator.comparing((ZipEntryInfo e) -> outer(e.name()))
        .thenComparingInt(e -> e.name().length()).thenComparing(ZipEntryInfo::name));
    if (classes.size() > limits.maxScannedClasses()) {
      ctx.note("scanned the first " + Texts.count(limits.maxScannedClasses()) + " of "
          + Texts.count(classes.size()) + " application classes (the cap)");
      classes = classes.subList(0, limits.maxScannedClasses());
    }
    ClassAnalyzer.Context actx = new ClassAnalyzer.Context();
    FindingCap findings = new FindingCap();
    int scanned = 0;
    for (ZipEntryInfo e : classes) {
      String cDisplay = display + "!/" + Texts.safe(e.name());
      try {
        byte[] b = zip.readAll(e, limits.maxEntryBytes());
        ClassAnalyzer.Result r = ClassAnalyzer.analyze(b, cDisplay, "scanned", actx);
        findings.addAll(r.findings());
        r.notes().forEach(ctx::note);
        scanned++;
      } catch (io.sparkrca.core.error.SparkRcaException ex) {
        ctx.note(cDisplay + " skipped: " + ex.getMessage());
      }
    }
    int sourcesScanned = 0;
    for (ZipEntryInfo e : sourcesToScan) {
      String sDisplay = display + "!/" + Texts.safe(e.name());
      try (ZipArchive.EntryStream in = zip.open(e, limits.maxSourceBytes(), 64 * 1024)) {
        byte[] b = in.readAllBytes();
        String content = new String(b, StandardCharsets.UTF_8);
        List<String> lines = List.of(content.split("\r\n|\r|\n", -1));
        SourceAnalyzer.Result r = SourceAnalyzer.analyze(sDisplay,
            SourceAnalyzer.language(e.name()).orElseThrow(), lines);
        findings.addAll(r.findings());
        findings.omit(r.findingsOmitted());
        r.notes().forEach(ctx::note);
        sourcesScanned++;
      } catch (io.sparkrca.core.error.SparkRcaException ex) {
        ctx.note(sDisplay + " skipped: " + ex.getMessage());
      }
    }
    return new FindingsReport(display, scanned, sourcesScanned, findings.findings(),
        findings.omitted(), ctx.notes());
  }

  private static String outer(String name) {
    String n = name.endsWith(".class") ? name.substring(0, name.length() - 6) : name;
    int d = n.indexOf('$', n.lastIndexOf('/') + 1);
    return d > 0 ? n.substring(0, d) : n;
  }

  private static boolean isApplication(String name) {
    if (name.startsWith("BOOT-INF/classes/") || name.startsWith("WEB-INF/classes/")) {
      return true;
    }
    if (name.startsWith("BOOT-INF/") || name.startsWith("WEB-INF/")) {
      return false;
    }
    String stripped = OverviewBuilder.stripRoot(name);
    for (String p : LIBRARY_PREFIXES) {
      if (stripped.startsWith(p)) {
        return false;
      }
    }
    return !stripped.toLowerCase(Locale.ROOT).startsWith("meta-inf/");
  }

  /**
   * Configures a {@link ClassInspector}.
   *
   * <pre>{@code
   * ClassInspector i = ClassInspector.builder().maxLines(100).findingsOnly(true).build();
   * }</pre>
   */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private int maxSourceLines = DEFAULT_SOURCE_LINES;
    private int maxClassLines = DEFAULT_CLASS_LINES;
    private int startLine = 1;
    private boolean follow = true;
    private int maxFollowed = DEFAULT_FOLLOWED;
    private boolean findingsOnly;
    private InspectorLimits limits = InspectorLimits.defaults();
    private double overviewSampling;

    private Builder() {}

    /** The registry that opens URIs; {@link ByteSources#defaults()} unless set. */
    public Builder sources(ByteSources value) {
      this.sources = Objects.requireNonNull(value, "sources");
      return this;
    }

    /** The line budget for every kind of output (sources and disassembly alike). */
    public Builder maxLines(int value) {
      positive(value, "maxLines");
      this.maxSourceLines = value;
      this.maxClassLines = value;
      return this;
    }

    /** Lines of a source or text file shown; 300 unless set. */
    public Builder maxSourceLines(int value) {
      positive(value, "maxSourceLines");
      this.maxSourceLines = value;
      return this;
    }

    /** Lines of class output (summary and disassembly, all followed classes); 2,000 unless set. */
    public Builder maxClassLines(int value) {
      positive(value, "maxClassLines");
      this.maxClassLines = value;
      return this;
    }

    /** The first line of a source or text file shown (1-based); 1 unless set. */
    public Builder startLine(int value) {
      positive(value, "startLine");
      this.startLine = value;
      return this;
    }

    /** Whether inner classes, Scala closures and lambda body classes are followed; on unless set. */
    public Builder followInnerClasses(boolean value) {
      this.follow = value;
      return this;
    }

    /** How many classes are followed from the requested one; 10 unless set. */
    public Builder maxFollowedClasses(int value) {
      if (value < 0) {
        throw new InvalidRequestException(
            "maxFollowedClasses must be 0 or more (0 follows no class), was " + value);
      }
      this.maxFollowed = value;
      return this;
    }

    /**
     * Report only the anti-patterns, as a {@link FindingsReport}; on an archive with no entry this
     * scans every application class and source in it.
     */
    public Builder findingsOnly(boolean value) {
      this.findingsOnly = value;
      return this;
    }

    /** The caps against hostile input; {@link InspectorLimits#defaults()} unless set. */
    public Builder limits(InspectorLimits value) {
      this.limits = Objects.requireNonNull(value, "limits");
      return this;
    }

    /**
     * Lets an archive overview <em>sample</em> a huge central directory instead of reading all of
     * it; off ({@code 0}) unless set, so overviews are exact.
     *
     * <p>An exact overview reads the whole central directory: it cannot count a package's classes
     * or spot a bundled library without the ~100-byte record of every entry. For a spring-boot
     * fat jar that is nothing (its nested jars are single entries: 0.01% of a 200 MB one), but a
     * flat shaded jar of small classes has a directory of 3-8% of the file. With a fraction
     * {@code f} (0.015 keeps a 200 MB overview under 2% of the archive), a directory over 1 MiB
     * and over {@code f} of the archive is read as evenly spaced windows totalling {@code f} of
     * the archive (4 to 32 ranged reads; the first at the directory's start, where jar tools put
     * the manifest and the application's own classes). The overview is then {@linkplain
     * ArchiveOverview#estimated() estimated}, and its text and JSON say so: file, class and size
     * totals are scaled from the sample; package class counts are the classes seen (lower
     * bounds); packages, nested archives and packaging warnings that lie only in the unread parts
     * are missing. Measured on a 230 MB shaded jar (benchmarks/RESULTS.md): totals within a few
     * percent, but 43% of the packages and 6 of the 11 packaging warnings seen, which is why it is
     * not the default. Whole-archive findings scans and single entries are never sampled.
     *
     * <pre>{@code
     * ClassInspector quick = ClassInspector.builder().overviewSampling(0.015).build();
     * ArchiveOverview o = (ArchiveOverview) quick.inspect("https://repo.example.com/assembly.jar");
     * if (o.estimated()) { ... }
     * }</pre>
     *
     * @param maxFractionOfArchive the most of the archive's bytes the directory reads may take,
     *     between 0 (never sample: the default) and 1
     */
    public Builder overviewSampling(double maxFractionOfArchive) {
      if (!(maxFractionOfArchive >= 0 && maxFractionOfArchive <= 1)) {
        throw new InvalidRequestException(
            "overviewSampling must be between 0 (exact overviews) and 1, was " + maxFractionOfArchive);
      }
      this.overviewSampling = maxFractionOfArchive;
      return this;
    }

    public ClassInspector build() {
      return new ClassInspector(this);
    }

    private static void positive(int v, String name) {
      if (v < 1) {
        throw new InvalidRequestException(name + " must be at least 1, was " + v);
      }
    }
  }
}

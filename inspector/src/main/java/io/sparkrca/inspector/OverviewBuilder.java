package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.inspector.ArchiveOverview.ClassVersion;
import io.sparkrca.inspector.ArchiveOverview.DirectorySample;
import io.sparkrca.inspector.ArchiveOverview.EntrySize;
import io.sparkrca.inspector.ArchiveOverview.NestedArchive;
import io.sparkrca.inspector.ArchiveOverview.PackageCount;
import io.sparkrca.inspector.ArchiveOverview.Relocation;
import io.sparkrca.inspector.ArchiveOverview.ScalaTarget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds an {@link ArchiveOverview} from the central directory, plus a few small ranged reads:
 * the manifest's main section, a handful of class headers (for the class-file version) and the
 * {@code pom.properties} of Spark and Scala artifacts. It never reads whole entries it does not
 * need, so the bytes read stay a small fraction of a large archive.
 */
final class OverviewBuilder {
  static final int MAX_KEY_ENTRIES = 50;
  private static final int MAX_NESTED = 500;
  private static final int CLASS_SAMPLES = 6;
  private static final int MAX_POM_READS = 8;
  private static final Pattern POM = Pattern.compile("^META-INF/maven/([^/]+)/([^/]+)/pom\\.properties$");
  private static final Pattern SCALA_JAR = Pattern.compile(
      "(?:^|/)scala3?-library(?:_3)?-(\\d+\\.\\d+\\.\\d+[\\w.-]*)\\.jar$");
  private static final Pattern BINARY_SUFFIX = Pattern.compile("_(2\\.1[0-3]|3)(?:-|$|/)");
  private static final Set<String> KEY_EXTENSIONS = Set.of("conf", "properties", "yaml", "yml",
      "sql", "py", "json", "xml", "hql", "sh", "txt");
  private static final List<String> KNOWN_LIBRARIES = List.of("com.google.common",
      "com.google.protobuf", "com.google.gson", "com.google.thirdparty", "com.fasterxml.jackson",
      "io.netty", "org.apache.commons", "org.apache.http", "org.apache.hadoop", "org.apache.avro",
      "org.apache.parquet", "org.apache.arrow", "org.apache.thrift", "org.apache.kafka",
      "org.apache.curator", "org.apache.zookeeper", "org.apache.log4j", "org.apache.logging",
      "org.eclipse.jetty", "org.slf4j", "org.json4s", "io.grpc", "okhttp3", "okio",
      "org.checkerframework", "org.codehaus", "org.objectweb.asm", "net.jpountz", "org.xerial",
      "org.roaringbitmap", "com.esotericsoftware", "org.yaml.snakeyaml", "io.opencensus",
      "io.perfmark", "com.squareup", "org.joda.time", "org.antlr", "javax.ws.rs",
      "org.glassfish", "com.google.api", "com.google.cloud", "com.google.auth", "org.apache.orc",
      "org.apache.hive", "com.jcraft", "org.jctools", "com.ctc.wstx", "org.bouncycastle",
      "javax.annotation", "org.apache.htrace", "com.typesafe", "io.airlift", "org.tukaani",
      "com.github.luben", "org.lz4", "org.iq80", "com.google.errorprone", "com.google.j2objc",
      "net.bytebuddy", "org.reactivestreams", "io.opentelemetry", "org.apache.httpcomponents");
  private static final Set<String> MARKERS = Set.of("shaded", "shade", "relocated", "repackaged",
      "shadow", "shadowed", "vendor", "vendored", "thirdparty", "third_party", "sparkproject",
      "jarjar");
  private static final Set<String> TLDS = Set.of("com", "org", "io", "net", "javax", "edu", "de",
      "uk", "fr", "ch", "nl", "jakarta", "me", "co", "info", "dev", "ai");
  /** Short names relocations keep, and the library they stand for. */
  private static final Map<String, String> SHORT_NAMES = Map.ofEntries(
      Map.entry("guava", "com.google.common"), Map.entry("protobuf", "com.google.protobuf"),
      Map.entry("jetty", "org.eclipse.jetty"), Map.entry("netty", "io.netty"),
      Map.entry("jackson", "com.fasterxml.jackson"), Map.entry("gson", "com.google.gson"),
      Map.entry("commons", "org.apache.commons"), Map.entry("avro", "org.apache.avro"),
      Map.entry("parquet", "org.apache.parquet"), Map.entry("thrift", "org.apache.thrift"),
      Map.entry("okhttp3", "okhttp3"), Map.entry("grpc", "io.grpc"),
      Map.entry("snappy", "org.xerial.snappy"), Map.entry("zookeeper", "org.apache.zookeeper"),
      Map.entry("curator", "org.apache.curator"), Map.entry("kryo", "com.esotericsoftware.kryo"));
  /** Libraries Spark itself ships; an application jar that bundles them unrelocated risks clashes. */
  private static final Map<String, String> CLASHING = new LinkedHashMap<>();

  static {
    CLASHING.put("com/google/common/", "Guava (com.google.common)");
    CLASHING.put("com/google/protobuf/", "Protocol Buffers (com.google.protobuf)");
    CLASHING.put("com/fasterxml/jackson/", "Jackson (com.fasterxml.jackson)");
    CLASHING.put("io/netty/", "Netty (io.netty)");
    CLASHING.put("org/apache/hadoop/", "Hadoop (org.apache.hadoop)");
    CLASHING.put("org/json4s/", "json4s (org.json4s)");
    CLASHING.put("org/apache/avro/", "Avro (org.apache.avro)");
    CLASHING.put("org/apache/parquet/", "Parquet (org.apache.parquet)");
    CLASHING.put("org/apache/arrow/", "Arrow (org.apache.arrow)");
    CLASHING.put("org/apache/commons/lang3/", "commons-lang3 (org.apache.commons.lang3)");
    CLASHING.put("org/slf4j/", "SLF4J (org.slf4j)");
    CLASHING.put("org/apache/logging/log4j/", "Log4j 2 (org.apache.logging.log4j)");
    CLASHING.put("org/antlr/", "ANTLR (org.antlr)");
  }

  private final ZipArchive zip;
  private final String source;
  private final ReadContext ctx;
  private final List<String> notes = new ArrayList<>();

  private OverviewBuilder(ZipArchive zip, String source, ReadContext ctx) {
    this.zip = zip;
    this.source = source;
    this.ctx = ctx;
  }

  static ArchiveOverview build(ZipArchive zip, String source, ReadContext ctx) {
    return new OverviewBuilder(zip, source, ctx).build();
  }

  /** The package of an entry, dotted; class roots of fat-jar layouts are stripped. */
  static String packageOf(String name) {
    String n = stripRoot(name);
    int slash = n.lastIndexOf('/');
    return slash < 0 ? "(default package)" : n.substring(0, slash).replace('/', '.');
  }

  static String stripRoot(String name) {
    for (String root : List.of("BOOT-INF/classes/", "WEB-INF/classes/")) {
      if (name.startsWith(root)) {
        return name.substring(root.length());
      }
    }
    if (name.startsWith("META-INF/versions/")) {
      int next = name.indexOf('/', "META-INF/versions/".length());
      if (next > 0) {
        return name.substring(next + 1);
      }
    }
    return name;
  }

  private ArchiveOverview build() {
    Tally t = new Tally();
    zip.entries.forEach(t::add);
    t.keys.sort(Comparator.comparing((String k) -> !k.equalsIgnoreCase("META-INF/MANIFEST.MF"))
        .thenComparing(k -> k));
    if (t.keys.size() > MAX_KEY_ENTRIES) {
      t.keys = new ArrayList<>(t.keys.subList(0, MAX_KEY_ENTRIES));
    }
    t.nested.sort(Comparator.comparing(NestedArchive::name));

    Map<String, String> mf = new LinkedHashMap<>();
    if (t.manifest.isPresent()) {
      mf = readManifest(t.manifest.get());
    }
    Optional<String> mainClass = get(mf, "Main-Class");
    Optional<String> startClass = get(mf, "Start-Class");
    Optional<String> appClass = startClass.isPresent() ? startClass : mainClass;

    Optional<DirectorySample> sampled = scaleToSample(t);
    String inSample = sampled.isPresent() ? " seen in the sample" : "";
    List<PackageCount> pkgs = new ArrayList<>();
    for (Map.Entry<String, int[]> p : t.packages.entrySet()) {
      pkgs.add(new PackageCount(Texts.safe(p.getKey()), p.getValue()[0], p.getValue()[1]));
    }
    String appPackage = appClass.map(c -> c.contains(".") ? c.substring(0, c.lastIndexOf('.'))
        : "(default package)").orElse("");
    pkgs.sort(Comparator.comparing((PackageCount p) -> !p.name().equals(appPackage))
        .thenComparing(Comparator.comparingInt((PackageCount p) -> p.classes() + p.sources())
            .reversed())
        .thenComparing(PackageCount::name));

    List<String> artifacts = artifacts(t.poms);
    List<ClassVersion> versions = sampleVersions(appClass, pkgs);
    Optional<ScalaTarget> scala = scala(t.nested, t.poms, t.libraryProperties, t.scalaClasses);
    List<Relocation> relocations = relocations(pkgs);

    boolean app = appClass.isPresent() && !appClass.get().startsWith("org.apache.spark.")
        && !appClass.get().startsWith("scala.");
    List<String> warnings = app ? bundlingWarnings(t, scala, inSample) : new ArrayList<>();
    int newest = versions.stream().mapToInt(ClassVersion::major).max().orElse(0);
    if (newest > 61) {
      warnings.add("some classes need " + Bytecode.javaRelease(newest) + " (class file "
          + newest + ") at run time; on an older JVM they fail with "
          + "UnsupportedClassVersionError (Spark 3.5 runs on Java 8, 11 and 17)");
    }
    if (t.versioned) {
      notes.add("multi-release jar: META-INF/versions/ classes are counted in their packages");
    }
    if (mainClass.isEmpty() && t.manifest.isPresent()) {
      notes.add("the manifest names no Main-Class: spark-submit needs --class");
    } else if (t.manifest.isEmpty() && zip.sample.isPresent()) {
      notes.add("META-INF/MANIFEST.MF is not in the sampled part of the directory, so the "
          + "Main-Class is unknown; inspect without sampling, or " + InspectorRemedies.MANIFEST_ENTRY.words());
    } else if (t.manifest.isEmpty()) {
      notes.add("no META-INF/MANIFEST.MF: spark-submit needs --class");
    }
    List<EntrySize> big = new ArrayList<>();
    while (!t.largest.isEmpty()) {
      ZipEntryInfo e = t.largest.poll();
      big.add(0, new EntrySize(Texts.safe(e.name()), e.size(), e.compressedSize()));
    }
    List<String> allNotes = new ArrayList<>(zip.notes);
    allNotes.addAll(notes);
    return new ArchiveOverview(source, zip.size, zip.entries.size(), zip.declaredEntries, t.files,
        t.dirs, t.classes, t.usize, t.csize, mainClass.map(Texts::safe), selected(mf), pkgs, t.keys,
        t.keyTotal, t.nested, relocations, artifacts, versions, scala, big, warnings, allNotes,
        drillIn(appClass, pkgs), sampled);
  }

  /**
   * For an overview of a sampled directory: scales {@code t}'s counts and sizes from the sample
   * to the whole archive and notes what the sample cannot say; empty when the directory was read whole.
   */
  private Optional<DirectorySample> scaleToSample(Tally t) {
    if (zip.sample.isEmpty()) {
      return Optional.empty();
    }
    ZipArchive.Sample sample = zip.sample.get();
    int read = zip.entries.size();
    double scale = zip.declaredEntries >= read && read > 0
        ? (double) zip.declaredEntries / read
        : (double) sample.directoryBytes() / Math.max(1, sample.parsedBytes());
    int seenClasses = t.classes;
    // Compressed bytes: what precedes the directory less the local headers (estimated from the
    // sampled names and extra fields, plus a data descriptor where the sample has them); the
    // uncompressed total follows from the sample's ratio. Both beat scaling a few huge entries.
    double header = 0;
    for (ZipEntryInfo e : zip.entries) {
      header += 30 + e.nameLength() + e.centralExtraLength() + ((e.flags() & 8) != 0 ? 16 : 0);
    }
    long estCompressed = Math.max(t.csize,
        Math.round(sample.entryBytes() - header / Math.max(1, read) * zip.declaredEntries));
    t.usize = t.csize > 0 ? Math.round((double) t.usize / t.csize * estCompressed) : t.usize;
    t.csize = estCompressed;
    t.files = (int) Math.min(Integer.MAX_VALUE, Math.round(t.files * scale));
    t.dirs = (int) Math.min(Integer.MAX_VALUE, Math.round(t.dirs * scale));
    t.classes = (int) Math.min(Integer.MAX_VALUE, Math.round(t.classes * scale));
    int unread = Math.max(0, t.classes - seenClasses);
    DirectorySample sampled = new DirectorySample(sample.directoryBytes(), sample.bytesRead(),
        sample.windows().size(), read, zip.declaredEntries, unread);
    notes.add("sampled overview: " + Texts.bytes(sample.bytesRead()) + " ("
        + percent(sample.bytesRead(), sample.directoryBytes()) + ") of the "
        + Texts.bytes(sample.directoryBytes()) + " central directory was read, in "
        + sample.windows().size() + " evenly spaced windows holding " + Texts.count(read)
        + " of the " + Texts.count(zip.declaredEntries) + " entries. The file, class and size "
        + "totals are estimates scaled from the sample; package class counts are the classes "
        + "seen (the true counts are at least that); packages, key entries, nested archives, "
        + "relocations and packaging warnings that lie only in the unread parts (about "
        + Texts.plural(unread, "class") + ") are missing. Inspect without sampling for exact "
        + "counts and complete warnings");
    return Optional.of(sampled);
  }

  /** What an application archive bundles that clashes with the cluster: Spark, Scala, unrelocated libraries, signatures. */
  private List<String> bundlingWarnings(Tally t, Optional<ScalaTarget> scala, String inSample) {
    List<String> warnings = new ArrayList<>();
    int sparkJars = 0;
    for (NestedArchive n : t.nested) {
      if (n.name().matches(".*(?:^|/)spark-(core|sql|catalyst)_[\\d.]+-.*\\.jar")) {
        sparkJars++;
      }
    }
    if (t.sparkClasses > 0 || sparkJars > 0) {
      warnings.add("bundles Spark itself (" + (t.sparkClasses > 0
          ? Texts.plural(t.sparkClasses, "org.apache.spark class") + inSample
          : Texts.plural(sparkJars, "Spark jar") + inSample)
          + "): mark Spark dependencies 'provided' so the cluster's Spark is used; a bundled "
          + "Spark of another version fails with NoSuchMethodError, ClassCastException or "
          + "ClassNotFoundException");
    }
    if (t.scalaClasses > 0 || scala.isPresent() && scala.get().evidence().contains("scala-library")) {
      warnings.add("bundles the Scala library" + scala.map(s -> " " + s.version()).orElse("")
          + ": it must match the cluster's Scala binary version (Spark 3.x: 2.12 or 2.13, "
          + "Spark 4: 2.13), else NoSuchMethodError/ClassNotFoundException on scala.*; mark "
          + "scala-library 'provided'");
    }
    for (Map.Entry<String, Integer> c : t.clashing.entrySet()) {
      if (c.getKey().equals("org/apache/hadoop/") && t.sparkClasses > 0) {
        continue;
      }
      warnings.add("bundles " + CLASHING.get(c.getKey()) + " unrelocated ("
          + Texts.plural(c.getValue(), "class") + inSample + "), which Spark also ships: a version clash "
          + "shows as NoSuchMethodError or ClassNotFoundException; relocate it (maven-shade "
          + "<relocation>, sbt-assembly ShadeRule) or use the cluster's copy");
    }
    if (t.signatureFiles > 0 && (t.nestedTotal > 0 || t.packages.size() > 50)) {
      warnings.add("keeps " + Texts.plural(t.signatureFiles, "signature file") + inSample
          + " (META-INF/*.SF, *.RSA, *.DSA) from a signed dependency: a merged jar then fails "
          + "with 'SecurityException: Invalid signature file digest'; exclude them when "
          + "shading");
    }
    return warnings;
  }

  /** What one pass over the entries counts and keeps: sizes, classes per package, key entries, nested archives, build files. */
  private final class Tally {
    int files = 0;
    int dirs = 0;
    int classes = 0;
    long usize = 0;
    long csize = 0;
    Map<String, int[]> packages = new HashMap<>();
    List<String> keys = new ArrayList<>();
    int keyTotal = 0;
    List<NestedArchive> nested = new ArrayList<>();
    int nestedTotal = 0;
    Map<String, ZipEntryInfo> poms = new TreeMap<>();
    Map<String, Integer> clashing = new LinkedHashMap<>();
    int sparkClasses = 0;
    int scalaClasses = 0;
    int signatureFiles = 0;
    boolean versioned = false;
    PriorityQueue<ZipEntryInfo> largest = new PriorityQueue<>(
        Comparator.comparingLong(ZipEntryInfo::size));
    Optional<ZipEntryInfo> manifest = Optional.empty();
    Optional<ZipEntryInfo> libraryProperties = Optional.empty();

    /** Counts {@code e}. */
    void add(ZipEntryInfo e) {
    usize += e.size();
    csize += e.compressedSize();
    if (e.isDirectory()) {
      dirs++;
      return;
    }
    files++;
    String name = e.name();
    largest.add(e);
    if (largest.size() > 5) {
      largest.poll();
    }
    String pkg = packageOf(name);
    if (e.isClass()) {
      classes++;
      packages.computeIfAbsent(pkg, k -> new int[2])[0]++;
      String stripped = stripRoot(name);
      if (stripped.startsWith("org/apache/spark/")) {
        sparkClasses++;
      } else if (stripped.startsWith("scala/")) {
        scalaClasses++;
      }
      for (String prefix : CLASHING.keySet()) {
        if (stripped.startsWith(prefix)) {
          clashing.merge(prefix, 1, Integer::sum);
        }
      }
      versioned |= name.startsWith("META-INF/versions/");
      return;
    }
    if (SourceAnalyzer.language(name).isPresent()) {
      packages.computeIfAbsent(pkg, k -> new int[2])[1]++;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("meta-inf/manifest.mf")) {
      manifest = Optional.of(e);
    }
    if (name.equals("library.properties")) {
      libraryProperties = Optional.of(e);
    }
    if (lower.startsWith("meta-inf/") && (lower.endsWith(".sf") || lower.endsWith(".rsa")
        || lower.endsWith(".dsa") || lower.endsWith(".ec"))
        && lower.indexOf('/', 9) < 0) {
      signatureFiles++;
    }
    if (POM.matcher(name).matches()) {
      poms.put(name, e);
    }
    if (lower.endsWith(".jar") || lower.endsWith(".war") || lower.endsWith(".zip")) {
      nestedTotal++;
      if (nested.size() < MAX_NESTED) {
        nested.add(new NestedArchive(Texts.safe(name), e.size(),
            e.method() == ZipEntryInfo.STORED));
      }
      return;
    }
    if (isKey(name)) {
      keyTotal++;
      keys.add(Texts.safe(name));
    }
    }
  }

  private static String percent(long part, long whole) {
    return String.format(Locale.ROOT, "%.1f%%", 100.0 * part / Math.max(1, whole));
  }

  private static boolean isKey(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.startsWith("meta-inf/")) {
      String rest = lower.substring(9);
      return !rest.contains("/") || rest.startsWith("services/") || rest.startsWith("spring");
    }
    String stripped = stripRoot(name);
    if (!stripped.contains("/")) {
      return true;
    }
    int dot = lower.lastIndexOf('.');
    String ext = dot >= 0 ? lower.substring(dot + 1) : "";
    if (ext.equals("sql") || ext.equals("py") || ext.equals("hql")) {
      return true;
    }
    return KEY_EXTENSIONS.contains(ext) && stripped.indexOf('/') == stripped.lastIndexOf('/');
  }

  private static Optional<String> get(Map<String, String> mf, String key) {
    for (Map.Entry<String, String> e : mf.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key) && !e.getValue().isBlank()) {
        return Optional.of(e.getValue().strip());
      }
    }
    return Optional.empty();
  }

  private static final List<String> SELECTED = List.of("Main-Class", "Start-Class",
      "Created-By", "Build-Jdk", "Build-Jdk-Spec", "Implementation-Title",
      "Implementation-Version", "Implementation-Vendor", "Specification-Version",
      "Bundle-SymbolicName", "Bundle-Version", "Spring-Boot-Version", "Spring-Boot-Classes",
      "Spring-Boot-Lib", "Multi-Release", "Automatic-Module-Name", "Class-Path", "Add-Opens",
      "Add-Exports", "Launcher-Agent-Class", "Premain-Class", "Scala-Version", "Git-Commit",
      "Build-Time", "Build-Timestamp");

  private static Map<String, String> selected(Map<String, String> mf) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : SELECTED) {
      get(mf, k).ifPresent(v -> {
        String value = Texts.safe(Redactor.standard().redactText(v));
        out.put(k, value.length() > 300 ? value.substring(0, 300) + "..." : value);
      });
    }
    return out;
  }

  /** The manifest's main section; continuation lines (a leading space) are joined. */
  private Map<String, String> readManifest(ZipEntryInfo e) {
    try (InputStream in = zip.open(e, 1 << 20, 16 * 1024)) {
      byte[] head = readMainSection(in);
      return Manifests.mainAttributes(new String(head, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException ex) {
      notes.add("META-INF/MANIFEST.MF could not be read: " + ex.getMessage());
      return new LinkedHashMap<>();
    }
  }

  private static byte[] readMainSection(InputStream in) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      out.write(buf, 0, n);
      String s = out.toString(StandardCharsets.ISO_8859_1);
      if (s.contains("\n\n") || s.contains("\r\n\r\n") || s.contains("\r\r")) {
        break;
      }
    }
    return out.toByteArray();
  }

  private List<String> artifacts(Map<String, ZipEntryInfo> poms) {
    List<String> out = new ArrayList<>();
    int reads = 0;
    for (Map.Entry<String, ZipEntryInfo> p : poms.entrySet()) {
      Matcher m = POM.matcher(p.getKey());
      if (!m.matches()) {
        continue;
      }
      String ga = m.group(1) + ":" + m.group(2);
      boolean interesting = m.group(2).startsWith("spark-") || m.group(2).startsWith("scala-library")
          || m.group(2).startsWith("scala3-library");
      if (interesting && reads < MAX_POM_READS) {
        reads++;
        Optional<String> v = properties(p.getValue()).map(props -> props.getProperty("version"));
        if (v.isPresent()) {
          ga += ":" + v.get().strip();
        }
      }
      out.add(Texts.safe(ga));
    }
    return out;
  }

  private Optional<java.util.Properties> properties(ZipEntryInfo e) {
    if (e.size() > 64 * 1024) {
      return Optional.empty();
    }
    try {
      byte[] b = zip.readAll(e, 64 * 1024);
      java.util.Properties p = new java.util.Properties();
      p.load(new java.io.StringReader(new String(b, StandardCharsets.ISO_8859_1)));
      return Optional.of(p);
    } catch (IOException | RuntimeException ex) {
      notes.add(e.name() + " could not be read: " + ex.getMessage());
      return Optional.empty();
    }
  }

  private List<ClassVersion> sampleVersions(Optional<String> appClass, List<PackageCount> pkgs) {
    List<ZipEntryInfo> samples = new ArrayList<>();
    if (appClass.isPresent()) {
      for (String c : EntryResolver.candidates(appClass.get())) {
        Optional<ZipEntryInfo> e = zip.get(c);
        if (e.isPresent()) {
          samples.add(e.get());
          break;
        }
      }
    }
    // The first class of the biggest packages, one per namespace.
    Map<String, String> wanted = new LinkedHashMap<>();
    for (PackageCount p : pkgs) {
      if (wanted.size() >= CLASS_SAMPLES || p.classes() == 0) {
        continue;
      }
      String ns = namespace(p.name());
      wanted.putIfAbsent(ns, p.name());
    }
    if (!wanted.isEmpty()) {
      Set<String> want = new java.util.HashSet<>(wanted.values());
      for (ZipEntryInfo e : zip.entries) {
        if (samples.size() >= CLASS_SAMPLES + 1 || want.isEmpty()) {
          break;
        }
        if (e.isClass() && !e.name().startsWith("META-INF/") && want.remove(packageOf(e.name()))
            && !samples.contains(e)) {
          samples.add(e);
        }
      }
    }
    Map<Integer, Integer> majors = new TreeMap<>();
    for (ZipEntryInfo e : samples) {
      try (InputStream in = zip.open(e, 8, 512)) {
        byte[] h = in.readNBytes(8);
        if (h.length == 8 && (h[0] & 0xFF) == 0xCA && (h[1] & 0xFF) == 0xFE) {
          majors.merge(((h[6] & 0xFF) << 8) | (h[7] & 0xFF), 1, Integer::sum);
        } else {
          notes.add(e.name() + " is not a valid class file (bad header)");
        }
      } catch (IOException | RuntimeException ex) {
        notes.add(e.name() + " could not be sampled: " + ex.getMessage());
      }
    }
    List<ClassVersion> out = new ArrayList<>();
    majors.forEach((major, n) -> out.add(new ClassVersion(major, Bytecode.javaRelease(major), n)));
    out.sort(Comparator.comparingInt(ClassVersion::sampled).reversed()
        .thenComparing(Comparator.comparingInt(ClassVersion::major).reversed()));
    return out;
  }

  private static String namespace(String pkg) {
    String[] parts = pkg.split("\\.");
    return parts.length >= 2 ? parts[0] + "." + parts[1] : pkg;
  }

  private Optional<ScalaTarget> scala(List<NestedArchive> nested, Map<String, ZipEntryInfo> poms,
      Optional<ZipEntryInfo> libraryProperties, int scalaClasses) {
    for (NestedArchive n : nested) {
      Matcher m = SCALA_JAR.matcher(n.name());
      if (m.find()) {
        return Optional.of(new ScalaTarget(m.group(1), n.name()));
      }
    }
    for (Map.Entry<String, ZipEntryInfo> p : poms.entrySet()) {
      if (p.getKey().startsWith("META-INF/maven/org.scala-lang/scala-library/")
          || p.getKey().startsWith("META-INF/maven/org.scala-lang/scala3-library_3/")) {
        Optional<String> v = properties(p.getValue()).map(props -> props.getProperty("version"));
        if (v.isPresent()) {
          return Optional.of(new ScalaTarget(v.get().strip(), "bundled scala-library ("
              + p.getKey() + ")"));
        }
      }
    }
    if (libraryProperties.isPresent() && scalaClasses > 0) {
      Optional<String> v = properties(libraryProperties.get())
          .map(props -> props.getProperty("version.number"));
      if (v.isPresent()) {
        return Optional.of(new ScalaTarget(v.get().strip(), "bundled scala-library "
            + "(library.properties)"));
      }
    }
    Map<String, Integer> binaries = new TreeMap<>();
    Map<String, String> example = new HashMap<>();
    for (String name : poms.keySet()) {
      String artifact = name.split("/")[3];
      Matcher m = BINARY_SUFFIX.matcher(artifact + "/");
      if (m.find()) {
        binaries.merge(m.group(1), 1, Integer::sum);
        example.putIfAbsent(m.group(1), artifact);
      }
    }
    for (NestedArchive n : nested) {
      String simple = n.name().substring(n.name().lastIndexOf('/') + 1);
      Matcher m = BINARY_SUFFIX.matcher(simple);
      if (m.find()) {
        binaries.merge(m.group(1), 1, Integer::sum);
        example.putIfAbsent(m.group(1), simple);
      }
    }
    if (!binaries.isEmpty()) {
      String best = binaries.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
      String evidence = "artifact names such as " + example.get(best)
          + (binaries.size() > 1 ? "; mixed Scala binary versions " + binaries.keySet()
              + " (a classic NoSuchMethodError)" : "");
      if (binaries.size() > 1) {
        notes.add("artifacts built for different Scala binary versions: " + binaries);
      }
      return Optional.of(new ScalaTarget(best, evidence));
    }
    if (scalaClasses > 0) {
      return Optional.of(new ScalaTarget("unknown", Texts.plural(scalaClasses, "scala.* class")
          + " bundled without a version record"));
    }
    return Optional.empty();
  }

  private static List<Relocation> relocations(List<PackageCount> pkgs) {
    Map<String, int[]> found = new LinkedHashMap<>();
    for (PackageCount p : pkgs) {
      if (p.classes() == 0) {
        continue;
      }
      String name = p.name();
      String key = null;
      for (String lib : KNOWN_LIBRARIES) {
        int idx = name.indexOf("." + lib);
        int end = idx + 1 + lib.length();
        if (idx > 0 && (end == name.length() || name.charAt(end) == '.')) {
          key = name.substring(0, idx) + "|" + lib;
          break;
        }
      }
      if (key == null) {
        String[] parts = name.split("\\.");
        for (int i = 1; i < parts.length - 1; i++) {
          if (MARKERS.contains(parts[i])) {
            String known = null;
            int at = -1;
            for (int k = i + 1; k < parts.length && known == null; k++) {
              known = SHORT_NAMES.get(parts[k]);
              at = k;
            }
            if (known != null) {
              key = String.join(".", java.util.Arrays.copyOfRange(parts, 0, at)) + "|" + known;
              break;
            }
            int take = TLDS.contains(parts[i + 1]) ? 2 : 1;
            StringBuilder orig = new StringBuilder();
            for (int k = i + 1; k < Math.min(parts.length, i + 1 + take); k++) {
              orig.append(orig.length() == 0 ? "" : ".").append(parts[k]);
            }
            key = String.join(".", java.util.Arrays.copyOfRange(parts, 0, i + 1)) + "|" + orig;
            break;
          }
        }
      }
      if (key != null) {
        found.computeIfAbsent(key, k -> new int[1])[0] += p.classes();
      }
    }
    List<Relocation> out = new ArrayList<>();
    found.forEach((k, v) -> {
      String[] pr = k.split("\\|", 2);
      out.add(new Relocation(pr[0], pr[1], v[0]));
    });
    out.sort(Comparator.comparingInt(Relocation::classes).reversed()
        .thenComparing(Relocation::prefix).thenComparing(Relocation::original));
    return out.size() > 30 ? new ArrayList<>(out.subList(0, 30)) : out;
  }

  private Remedy drillIn(Optional<String> appClass, List<PackageCount> pkgs) {
    String example = appClass.orElseGet(() -> {
      String first = "com.example.Main";
      for (ZipEntryInfo e : zip.entries) {
        if (e.isClass() && !e.name().startsWith("META-INF/")) {
          String c = ClassAnalyzer.entryClassName(e.name());
          if (!c.contains("$")) {
            return c;
          }
          first = first.equals("com.example.Main") ? c : first;
        }
      }
      return first;
    });
    String path = example.replace('.', '/') + ".class";
    return InspectorRemedies.drillIn(Texts.safe(example), Texts.safe(path));
  }
}

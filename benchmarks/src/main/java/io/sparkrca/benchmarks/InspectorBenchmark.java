package io.sparkrca.benchmarks;

import static org.objectweb.asm.Opcodes.*;

import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.CountingByteSource;
import io.sparkrca.inspector.ArchiveOverview;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.inspector.ClassView;
import io.sparkrca.inspector.Inspection;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The ClassInspector benchmarks recorded in {@code benchmarks/RESULTS.md}:
 *
 * <ol>
 *   <li>the overview of a 200 MB fat JAR served by a loopback HTTP server (JDK {@code HttpServer}
 *       answering Range requests, counting requests and body bytes on the server side), read
 *       through the real {@code HttpByteSource}: a spring-boot layout with nested jars, a flat
 *       shaded jar, and a 10,000-class jar; exact (the default) and sampled
 *       ({@code overviewSampling(0.015)}), with the sampled estimates compared to the exact counts;
 *   <li>single entries over HTTP (an application class, a class in a nested jar);
 *   <li>disassembling one class of a JAR with 10,000 classes, from a local file and over HTTP,
 *       cold and warm.
 * </ol>
 *
 * <p>The inputs are built once under {@code benchmarks/data/} from the jars in the local Maven
 * repository (real Spark, Scala, Hadoop... classes) and from classes generated with ASM.
 *
 * <pre>{@code
 * mvn -B -pl benchmarks -am verify -DskipTests -Pinspector-bench
 * }</pre>
 */
public final class InspectorBenchmark {
  private static final long TARGET = 200L << 20;
  private static final double SAMPLING = 0.015;

  private InspectorBenchmark() {}

  public static void main(String[] args) throws Exception {
    // Real servers set TCP_NODELAY; the JDK's HttpServer does not unless asked, and then every
    // request after the first on a kept-alive connection waits ~40 ms for a delayed ACK.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    Path data = Path.of(args.length > 0 ? args[0] : "benchmarks/data");
    Files.createDirectories(data);
    Path boot = data.resolve("fat-boot-200m.jar");
    Path flat = data.resolve("fat-flat-200m.jar");
    Path many = data.resolve("classes-10k.jar");
    if (!Files.exists(boot)) {
      springBoot(boot);
    }
    if (!Files.exists(flat)) {
      flat(flat);
    }
    if (!Files.exists(many)) {
      tenThousandClasses(many);
    }
    try (Loopback http = Loopback.serve(data)) {
      System.out.println("Overviews over HTTP (server-side counts; ByteSource counts for comparison)");
      System.out.println();
      System.out.println("| input | mode | size | entries | central directory | bytes served "
          + "| % of size | requests | counting ByteSource | time |");
      System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
      overview("spring-boot fat jar (BOOT-INF/lib, stored)", boot, http, 0);
      overview("flat shaded fat jar", flat, http, 0);
      overview("10,000-class jar", many, http, 0);
      overview("spring-boot fat jar (BOOT-INF/lib, stored)", boot, http, SAMPLING);
      overview("flat shaded fat jar", flat, http, SAMPLING);
      overview("10,000-class jar", many, http, SAMPLING);
      System.out.println();
      accuracy(flat, http);
      System.out.println();
      System.out.println("| entry over HTTP | classes shown | bytes served | requests | time |");
      System.out.println("|---|---:|---:|---:|---:|");
      entry(boot, http, "com.example.App", false);
      entry(boot, http, "BOOT-INF/lib/" + firstNestedWithClasses(boot) + "!/"
          + firstClassOfNested(boot), true);
      System.out.println();
      disassembly(many, "com.gen.p42.C4242", null);
      disassembly(many, "com.gen.p42.C4242", http);
    }
  }

  // ---- measurements -------------------------------------------------------------------------

  private static void overview(String label, Path jar, Loopback http, double sampling)
      throws IOException {
    ClassInspector inspector = ClassInspector.builder().overviewSampling(sampling).build();
    String url = http.url(jar);
    inspector.inspect(url); // warm the JIT and the HTTP client
    CountingByteSource src = new CountingByteSource(ByteSource.of(jar));
    inspector.inspect(src, Optional.empty());
    http.reset();
    long t0 = System.nanoTime();
    ArchiveOverview o = (ArchiveOverview) inspector.inspect(url);
    long t1 = System.nanoTime();
    long size = Files.size(jar);
    long cd = centralDirectorySize(jar);
    System.out.printf(Locale.ROOT,
        "| overview: %s | %s | %,d B | %,d | %,d B (%.3f%%) | %,d B | **%.3f%%** | %d | %,d B in %d reads | %.0f ms |%n",
        label, o.estimated() ? "sampled (estimated)" : sampling > 0 ? "sampling allowed, not needed (exact)" : "exact (default)",
        size, o.declaredEntries(), cd, 100.0 * cd / size, http.bytes.get(),
        100.0 * http.bytes.get() / size, http.requests.get(), src.bytesRead(), src.requests(),
        (t1 - t0) / 1e6);
  }

  /** How close the sampled overview of {@code jar} comes to the exact one. */
  private static void accuracy(Path jar, Loopback http) throws IOException {
    String url = http.url(jar);
    ArchiveOverview exact = (ArchiveOverview) ClassInspector.create().inspect(url);
    ArchiveOverview est = (ArchiveOverview) ClassInspector.builder().overviewSampling(SAMPLING)
        .build().inspect(url);
    Map<String, Integer> exactCounts = new HashMap<>();
    exact.packages().forEach(p -> exactCounts.put(p.name(), p.classes()));
    Map<String, Integer> estCounts = new HashMap<>();
    est.packages().forEach(p -> estCounts.put(p.name(), p.classes()));
    long classesInSeen = 0;
    for (ArchiveOverview.PackageCount p : exact.packages()) {
      if (estCounts.containsKey(p.name())) {
        classesInSeen += p.classes();
      }
    }
    List<ArchiveOverview.PackageCount> top = exact.packages().stream()
        .filter(p -> p.classes() > 0)
        .sorted(Comparator.comparingInt(ArchiveOverview.PackageCount::classes).reversed())
        .limit(50).toList();
    List<Double> shares = new ArrayList<>();
    int topSeen = 0;
    for (ArchiveOverview.PackageCount p : top) {
      Integer e = estCounts.get(p.name());
      if (e != null) {
        topSeen++;
      }
      if (e != null && e > p.classes()) {
        throw new IllegalStateException(p.name() + ": seen " + e + " > exact " + p.classes());
      }
      shares.add((e == null ? 0 : e) / (double) p.classes());
    }
    Collections.sort(shares);
    Set<String> shownExact = new HashSet<>();
    exact.packages().stream().limit(50).forEach(p -> shownExact.add(p.name()));
    long shownOverlap = est.packages().stream().limit(50).filter(p -> shownExact.contains(p.name())).count();
    System.out.println("Sampled overview of the flat shaded jar against the exact one");
    System.out.println();
    System.out.println("| quantity | exact | sampled estimate |");
    System.out.println("|---|---:|---:|");
    System.out.printf(Locale.ROOT, "| classes | %,d | %,d (%+.1f%%) |%n", exact.classes(), est.classes(),
        100.0 * (est.classes() - exact.classes()) / exact.classes());
    System.out.printf(Locale.ROOT, "| files | %,d | %,d (%+.1f%%) |%n", exact.files(), est.files(),
        100.0 * (est.files() - exact.files()) / exact.files());
    System.out.printf(Locale.ROOT, "| uncompressed bytes | %,d | %,d (%+.1f%%) |%n",
        exact.uncompressedBytes(), est.uncompressedBytes(),
        100.0 * (est.uncompressedBytes() - exact.uncompressedBytes()) / exact.uncompressedBytes());
    System.out.printf(Locale.ROOT, "| compressed bytes | %,d | %,d (%+.1f%%) |%n",
        exact.compressedBytes(), est.compressedBytes(),
        100.0 * (est.compressedBytes() - exact.compressedBytes()) / exact.compressedBytes());
    System.out.printf(Locale.ROOT, "| packages listed | %,d | %,d seen (%.0f%%), holding %.0f%% of the classes |%n",
        exact.packages().size(), est.packages().size(),
        100.0 * est.packages().size() / exact.packages().size(), 100.0 * classesInSeen / exact.classes());
    System.out.printf(Locale.ROOT, "| the 50 largest packages | 50 | %d seen; classes seen per package: median %.0f%% of the true count, p10 %.0f%%, p90 %.0f%% (never more) |%n",
        topSeen, 100 * shares.get(shares.size() / 2), 100 * shares.get(shares.size() / 10),
        100 * shares.get((int) (shares.size() * 0.9)));
    System.out.printf(Locale.ROOT, "| the 50 packages the text shows | - | %d of 50 the same as the exact list |%n", shownOverlap);
    System.out.printf(Locale.ROOT, "| packaging warnings | %d | %d |%n", exact.warnings().size(), est.warnings().size());
    System.out.printf(Locale.ROOT, "| relocations | %d | %d |%n", exact.relocations().size(), est.relocations().size());
    System.out.printf(Locale.ROOT, "| Main-Class, class versions | %s, %s | %s, %s |%n",
        exact.mainClass().orElse("-"), versions(exact), est.mainClass().orElse("-"), versions(est));
    System.out.println();
    System.out.println("warnings (exact):");
    exact.warnings().forEach(w -> System.out.println("  ! " + w.substring(0, Math.min(110, w.length()))));
    System.out.println("warnings (sampled):");
    est.warnings().forEach(w -> System.out.println("  ! " + w.substring(0, Math.min(110, w.length()))));
    System.out.println();
    System.out.println("The sampled text overview, head:");
    est.toText().lines().limit(16).forEach(l -> System.out.println("    " + l));
  }

  private static String versions(ArchiveOverview o) {
    return o.classVersions().stream().map(v -> v.java() + " x" + v.sampled())
        .reduce((a, b) -> a + " " + b).orElse("-");
  }

  private static void entry(Path jar, Loopback http, String entry, boolean fragment)
      throws IOException {
    ClassInspector inspector = ClassInspector.create();
    String url = http.url(jar);
    if (fragment) { // warm
      inspector.inspect(url + "!/" + entry);
    } else {
      inspector.inspect(url, entry);
    }
    http.reset();
    long t0 = System.nanoTime();
    Inspection i = fragment ? inspector.inspect(url + "!/" + entry) : inspector.inspect(url, entry);
    long t1 = System.nanoTime();
    System.out.printf(Locale.ROOT, "| `%s` (%s) | %s | %,d B (%.3f%% of %,d B) | %d | %.0f ms |%n",
        entry, fragment ? "as a `!/` fragment of the URL" : "as `--entry`",
        i instanceof ClassView v ? Integer.toString(v.classes().size()) : "-",
        http.bytes.get(), 100.0 * http.bytes.get() / Files.size(jar), Files.size(jar),
        http.requests.get(), (t1 - t0) / 1e6);
  }

  private static void disassembly(Path jar, String entry, Loopback http) throws IOException {
    ClassInspector inspector = ClassInspector.create();
    String uri = http == null ? jar.toString() : http.url(jar);
    if (http != null) {
      http.reset();
    }
    long c0 = System.nanoTime();
    ClassView first = (ClassView) inspector.inspect(uri, entry);
    String text = first.toText();
    long c1 = System.nanoTime();
    long firstBytes = http == null ? 0 : http.bytes.get();
    long firstRequests = http == null ? 0 : http.requests.get();
    for (int i = 0; i < 20; i++) {
      inspector.inspect(uri, entry).toText();
    }
    int runs = 50;
    long[] times = new long[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      inspector.inspect(uri, entry).toText();
      times[i] = System.nanoTime() - t0;
    }
    Arrays.sort(times);
    System.out.printf(Locale.ROOT, "| disassemble `%s` from the 10,000-class jar, %s (%,d lines of text) "
            + "| first call %.0f ms%s | warm median %.1f ms | warm p95 %.1f ms | warm max %.1f ms |%n",
        entry, http == null ? "local file" : "over HTTP", text.lines().count(), (c1 - c0) / 1e6,
        http == null ? "" : String.format(Locale.ROOT, " (%,d B in %d requests)", firstBytes, firstRequests),
        times[runs / 2] / 1e6, times[(int) (runs * 0.95)] / 1e6, times[runs - 1] / 1e6);
  }

  /**
   * A loopback HTTP server over a directory: JDK {@code HttpServer} answering Range requests
   * with 206 and a Content-Range, counting requests and body bytes sent.
   */
  static final class Loopback implements AutoCloseable {
    final HttpServer server;
    final java.util.concurrent.ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "bench-http");
      t.setDaemon(true);
      return t;
    });
    final AtomicLong requests = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();

    private Loopback(HttpServer server) {
      this.server = server;
    }

    static Loopback serve(Path dir) throws IOException {
      HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      Loopback l = new Loopback(s);
      s.setExecutor(l.pool);
      s.createContext("/", ex -> {
        Path file = dir.resolve(ex.getRequestURI().getPath().substring(1)).normalize();
        if (!file.startsWith(dir) || !Files.isRegularFile(file)) {
          ex.sendResponseHeaders(404, -1);
          ex.close();
          return;
        }
        LogStreamBenchmark.serveRange(ex, file, l.requests, l.bytes);
      });
      s.start();
      return l;
    }

    String url(Path file) {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + file.getFileName();
    }

    void reset() {
      requests.set(0);
      bytes.set(0);
    }

    @Override
    public void close() {
      server.stop(0);
      pool.shutdownNow();
    }
  }

  private static String firstNestedWithClasses(Path boot) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(boot))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        if (e.getName().startsWith("BOOT-INF/lib/spark-core")) {
          return e.getName().substring("BOOT-INF/lib/".length());
        }
      }
    }
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(boot))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        if (e.getName().startsWith("BOOT-INF/lib/") && e.getSize() > 1_000_000) {
          return e.getName().substring("BOOT-INF/lib/".length());
        }
      }
    }
    throw new IllegalStateException("no nested jar");
  }

  private static String firstClassOfNested(Path boot) throws IOException {
    String nested = "BOOT-INF/lib/" + firstNestedWithClasses(boot);
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(boot))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        if (e.getName().equals(nested)) {
          ZipInputStream inner = new ZipInputStream(in);
          for (ZipEntry c; (c = inner.getNextEntry()) != null; ) {
            if (c.getName().endsWith(".class") && !c.getName().contains("$")
                && !c.getName().startsWith("META-INF")) {
              return c.getName();
            }
          }
        }
      }
    }
    throw new IllegalStateException("no class");
  }

  // ---- inputs ---------------------------------------------------------------------------------

  /** Real jars from the local Maven repository, in a stable order. */
  private static List<Path> m2Jars() throws IOException {
    Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository");
    List<Path> jars;
    try (Stream<Path> s = Files.walk(m2)) {
      jars = new ArrayList<>(s.filter(p -> {
        String n = p.getFileName().toString();
        return n.endsWith(".jar") && !n.endsWith("-sources.jar") && !n.endsWith("-javadoc.jar")
            && !n.endsWith("-tests.jar") && !p.toString().contains("/io/sparkrca/");
      }).sorted().toList());
    }
    // Spark and Scala first, so the jar looks like a Spark job's.
    jars.sort((a, b) -> Boolean.compare(!isSpark(a), !isSpark(b)));
    return jars;
  }

  private static boolean isSpark(Path p) {
    String s = p.toString();
    return s.contains("/org/apache/spark/") && s.contains("3.5.9")
        || s.contains("/scala-library/2.13.16/");
  }

  private static void springBoot(Path out) throws IOException {
    Path tmp = out.resolveSibling(out.getFileName() + ".part");
    try (ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
      put(zip, "META-INF/MANIFEST.MF", ("Manifest-Version: 1.0\nMain-Class: "
          + "org.springframework.boot.loader.launch.JarLauncher\nStart-Class: com.example.App\n"
          + "Spring-Boot-Version: 3.3.0\nSpring-Boot-Classes: BOOT-INF/classes/\n"
          + "Spring-Boot-Lib: BOOT-INF/lib/\n\n").getBytes(), false);
      put(zip, "BOOT-INF/classes/com/example/App.class", generated("com/example/App", 0), false);
      for (int i = 0; i < 50; i++) {
        put(zip, "BOOT-INF/classes/com/example/jobs/Job" + i + ".class",
            generated("com/example/jobs/Job" + i, i), false);
      }
      put(zip, "BOOT-INF/classes/application.conf", "spark.app.name = demo\n".getBytes(), false);
      long total = 0;
      Set<String> names = new HashSet<>();
      for (Path jar : m2Jars()) {
        if (total >= TARGET) {
          break;
        }
        String name = jar.getFileName().toString();
        if (!names.add(name)) {
          continue;
        }
        byte[] b = Files.readAllBytes(jar);
        put(zip, "BOOT-INF/lib/" + name, b, true);
        total += b.length;
      }
    }
    Files.move(tmp, out);
  }

  private static void flat(Path out) throws IOException {
    Path tmp = out.resolveSibling(out.getFileName() + ".part");
    AtomicLong written = new AtomicLong();
    OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp)) {
      @Override
      public synchronized void write(byte[] b, int off, int len) throws IOException {
        super.write(b, off, len);
        written.addAndGet(len);
      }

      @Override
      public synchronized void write(int b) throws IOException {
        super.write(b);
        written.incrementAndGet();
      }
    };
    try (ZipOutputStream zip = new ZipOutputStream(file)) {
      zip.setLevel(Deflater.BEST_SPEED);
      put(zip, "META-INF/MANIFEST.MF", ("Manifest-Version: 1.0\nMain-Class: com.example.App\n\n")
          .getBytes(), false);
      put(zip, "com/example/App.class", generated("com/example/App", 0), false);
      Set<String> names = new HashSet<>(List.of("META-INF/MANIFEST.MF", "com/example/App.class"));
      for (Path jar : m2Jars()) {
        if (written.get() >= TARGET) {
          break;
        }
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
          for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
            String n = e.getName();
            String upper = n.toUpperCase(Locale.ROOT);
            if (!names.add(n) || upper.endsWith(".SF") || upper.endsWith(".RSA")
                || upper.endsWith(".DSA") || n.endsWith("module-info.class")) {
              continue;
            }
            zip.putNextEntry(new ZipEntry(n));
            in.transferTo(zip);
            zip.closeEntry();
          }
        } catch (IOException | IllegalArgumentException ex) {
          // An unreadable jar in the repository: skip it.
        }
      }
    }
    Files.move(tmp, out);
  }

  private static void tenThousandClasses(Path out) throws IOException {
    Path tmp = out.resolveSibling(out.getFileName() + ".part");
    try (ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
      put(zip, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: com.gen.p0.C0\n\n"
          .getBytes(), false);
      for (int i = 0; i < 10_000; i++) {
        String name = "com/gen/p" + (i % 100) + "/C" + i;
        put(zip, name + ".class", generated(name, i), false);
      }
    }
    Files.move(tmp, out);
  }

  private static void put(ZipOutputStream zip, String name, byte[] data, boolean stored)
      throws IOException {
    ZipEntry e = new ZipEntry(name);
    if (stored) {
      CRC32 crc = new CRC32();
      crc.update(data);
      e.setMethod(ZipEntry.STORED);
      e.setSize(data.length);
      e.setCompressedSize(data.length);
      e.setCrc(crc.getValue());
    }
    zip.putNextEntry(e);
    zip.write(data);
    zip.closeEntry();
  }

  /** A class of ordinary size: fields, a constructor, loops, calls and string constants. */
  static byte[] generated(String internalName, int seed) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
      @Override
      protected String getCommonSuperClass(String a, String b) {
        return "java/lang/Object";
      }
    };
    cw.visit(V17, ACC_PUBLIC | ACC_SUPER, internalName, null, "java/lang/Object", null);
    cw.visitSource(internalName.substring(internalName.lastIndexOf('/') + 1) + ".java", null);
    for (int f = 0; f < 4; f++) {
      cw.visitField(ACC_PRIVATE, "field" + f, "Ljava/lang/String;", null, null).visitEnd();
    }
    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    for (int m = 0; m < 8; m++) {
      MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "step" + m, "(Ljava/util/List;)I", null, null);
      mv.visitCode();
      Label top = new Label();
      Label done = new Label();
      int line = 10 + m * 12;
      Label start = new Label();
      mv.visitLabel(start);
      mv.visitLineNumber(line, start);
      mv.visitInsn(ICONST_0);
      mv.visitVarInsn(ISTORE, 2);
      mv.visitLabel(top);
      mv.visitVarInsn(ILOAD, 2);
      mv.visitVarInsn(ALOAD, 1);
      mv.visitMethodInsn(INVOKEINTERFACE, "java/util/List", "size", "()I", true);
      mv.visitJumpInsn(IF_ICMPGE, done);
      Label body = new Label();
      mv.visitLabel(body);
      mv.visitLineNumber(line + 1, body);
      mv.visitFieldInsn(GETSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
      mv.visitLdcInsn("SELECT id, total FROM sales.orders_" + seed + " WHERE step = " + m);
      mv.visitMethodInsn(INVOKEVIRTUAL, "java/io/PrintStream", "println", "(Ljava/lang/String;)V", false);
      mv.visitVarInsn(ALOAD, 0);
      mv.visitLdcInsn("gs://bucket/path/" + seed + "/" + m);
      mv.visitFieldInsn(PUTFIELD, internalName, "field" + (m % 4), "Ljava/lang/String;");
      mv.visitIincInsn(2, 1);
      mv.visitJumpInsn(GOTO, top);
      mv.visitLabel(done);
      mv.visitVarInsn(ILOAD, 2);
      mv.visitInsn(IRETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** The central directory's size from the end record (these archives have no comment). */
  static long centralDirectorySize(Path jar) throws IOException {
    byte[] tail = ByteSource.of(jar).read(Files.size(jar) - 22, 22);
    long size = u32(tail, 12);
    if (size == 0xFFFFFFFFL || (u32(tail, 8) & 0xFFFF) == 0xFFFF) {
      byte[] z = ByteSource.of(jar).read(Files.size(jar) - 22 - 20 - 56, 56);
      return ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN).getLong(40);
    }
    return size;
  }

  static long u32(byte[] b, int at) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(at) & 0xFFFFFFFFL;
  }
}

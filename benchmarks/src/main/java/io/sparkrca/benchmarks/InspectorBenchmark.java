package io.sparkrca.benchmarks;

import static org.objectweb.asm.Opcodes.*;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.inspector.ArchiveOverview;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.inspector.ClassView;
import io.sparkrca.inspector.Inspection;
import java.io.BufferedOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
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
 *   <li>the overview of a 200 MB fat JAR read through a ranged source that counts every byte and
 *       request (a spring-boot layout with nested jars, and a flat shaded jar);
 *   <li>disassembling one class of a JAR with 10,000 classes, cold and warm.
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

  private InspectorBenchmark() {}

  public static void main(String[] args) throws Exception {
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
    System.out.println("| input | size | entries | central directory | bytes read | % of size "
        + "| requests | time |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    overview("spring-boot fat jar (BOOT-INF/lib, stored)", boot);
    overview("flat shaded fat jar", flat);
    overview("10,000-class jar", many);
    System.out.println();
    entry("one application class of the spring-boot jar", boot, "com.example.App");
    entry("one class inside a nested jar of the spring-boot jar", boot,
        "BOOT-INF/lib/" + firstNestedWithClasses(boot) + "!/" + firstClassOfNested(boot));
    System.out.println();
    disassembly(many, "com.gen.p42.C4242");
  }

  // ---- measurements -------------------------------------------------------------------------

  private static void overview(String label, Path jar) throws IOException {
    ClassInspector inspector = ClassInspector.create();
    inspector.inspect(new Counting(ByteSource.of(jar)), Optional.empty()); // warm the JIT
    Counting src = new Counting(ByteSource.of(jar));
    long t0 = System.nanoTime();
    ArchiveOverview o = (ArchiveOverview) inspector.inspect(src, Optional.empty());
    long t1 = System.nanoTime();
    long size = Files.size(jar);
    long cd = centralDirectorySize(jar);
    System.out.printf(Locale.ROOT,
        "| overview: %s | %,d B | %,d | %,d B (%.3f%%) | %,d B | %.3f%% | %d | %.0f ms |%n",
        label, size, o.entries(), cd, 100.0 * cd / size, src.bytes.get(),
        100.0 * src.bytes.get() / size, src.requests.get(), (t1 - t0) / 1e6);
  }

  private static void entry(String label, Path jar, String entry) throws IOException {
    ClassInspector inspector = ClassInspector.create();
    Counting src = new Counting(ByteSource.of(jar));
    long t0 = System.nanoTime();
    Inspection i = inspector.inspect(src, Optional.of(entry));
    long t1 = System.nanoTime();
    System.out.printf(Locale.ROOT, "| entry: %s (`%s`) | %s | %,d B read in %d requests (%.3f%% of %,d B) | %.0f ms |%n",
        label, entry, i instanceof ClassView v ? v.classes().size() + " classes shown" : "",
        src.bytes.get(), src.requests.get(), 100.0 * src.bytes.get() / Files.size(jar),
        Files.size(jar), (t1 - t0) / 1e6);
  }

  private static void disassembly(Path jar, String entry) throws IOException {
    ClassInspector inspector = ClassInspector.create();
    long c0 = System.nanoTime();
    ClassView first = (ClassView) inspector.inspect(jar.toString(), entry);
    String text = first.toText();
    long c1 = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      inspector.inspect(jar.toString(), entry).toText();
    }
    int runs = 50;
    long[] times = new long[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      inspector.inspect(jar.toString(), entry).toText();
      times[i] = System.nanoTime() - t0;
    }
    Arrays.sort(times);
    System.out.printf(Locale.ROOT, "| disassemble `%s` from the 10,000-class jar (%,d lines of text) "
            + "| first call in the JVM %.0f ms | warm median %.1f ms | warm p95 %.1f ms | warm max %.1f ms |%n",
        entry, text.lines().count(), (c1 - c0) / 1e6, times[runs / 2] / 1e6,
        times[(int) (runs * 0.95)] / 1e6, times[runs - 1] / 1e6);
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

  /** A ranged source that counts the bytes and requests it serves. */
  static final class Counting implements ByteSource {
    private final ByteSource inner;
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong requests = new AtomicLong();

    Counting(ByteSource inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public OptionalLong size() throws IOException {
      return inner.size();
    }

    @Override
    public InputStream openStream(long offset) throws IOException {
      requests.incrementAndGet();
      return new FilterInputStream(inner.openStream(offset)) {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len);
          if (n > 0) {
            bytes.addAndGet(n);
          }
          return n;
        }

        @Override
        public int read() throws IOException {
          int c = super.read();
          if (c >= 0) {
            bytes.incrementAndGet();
          }
          return c;
        }
      };
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      requests.incrementAndGet();
      byte[] b = inner.read(offset, length);
      bytes.addAndGet(b.length);
      return b;
    }

    @Override
    public String fileName() {
      return inner.fileName();
    }
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

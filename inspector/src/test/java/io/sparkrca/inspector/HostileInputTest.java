package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.objectweb.asm.Opcodes.*;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSource;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

/** Zip bombs, lying sizes, zip-slip names, malformed classes, ZIP64 and other hostile input. */
class HostileInputTest {
  @TempDir Path dir;

  private static Inspection inspect(byte[] archive, String entry) throws Exception {
    return ClassInspector.create().inspect(ByteSource.of("hostile.jar", archive),
        entry.isEmpty() ? Optional.empty() : Optional.of(entry));
  }

  /** The offset of the central-directory record of {@code name}. */
  private static int cenRecord(byte[] zip, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i + 46 < zip.length; i++) {
      if (b.getInt(i) == 0x02014b50 && (b.getShort(i + 28) & 0xFFFF) == n.length
          && Arrays.equals(Arrays.copyOfRange(zip, i + 46, i + 46 + n.length), n)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static void patch32(byte[] zip, int at, long value) {
    ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN).putInt(at, (int) value);
  }

  private static void patch16(byte[] zip, int at, int value) {
    ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
  }

  @Test
  void aHighlyCompressedEntryIsRefusedAsAZipBombButTheOverviewStillWorks() throws Exception {
    byte[] bomb = TestJars.jar(Optional.empty(), TestJars.entries("bomb.txt", new byte[20 << 20]));
    assertThat(bomb.length).isLessThan(100_000);

    ArchiveOverview o = (ArchiveOverview) inspect(bomb, "");

    assertThat(o.uncompressedBytes()).isGreaterThan(20L << 20);
    assertThatThrownBy(() -> inspect(bomb, "bomb.txt"))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining("zip bomb");
  }

  @Test
  void anEntryThatInflatesPastItsDeclaredSizeIsStopped() throws Exception {
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("a.txt", "x".repeat(500_000)));
    patch32(jar, cenRecord(jar, "a.txt") + 24, 1000); // the directory now claims 1,000 bytes

    assertThatThrownBy(() -> inspect(jar, "a.txt"))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("inflates past its declared size");
  }

  @Test
  void perEntryAndTotalCapsBoundWhatIsInflated() throws Exception {
    byte[] cls = Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB).get("com/example/SparkJob.class");
    Map<String, byte[]> entries = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      entries.put("com/example/C" + i + ".class", cls);
    }
    byte[] jar = TestJars.jar(Optional.empty(), entries);
    ClassInspector tinyEntries = ClassInspector.builder()
        .limits(InspectorLimits.defaults().withMaxEntryBytes(100)).build();
    ClassInspector tinyTotal = ClassInspector.builder().findingsOnly(true)
        .limits(InspectorLimits.defaults().withMaxTotalInflatedBytes(3 * cls.length)).build();

    assertThatThrownBy(() -> tinyEntries.inspect(ByteSource.of("j.jar", jar), Optional.of("C1")))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining("read for one entry");
    FindingsReport r = (FindingsReport) tinyTotal.inspect(ByteSource.of("j.jar", jar), Optional.empty());
    assertThat(r.classesScanned()).isLessThan(4);
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("in total"));
  }

  @Test
  void theEntryCountCapGivesAPartialListingWithANote() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    for (int i = 0; i < 50; i++) {
      entries.put("p/C" + i + ".class", Fixtures.STUB);
    }
    byte[] jar = TestJars.jar(Optional.empty(), entries);

    ArchiveOverview o = (ArchiveOverview) ClassInspector.builder()
        .limits(InspectorLimits.defaults().withMaxEntries(10)).build()
        .inspect(ByteSource.of("j.jar", jar), Optional.empty());

    assertThat(o.entries()).isEqualTo(10);
    assertThat(o.declaredEntries()).isEqualTo(51);
    assertThat(o.notes()).anySatisfy(n -> assertThat(n).contains("listing stopped at the cap of 10"));
  }

  @Test
  void zipSlipNamesAreReportedAndNothingIsWrittenToDisk() throws Exception {
    byte[] cls = Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB).get("com/example/SparkJob.class");
    byte[] zip = TestJars.zip(TestJars.entries("../../evil.txt", "owned", "/abs/x.class", cls,
        "com/example/SparkJob.class", cls), false);
    Set<String> before = tmpListing();

    ArchiveOverview o = (ArchiveOverview) inspect(zip, "");
    String evil = inspect(zip, "../../evil.txt").toText();
    ClassView v = (ClassView) inspect(zip, "com.example.SparkJob");

    assertThat(o.notes()).anySatisfy(n -> assertThat(n).contains("2 entries with unsafe names"));
    assertThat(evil).contains("owned");
    assertThat(v.classes()).isNotEmpty();
    assertThat(tmpListing()).isEqualTo(before);
    assertThat(dir.resolve("../evil.txt").normalize()).doesNotExist();
  }

  private static Set<String> tmpListing() throws Exception {
    try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      Set<String> names = new HashSet<>();
      s.forEach(p -> names.add(p.getFileName().toString()));
      names.removeIf(n -> n.startsWith("junit") || n.startsWith("surefire") || n.startsWith("hsperf"));
      return names;
    }
  }

  @Test
  void badMagicAndTruncatedHeadersGiveFailedToParseNotACrash() throws Exception {
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries(
        "Zero.class", new byte[] {0, 0, 0, 0},
        "Header.class", new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 0x41}));

    String zero = inspect(jar, "Zero.class").toText();
    String header = inspect(jar, "Header.class").toText();

    assertThat(zero).contains("Failed to parse bytecode").contains("bad magic number");
    assertThat(header).contains("Failed to parse bytecode").contains("truncated");
  }

  @Test
  void aTruncatedClassShowsWhatItsConstantPoolStillHolds() throws Exception {
    byte[] cls = Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB).get("com/example/SparkJob.class");
    byte[] half = Arrays.copyOf(cls, cls.length * 2 / 3);
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("com/example/SparkJob.class", half));

    ClassView v = (ClassView) inspect(jar, "com.example.SparkJob");

    assertThat(v.classes().get(0).malformed()).isPresent();
    assertThat(v.classes().get(0).majorVersion()).isEqualTo(61);
    assertThat(v.toText()).contains("Failed to parse bytecode")
        .contains("gs://my-bucket/input/data.parquet");
    assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("showing only what could be read"));
  }

  @Test
  void garbageAfterAValidHeaderNeverEscapesAsAnException() throws Exception {
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < 200; i++) {
      byte[] b = new byte[10 + random.nextInt(400)];
      random.nextBytes(b);
      b[0] = (byte) 0xCA;
      b[1] = (byte) 0xFE;
      b[2] = (byte) 0xBA;
      b[3] = (byte) 0xBE;
      b[6] = 0;
      b[7] = 52;
      ClassAnalyzer.Result r = ClassAnalyzer.analyze(b, "fuzz" + i, "requested", new ClassAnalyzer.Context());
      assertThat(r.detail().malformed()).as("fuzz %d", i).isPresent();
    }
  }

  @Test
  void enormousMethodsAndConstantPoolsStayBounded() throws Exception {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(V17, ACC_PUBLIC, "big/Big", null, "java/lang/Object", null);
    MethodVisitor huge = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "huge", "()V", null, null);
    huge.visitCode();
    for (int i = 0; i < 30_000; i++) {
      huge.visitInsn(ICONST_1);
      huge.visitInsn(POP);
    }
    huge.visitInsn(RETURN);
    huge.visitMaxs(0, 0);
    huge.visitEnd();
    for (int m = 0; m < 10; m++) {
      MethodVisitor s = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "strings" + m, "()V", null, null);
      s.visitCode();
      for (int i = 0; i < 3_000; i++) {
        s.visitLdcInsn("literal number " + m + "-" + i + " of many");
        s.visitInsn(POP);
      }
      s.visitInsn(RETURN);
      s.visitMaxs(0, 0);
      s.visitEnd();
    }
    cw.visitEnd();
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("big/Big.class", cw.toByteArray()));

    ClassView v = (ClassView) inspect(jar, "big.Big");
    ClassView.ClassDetail c = v.classes().get(0);

    assertThat(c.strings()).hasSize(300);
    assertThat(c.lowInterestStrings()).isEqualTo(30_000 - 300); // noise, over the cap, or past 20,000
    assertThat(c.listing()).anySatisfy(l -> assertThat(l).contains("more instructions not shown"));
    assertThat(c.listing().size()).isLessThanOrEqualTo(Disassembler.MAX_LINES + 1);
    assertThat(v.toText().lines().count()).isLessThan(2_100);
  }

  @Test
  void aHostileGenericSignatureFallsBackToTheDescriptor() throws Exception {
    String deep = "Ljava/util/List<".repeat(2_000) + "Ljava/lang/String;" + ">;".repeat(2_000);
    ClassWriter cw = new ClassWriter(0);
    cw.visit(V17, ACC_PUBLIC, "deep/Deep", null, "java/lang/Object", null);
    cw.visitField(ACC_PUBLIC, "f", "Ljava/util/List;", deep, null).visitEnd();
    cw.visitEnd();
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("deep/Deep.class", cw.toByteArray()));

    ClassView v = (ClassView) inspect(jar, "deep.Deep");

    assertThat(v.classes().get(0).fields()).containsExactly("public java.util.List f");
  }

  @Test
  void aJarThatIsNotAZipGetsAClearError() throws Exception {
    Path notZip = TestJars.write(dir, "app.jar", "<html>404 Not Found</html>".getBytes());

    assertThatThrownBy(() -> ClassInspector.create().inspect(notZip.toString()))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("is not a ZIP/JAR archive")
        .hasMessageContaining("<html>");
  }

  @Test
  void aTruncatedArchiveGetsAClearError() throws Exception {
    byte[] jar = Fixtures.sparkJobJar();
    byte[] cut = Arrays.copyOf(jar, jar.length - 30);

    assertThatThrownBy(() -> inspect(cut, ""))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("no ZIP end-of-central-directory record");
  }

  @Test
  void encryptedAndExoticallyCompressedEntriesAreRefusedClearly() throws Exception {
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("a.txt", "hello", "b.txt", "world"));
    patch16(jar, cenRecord(jar, "a.txt") + 8, 1); // encrypted flag
    patch16(jar, cenRecord(jar, "b.txt") + 10, 12); // bzip2

    assertThatThrownBy(() -> inspect(jar, "a.txt"))
        .isInstanceOf(UnsupportedInputException.class).hasMessageContaining("encrypted");
    assertThatThrownBy(() -> inspect(jar, "b.txt"))
        .isInstanceOf(UnsupportedInputException.class).hasMessageContaining("bzip2");
  }

  @Test
  void overlappingEntriesAreNoticed() throws Exception {
    byte[] jar = TestJars.zip(TestJars.entries("a.txt", "hello", "b.txt", "world"), true);
    int a = cenRecord(jar, "a.txt");
    long aOffset = ByteBuffer.wrap(jar).order(ByteOrder.LITTLE_ENDIAN).getInt(a + 42);
    patch32(jar, cenRecord(jar, "b.txt") + 42, aOffset);

    ArchiveOverview o = (ArchiveOverview) inspect(jar, "");

    assertThat(o.notes()).anySatisfy(n -> assertThat(n).contains("overlap"));
  }

  @Test
  void anArchiveWithALaunchScriptPrependedIsRead() throws Exception {
    byte[] jar = Fixtures.sparkJobJar();
    byte[] script = "#!/bin/sh\nexec java -jar \"$0\" \"$@\"\n".getBytes();
    byte[] exe = new byte[script.length + jar.length];
    System.arraycopy(script, 0, exe, 0, script.length);
    System.arraycopy(jar, 0, exe, script.length, jar.length);
    Path file = TestJars.write(dir, "app.jar", exe);

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(file.toString());
    ClassView v = (ClassView) ClassInspector.create().inspect(file + "!/com/example/SparkJob.class");

    assertThat(o.mainClass()).contains("com.example.SparkJob");
    assertThat(o.notes()).anySatisfy(n -> assertThat(n).contains(script.length + " bytes precede"));
    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
  }

  @Test
  void zip64RecordsAndExtraFieldsAreRead() throws Exception {
    byte[] zip = zip64("hello.txt", "hi from zip64\n".getBytes());
    Path file = TestJars.write(dir, "z64.zip", zip);
    try (ZipFile check = new ZipFile(file.toFile())) { // the fixture is a valid ZIP64 archive
      assertThat(check.getEntry("hello.txt").getSize()).isEqualTo(14);
    }

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(file.toString());
    SourceView s = (SourceView) ClassInspector.create().inspect(file + "!/hello.txt");

    assertThat(o.entries()).isEqualTo(1);
    assertThat(o.files()).isEqualTo(1);
    assertThat(s.lines()).containsExactly("hi from zip64");
  }

  @Test
  void aClassNewerThanTheDisassemblerKnowsIsReadWithANote() throws Exception {
    byte[] cls = Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB).get("com/example/SparkJob.class").clone();
    cls[7] = 75; // Java 31
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("com/example/SparkJob.class", cls));

    ClassView v = (ClassView) inspect(jar, "com.example.SparkJob");

    assertThat(v.classes().get(0).majorVersion()).isEqualTo(75);
    assertThat(v.classes().get(0).malformed()).isEmpty();
    assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("newer than the disassembler knows"));
  }

  /** A one-entry stored ZIP whose sizes and offset live only in ZIP64 records and extra fields. */
  static byte[] zip64(String name, byte[] data) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    CRC32 crc = new CRC32();
    crc.update(data);
    ByteBuffer b = ByteBuffer.allocate(1024 + data.length).order(ByteOrder.LITTLE_ENDIAN);
    // Local header with a ZIP64 extra field holding both sizes.
    b.putInt(0x04034b50).putShort((short) 45).putShort((short) 0).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putInt((int) crc.getValue())
        .putInt(-1).putInt(-1).putShort((short) n.length).putShort((short) 20).put(n)
        .putShort((short) 1).putShort((short) 16).putLong(data.length).putLong(data.length)
        .put(data);
    int cdStart = b.position();
    b.putInt(0x02014b50).putShort((short) 45).putShort((short) 45).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt((int) crc.getValue())
        .putInt(-1).putInt(-1).putShort((short) n.length).putShort((short) 28).putShort((short) 0)
        .putShort((short) 0).putShort((short) 0).putInt(0).putInt(-1).put(n)
        .putShort((short) 1).putShort((short) 24).putLong(data.length).putLong(data.length)
        .putLong(0);
    int cdEnd = b.position();
    int z64 = b.position();
    b.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
        .putLong(1).putLong(1).putLong(cdEnd - cdStart).putLong(cdStart);
    b.putInt(0x07064b50).putInt(0).putLong(z64).putInt(1);
    b.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) -1)
        .putShort((short) -1).putInt(-1).putInt(-1).putShort((short) 0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b.array(), 0, b.position());
    return out.toByteArray();
  }
}

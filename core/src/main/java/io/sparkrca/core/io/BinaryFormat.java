package io.sparkrca.core.io;

import java.util.Locale;
import java.util.Optional;

/**
 * Binary formats that are neither a log nor a codec Spark writes, recognised by their magic
 * bytes, so that a reader can say what a file is after its first bytes instead of reading all of
 * it as text: archives and class files (code), columnar and row data files, and compressors
 * Spark does not use.
 *
 * <pre>{@code
 * Optional<BinaryFormat> f = BinaryFormat.detect("app.jar", source.read(0, BinaryFormat.MAGIC_LENGTH));
 * f.ifPresent(x -> System.out.println("app.jar is " + x.description())); // "a JAR (ZIP archive)"
 * }</pre>
 */
public enum BinaryFormat {
  JAR("a JAR (ZIP archive)", Category.CODE),
  ZIP("a ZIP archive", Category.CODE),
  JAVA_CLASS("a Java class file", Category.CODE),
  PARQUET("a Parquet data file", Category.DATA),
  ORC("an ORC data file", Category.DATA),
  AVRO("an Avro data file", Category.DATA),
  BZIP2("bzip2-compressed", Category.COMPRESSED),
  XZ("xz-compressed", Category.COMPRESSED),
  SEVEN_Z("a 7z archive", Category.COMPRESSED);

  /** What a format holds, which decides what can read it. */
  public enum Category {
    /** Code: archives and class files, which the inspector reads. */
    CODE,
    /** Data an application read or wrote, which no sparkrca reader reads. */
    DATA,
    /** Compressed in a format Spark never writes: decompress it first. */
    COMPRESSED
  }

  /** How many leading bytes {@link #detect} needs. */
  public static final int MAGIC_LENGTH = 16;

  private final String description;
  private final Category category;

  BinaryFormat(String description, Category category) {
    this.description = description;
    this.category = category;
  }

  /** The format in words, to follow "is": {@code "a JAR (ZIP archive)"}, {@code "bzip2-compressed"}. */
  public String description() {
    return description;
  }

  public Category category() {
    return category;
  }

  /**
   * The format {@code head} (the first bytes of a file, as stored) starts with; {@code fileName}
   * tells a JAR from another ZIP archive. Empty for text, for the codecs Spark writes and for
   * anything not recognised.
   */
  public static Optional<BinaryFormat> detect(String fileName, byte[] head) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (startsWith(head, 'P', 'K', 3, 4) || startsWith(head, 'P', 'K', 5, 6) || startsWith(head, 'P', 'K', 7, 8)) {
      boolean jar = name.endsWith(".jar") || name.endsWith(".war") || name.endsWith(".ear");
      return Optional.of(jar ? JAR : ZIP);
    }
    // 0xCAFEBABE also starts Mach-O universal binaries; a class file's major version tells them apart.
    if (startsWith(head, 0xCA, 0xFE, 0xBA, 0xBE) && head.length >= 8) {
      int major = ((head[6] & 0xff) << 8) | (head[7] & 0xff);
      if (major >= 45 && major < 100) {
        return Optional.of(JAVA_CLASS);
      }
    }
    if (startsWith(head, 'P', 'A', 'R', '1')) {
      return Optional.of(PARQUET);
    }
    if (startsWith(head, 'O', 'R', 'C')) {
      return Optional.of(ORC);
    }
    if (startsWith(head, 'O', 'b', 'j', 1)) {
      return Optional.of(AVRO);
    }
    if (startsWith(head, 'B', 'Z', 'h') && head.length >= 10 && head[3] >= '1' && head[3] <= '9'
        && startsWithAt(head, 4, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59)) {
      return Optional.of(BZIP2);
    }
    if (startsWith(head, 0xFD, '7', 'z', 'X', 'Z', 0)) {
      return Optional.of(XZ);
    }
    if (startsWith(head, '7', 'z', 0xBC, 0xAF, 0x27, 0x1C)) {
      return Optional.of(SEVEN_Z);
    }
    return Optional.empty();
  }

  private static boolean startsWith(byte[] head, int... magic) {
    return startsWithAt(head, 0, magic);
  }

  private static boolean startsWithAt(byte[] head, int offset, int... magic) {
    if (head.length < offset + magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if ((head[offset + i] & 0xff) != (magic[i] & 0xff)) {
        return false;
      }
    }
    return true;
  }
}

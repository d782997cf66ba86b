package io.sparkrca.inspector;

/**
 * One central-directory record of a ZIP archive, with every offset already shifted by the bytes
 * prepended to the archive (an executable jar's launch script, for example). {@code crc} is the
 * CRC-32 of the uncompressed content the directory declares, which tells two builds' entries apart
 * without reading them.
 */
record ZipEntryInfo(
    String name,
    int index,
    int method,
    int flags,
    long compressedSize,
    long size,
    long localHeaderOffset,
    int nameLength,
    int centralExtraLength,
    long crc) {

  static final int STORED = 0;
  static final int DEFLATED = 8;

  boolean isDirectory() {
    return name.endsWith("/");
  }

  boolean isClass() {
    return !isDirectory() && name.endsWith(".class");
  }

  boolean encrypted() {
    return (flags & 1) != 0;
  }

  /** The last path segment. */
  String simpleName() {
    String n = isDirectory() ? name.substring(0, name.length() - 1) : name;
    return n.substring(n.lastIndexOf('/') + 1);
  }

  /** Whether the name could escape a directory if someone extracted it ({@code ../}, absolute). */
  boolean unsafeName() {
    String n = name.replace('\\', '/');
    return n.startsWith("/")
        || n.equals("..")
        || n.startsWith("../")
        || n.contains("/../")
        || n.endsWith("/..")
        || (n.length() > 1 && n.charAt(1) == ':')
        || n.indexOf('\0') >= 0;
  }

  static String methodName(int method) {
    return switch (method) {
      case 0 -> "stored";
      case 8 -> "deflated";
      case 9 -> "deflate64";
      case 12 -> "bzip2";
      case 14 -> "lzma";
      case 93 -> "zstd";
      case 95 -> "xz";
      case 99 -> "AES-encrypted";
      default -> "method " + method;
    };
  }
}

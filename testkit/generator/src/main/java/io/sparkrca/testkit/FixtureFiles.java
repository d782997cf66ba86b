package io.sparkrca.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.GZIPOutputStream;

/** File operations on event logs and fixture directories. */
public final class FixtureFiles {
  private FixtureFiles() {}

  /** Copies a file or a directory tree. */
  public static void copyTree(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      Files.createDirectories(to.toAbsolutePath().getParent());
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
      return;
    }
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Writes {@code from} gzip-compressed to {@code to}, as an archiving job would. */
  public static void gzip(Path from, Path to) throws IOException {
    try (InputStream in = Files.newInputStream(from);
        OutputStream out = new GZIPOutputStream(Files.newOutputStream(to), 1 << 16)) {
      in.transferTo(out);
    }
  }

  /**
   * Copies the first {@code bytes} bytes of a file: an event log cut off where a crashed or
   * still-running writer stopped.
   */
  public static void truncatedCopy(Path from, Path to, long bytes) throws IOException {
    try (InputStream in = Files.newInputStream(from); OutputStream out = Files.newOutputStream(to)) {
      byte[] buf = new byte[8192];
      long left = bytes;
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          break;
        }
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  /** Total size of a file or directory tree in bytes. */
  public static long size(Path p) throws IOException {
    if (!Files.isDirectory(p)) {
      return Files.size(p);
    }
    try (var s = Files.walk(p)) {
      return s.filter(Files::isRegularFile).mapToLong(f -> {
        try {
          return Files.size(f);
        } catch (IOException e) {
          return 0;
        }
      }).sum();
    }
  }
}

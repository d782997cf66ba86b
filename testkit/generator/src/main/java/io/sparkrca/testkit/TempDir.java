package io.sparkrca.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A temporary directory that {@link #close} deletes with everything in it. Each forked run gets
 * one and points {@code java.io.tmpdir}, {@code spark.local.dir} and its SPARK_HOME into it, so
 * nothing a run writes survives it, even when the run was killed.
 */
public final class TempDir implements AutoCloseable {
  private final Path path;

  private TempDir(Path path) {
    this.path = path;
  }

  /** Creates a fresh directory named {@code prefix*} under {@code parent}. */
  public static TempDir create(Path parent, String prefix) throws IOException {
    Files.createDirectories(parent);
    return new TempDir(Files.createTempDirectory(parent, prefix));
  }

  public Path path() {
    return path;
  }

  /** Deletes the directory tree; symbolic links are removed, never followed. */
  @Override
  public void close() {
    deleteTree(path);
  }

  /** Deletes {@code root} and everything below it, if it exists. */
  public static void deleteTree(Path root) {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + root, e);
    }
  }
}

package io.sparkrca.core.io;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.OptionalLong;

/** A {@link ByteSource} over a local file, read with positional reads. */
final class LocalByteSource implements ByteSource {
  private final Path path;

  LocalByteSource(Path path) {
    this.path = Objects.requireNonNull(path, "path");
  }

  @Override
  public String name() {
    return path.toString();
  }

  @Override
  public String fileName() {
    Path f = path.getFileName();
    return f == null ? path.toString() : f.toString();
  }

  @Override
  public boolean isLocal() {
    return true;
  }

  @Override
  public OptionalLong size() throws IOException {
    try {
      return OptionalLong.of(Files.size(path));
    } catch (NoSuchFileException e) {
      throw notFound();
    }
  }

  @Override
  public java.util.Optional<java.time.Instant> lastModified() throws IOException {
    try {
      return java.util.Optional.of(Files.getLastModifiedTime(path).toInstant());
    } catch (NoSuchFileException e) {
      throw notFound();
    }
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    refuseSpecialFile();
    if (path.getFileSystem() == FileSystems.getDefault()) {
      // A FileInputStream reads into the caller's array with less copying and bookkeeping than
      // a channel's stream (about 20% less CPU for a file of gigabytes, read in 1 MiB reads).
      FileInputStream in;
      try {
        in = new FileInputStream(path.toFile());
      } catch (FileNotFoundException e) {
        // Its message mixes up missing, unreadable and directories; the channel's errors don't.
        openChannel().close();
        throw e;
      }
      try {
        in.getChannel().position(offset);
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
      return in;
    }
    FileChannel channel = openChannel();
    try {
      channel.position(offset);
      return Channels.newInputStream(channel);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new InvalidRequestException(
          "read of " + path + ": offset and length must be 0 or more, were " + offset + " and " + length);
    }
    try (FileChannel channel = openChannel()) {
      long available = Math.max(0, channel.size() - offset);
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(length, available));
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          break;
        }
      }
      if (buffer.hasRemaining()) {
        byte[] shorter = new byte[buffer.position()];
        System.arraycopy(buffer.array(), 0, shorter, 0, shorter.length);
        return shorter;
      }
      return buffer.array();
    }
  }

  private FileChannel openChannel() throws IOException {
    if (Files.isDirectory(path)) {
      throw new UnsupportedInputException(
          path + " is a directory, not a file: name one of the files in it");
    }
    refuseSpecialFile();
    try {
      return FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw notFound();
    } catch (java.nio.file.AccessDeniedException e) {
      throw new AccessDeniedException(
          path.toString(), "file permissions", "run as a user who can read it, or copy it", e);
    }
  }

  /**
   * Refuses a named pipe, device or socket by what the file system says it is, before opening it:
   * opening a pipe waits for a writer, and a device such as /dev/urandom never ends.
   */
  private void refuseSpecialFile() throws IOException {
    java.nio.file.attribute.BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw notFound();
    }
    if (attributes.isOther()) {
      throw new UnsupportedInputException(
          path + " is " + specialKind(path) + ", not a regular file: sparkrca reads only regular files "
              + "(reading this could wait for a writer or never end), so it was not opened; copy its content "
              + "into a file and name that file");
    }
  }

  /** What kind of special file {@code p} is, from its Unix mode where the file system gives one. */
  static String specialKind(Path p) {
    try {
      int type = ((Integer) Files.getAttribute(p, "unix:mode")) & 0170000;
      switch (type) {
        case 0010000:
          return "a named pipe (FIFO)";
        case 0020000:
          return "a character device";
        case 0060000:
          return "a block device";
        case 0140000:
          return "a socket";
        default:
          return "a special file";
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
      return "a special file";
    }
  }

  private InputNotFoundException notFound() {
    return new InputNotFoundException(path.toString(), "check the path");
  }

  @Override
  public String toString() {
    return "LocalByteSource[" + path + "]";
  }
}

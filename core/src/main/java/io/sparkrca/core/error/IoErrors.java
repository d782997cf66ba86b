package io.sparkrca.core.error;

import io.sparkrca.core.redaction.Redactor;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns the {@link IOException}s of byte sources and files into sparkrca's exceptions, each naming
 * the input: a missing file is an {@link InputNotFoundException}, one the process may not read an
 * {@link AccessDeniedException}, a truncated or corrupt stream a {@link CorruptInputException}, a
 * directory where a file was expected an {@link UnsupportedInputException}, and any other failure a
 * {@link SparkRcaException} with the {@code IOException} as its cause. Providers throw
 * {@code IOException} (their natural contract); sparkrca's public entry points translate it with
 * this, so callers only ever catch {@link SparkRcaException}.
 *
 * <pre>{@code
 * byte[] head;
 * try {
 *   head = source.read(0, 64);
 * } catch (IOException e) {
 *   throw IoErrors.translate(source.name(), e);
 * }
 * byte[] same = IoErrors.call(source.name(), () -> source.read(0, 64)); // the same
 * }</pre>
 */
public final class IoErrors {
  private IoErrors() {}

  /** A piece of I/O, for {@link #call(String, IoCall)}. */
  @FunctionalInterface
  public interface IoCall<T> {
    T call() throws IOException;
  }

  /**
   * Runs {@code call}, translating an {@link IOException} (or an {@link UncheckedIOException})
   * with {@link #translate(String, IOException)}; sparkrca's own exceptions pass through.
   */
  public static <T> T call(String input, IoCall<T> call) {
    try {
      return call.call();
    } catch (IOException e) {
      throw translate(input, e);
    } catch (UncheckedIOException e) {
      throw translate(input, e.getCause());
    }
  }

  /** {@link #translate(String, IOException)} of the wrapped exception. */
  public static SparkRcaException translate(String input, UncheckedIOException e) {
    return translate(input, Objects.requireNonNull(e, "e").getCause());
  }

  /**
   * The sparkrca exception for an I/O failure while reading {@code input} (a path or URI, redacted
   * in the message), with {@code e} as its cause.
   */
  public static SparkRcaException translate(String input, IOException e) {
    Objects.requireNonNull(e, "e");
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof SparkRcaException s) {
        return s; // already says what went wrong
      }
    }
    String name = Redactor.redactUri(String.valueOf(input));
    String detail = detail(e);
    if (e instanceof java.nio.file.NoSuchFileException ns) {
      String file = ns.getFile();
      String missing =
          file != null && !name.contains(file) ? " (" + Redactor.redactUri(file) + " does not exist)" : "";
      return new InputNotFoundException(name + missing, "check the path", e);
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return accessDenied(name, e);
    }
    if (e instanceof FileNotFoundException) {
      // Its message mixes up missing, unreadable and directories: "/x/y (Permission denied)".
      String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
      if (m.contains("permission denied") || m.contains("access is denied")) {
        return accessDenied(name, e);
      }
      if (m.contains("is a directory")) {
        return directory(name, e);
      }
      return new InputNotFoundException(name, "check the path", e);
    }
    if (e instanceof java.nio.file.NotDirectoryException) {
      return new UnsupportedInputException(
          name + " is a file, not a directory: name the directory that holds it, or the file itself", e);
    }
    if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("is a directory")) {
      // Reading a directory fails with a plain IOException or a FileSystemException saying so.
      return directory(name, e);
    }
    if (e instanceof EOFException) {
      return new CorruptInputException(
          name + " ends early (" + detail + "): it is truncated; copy it again, or if it is still "
              + "being written, read it once it is complete",
          e);
    }
    if (e instanceof java.util.zip.ZipException
        || e instanceof java.nio.charset.CharacterCodingException
        || e instanceof java.io.CharConversionException
        || e instanceof java.io.StreamCorruptedException
        || e instanceof java.io.UTFDataFormatException
        || e instanceof com.fasterxml.jackson.core.JsonProcessingException) {
      return new CorruptInputException(
          name + " is corrupt or not in the expected format (" + detail + "); check how it was "
              + "written and copied",
          e);
    }
    if (e instanceof InterruptedIOException
        && !(e instanceof java.net.SocketTimeoutException)
        && !(e instanceof java.net.http.HttpTimeoutException)) {
      return new SparkRcaException(
          "Reading " + name + " was interrupted (" + detail + "); run it again if that was not meant", e);
    }
    return new SparkRcaException(
        name + ": I/O error (" + detail + "); check that it exists, is readable and reachable, "
            + "then try again",
        e);
  }

  private static AccessDeniedException accessDenied(String name, IOException e) {
    return new AccessDeniedException(
        name, "file permissions", "run as a user who may read it, or copy it somewhere readable", e);
  }

  private static UnsupportedInputException directory(String name, IOException e) {
    return new UnsupportedInputException(
        name + " is a directory, not a file: name one of the files in it", e);
  }

  private static String detail(IOException e) {
    String m = e.getMessage();
    String simple = e.getClass().getSimpleName();
    return Redactor.redactUri(m == null || m.isBlank() ? simple : simple + ": " + m);
  }
}

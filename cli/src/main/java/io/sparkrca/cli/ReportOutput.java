package io.sparkrca.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.Optional;

/**
 * Where a command's report goes, the same way for every command: standard output, or a file written
 * atomically (a temporary file in the same directory renamed into place, so that a failed run never
 * leaves half a report); and, with {@code --format json}, an error as one JSON document on standard
 * output ({@code {"status":"ERROR","error":{"message":...}}}) while standard error has the human line.
 *
 * <pre>{@code
 * ReportOutput.write(spec.commandLine().getOut(), Optional.ofNullable(output), report.toMarkdown());
 * }</pre>
 */
final class ReportOutput {
  /** Made on first use: most runs print no JSON error, and a mapper costs a just-started JVM a tenth of a second. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private ReportOutput() {}

  /** Writes {@code text} (with a final newline) to {@code file} atomically, or to {@code out} when there is none. */
  static void write(PrintWriter out, Optional<Path> file, String text) {
    ReadProgress.finish(); // the reads are done: no progress line above, or inside, the report
    if (file.isEmpty()) {
      out.print(text);
      if (!text.endsWith("\n")) {
        out.println();
      }
      out.flush();
      return;
    }
    Path abs = file.get().toAbsolutePath();
    try {
      Path dir = abs.getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      Path tmp = temporaryBeside(dir == null ? Path.of(".") : dir, abs);
      try {
        Files.writeString(tmp, text.endsWith("\n") ? text : text + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new SparkRcaException("could not write the report to " + abs + ": " + e.getMessage()
          + "; check that the directory exists and is writable");
    }
  }

  /**
   * A new empty file in {@code dir} to rename onto {@code target}: created as any file the user
   * creates is (the permissions the umask leaves, not a temporary file's owner-only 0600), or with
   * {@code target}'s own permissions when it exists, so that replacing a report keeps who may read it.
   */
  static Path temporaryBeside(Path dir, Path target) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Path tmp = dir.resolve(".sparkrca-" + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
      try {
        Files.createFile(tmp);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (attempt < 100) {
          continue;
        }
        throw e;
      }
      if (Files.exists(target) && Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
        try {
          Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(target));
        } catch (IOException | UnsupportedOperationException e) {
          // The new file keeps the umask's permissions.
        }
      }
      return tmp;
    }
  }

  /** Whether this thread's command has printed its JSON error document already. */
  private static final ThreadLocal<Boolean> ERROR_WRITTEN = ThreadLocal.withInitial(() -> false);

  /**
   * The JSON error document for {@code e}, for a command that prints it itself before rethrowing;
   * {@link SparkRcaCommand} then prints no second one.
   */
  static void jsonError(PrintWriter out, SparkRcaException e) {
    jsonError(out, SparkRcaCommand.describe(e), SparkRcaCommand.EXIT_ERROR);
  }

  /** Forgets a previous command's error document (at the start of each command line). */
  static void resetErrorWritten() {
    ERROR_WRITTEN.set(false);
  }

  /** Whether a JSON error document was printed since {@link #resetErrorWritten()}. */
  static boolean errorWritten() {
    return ERROR_WRITTEN.get();
  }

  /** The JSON error document for {@code message}, printed to {@code out} (secrets redacted). */
  static void jsonError(PrintWriter out, String message, int exitCode) {
    ERROR_WRITTEN.set(true);
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("status", "ERROR");
    o.put("exitCode", exitCode);
    o.putObject("error").put("message", Redactor.standard().redactText(message));
    out.println(o.toPrettyString());
    out.flush();
  }
}

package io.sparkrca.core.io;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns what a user names (files, directories, object prefixes, and local globs such as {@code
 * logs/*.stderr} or {@code work/**&#47;stderr}) into the files to read, sorted, hidden files left
 * out, at most a cap of them. What names nothing is a {@link Problem}, not an exception, so that one
 * bad name does not stop the others.
 *
 * <pre>{@code
 * SourceFiles.Listing l = SourceFiles.expand(ByteSources.defaults(), List.of("executor-logs/", "*.log"), 1000, 2);
 * l.files().forEach(f -> search(f));
 * l.problems().forEach(p -> System.err.println(p.uri() + ": " + p.message()));
 * }</pre>
 */
public final class SourceFiles {
  private SourceFiles() {}

  /**
   * What {@link #expand} found.
   *
   * @param files the files, in the order named (each directory's or glob's files sorted by name)
   * @param problems the names that gave no file, and why
   * @param capped whether files were left out at the cap
   */
  public record Listing(List<String> files, List<Problem> problems, boolean capped) {
    public Listing {
      files = List.copyOf(files);
      problems = List.copyOf(problems);
    }
  }

  /**
   * A name that gave no file.
   *
   * @param uri the name as given (credentials removed)
   * @param message why, e.g. "the directory holds no files"
   * @param cause the failure behind it, when there was one (not found, access denied, a timeout)
   */
  public record Problem(String uri, String message, Optional<SparkRcaException> cause) {
    public Problem {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(cause, "cause");
    }
  }

  /**
   * Expands {@code uris}.
   *
   * @param maxFiles the most files returned (at least 1)
   * @param maxDepth how many directory levels are listed below a named directory (at least 1)
   */
  public static Listing expand(ByteSources bytes, List<String> uris, int maxFiles, int maxDepth) {
    Objects.requireNonNull(bytes, "bytes");
    if (maxFiles < 1 || maxDepth < 1) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "maxFiles and maxDepth must be at least 1, were " + maxFiles + " and " + maxDepth);
    }
    List<String> files = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    boolean capped = false;
    for (String uri : uris) {
      if (files.size() >= maxFiles) {
        capped = true;
        break;
      }
      try {
        if (isLocalGlob(uri)) {
          capped |= glob(uri, maxFiles, files, problems);
        } else if (bytes.isDirectory(uri)) {
          int before = files.size();
          capped |= list(bytes, uri, maxDepth, maxFiles, files);
          if (files.size() == before) {
            problems.add(new Problem(Redactor.redactUri(uri), "the directory holds no files", Optional.empty()));
          }
        } else {
          files.add(uri);
        }
      } catch (SparkRcaException e) {
        problems.add(new Problem(Redactor.redactUri(uri), e.getMessage(), Optional.of(e)));
      } catch (IOException | java.io.UncheckedIOException e) {
        SparkRcaException s = e instanceof IOException ioe
            ? io.sparkrca.core.error.IoErrors.translate(Redactor.redactUri(uri), ioe)
            : io.sparkrca.core.error.IoErrors.translate(Redactor.redactUri(uri), (java.io.UncheckedIOException) e);
        problems.add(new Problem(Redactor.redactUri(uri), s.getMessage(), Optional.of(s)));
      }
    }
    return new Listing(files, problems, capped);
  }

  /** A local name with glob characters that is not itself an existing file. */
  static boolean isLocalGlob(String uri) {
    if (uri.contains("://") || uri.startsWith("file:")) {
      return false;
    }
    if (uri.chars().noneMatch(c -> c == '*' || c == '?' || c == '[' || c == '{')) {
      return false;
    }
    try {
      return !Files.exists(Path.of(uri));
    } catch (java.nio.file.InvalidPathException e) {
      return true;
    }
  }

  /** Files matching a local glob, walked from the directories before its first wildcard. */
  private static boolean glob(String pattern, int maxFiles, List<String> out, List<Problem> problems) throws IOException {
    String normalized = pattern.replace('\\', '/');
    int wild = firstWildcard(normalized);
    int slash = normalized.lastIndexOf('/', wild);
    Path base = slash < 0 ? Path.of(".") : Path.of(slash == 0 ? "/" : normalized.substring(0, slash));
    String rest = normalized.substring(slash + 1);
    if (!Files.isDirectory(base)) {
      problems.add(new Problem(pattern, "no file matches: " + base + " is not a directory", Optional.of(
          new InputNotFoundException(base.toString(), "no such directory"))));
      return false;
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + rest);
    int depth = rest.contains("**") ? Integer.MAX_VALUE : (int) rest.chars().filter(c -> c == '/').count() + 1;
    List<Path> found = new ArrayList<>();
    boolean capped = false;
    try (Stream<Path> walk = Files.walk(base, depth)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path rel = base.relativize(p);
        if (Files.isRegularFile(p) && !p.getFileName().toString().startsWith(".") && matcher.matches(rel)) {
          found.add(p);
        }
      }
    }
    found.sort(Comparator.comparing(Path::toString));
    if (found.isEmpty()) {
      problems.add(new Problem(pattern, "no file matches", Optional.of(new InputNotFoundException(pattern, "no file matches"))));
    }
    for (Path p : found) {
      if (out.size() >= maxFiles) {
        capped = true;
        break;
      }
      out.add(slash < 0 ? rel(p) : p.toString());
    }
    return capped;
  }

  private static String rel(Path p) {
    String s = p.toString();
    return s.startsWith("./") ? s.substring(2) : s;
  }

  private static int firstWildcard(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == '{') {
        return i;
      }
    }
    return s.length();
  }

  /** Files under {@code dir}, sorted, {@code depth} levels deep; true when capped. */
  private static boolean list(ByteSources bytes, String dir, int depth, int maxFiles, List<String> out) {
    List<SourceEntry> entries = new ArrayList<>(bytes.list(dir));
    entries.sort(Comparator.comparing(SourceEntry::name));
    for (SourceEntry e : entries) {
      if (out.size() >= maxFiles) {
        return true;
      }
      if (e.directory()) {
        if (depth > 1 && list(bytes, e.uri(), depth - 1, maxFiles, out)) {
          return true;
        }
      } else if (!e.name().startsWith(".")) {
        out.add(e.uri());
      }
    }
    return false;
  }
}

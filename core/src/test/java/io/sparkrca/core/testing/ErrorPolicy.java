package io.sparkrca.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The error policy of the library (issue #11), checked over a module's sources: everything a
 * public entry point throws is a {@code SparkRcaException} subclass, so no source throws {@code
 * IllegalArgumentException}, {@code IllegalStateException} or {@code UncheckedIOException}; and
 * a library message never names a command-line flag ({@code "--strict"}, {@code "--entry"}), since
 * the library is used from Java too: it says what to do in library terms, and the CLI adds its
 * own flags when it prints the message.
 *
 * <p>Comments are ignored; string literals (text blocks included) and code are scanned
 * separately. Options of spark-submit and {@code gcloud dataproc} ({@link #SPARK_OPTIONS}) are
 * advice about how a Spark job is submitted, not about sparkrca's command line, and are allowed.
 *
 * <pre>{@code
 * List<ErrorPolicy.Violation> v = ErrorPolicy.scan(Path.of("src/main/java"), List.of());
 * assertThat(v).isEmpty();
 * }</pre>
 */
public final class ErrorPolicy {
  private ErrorPolicy() {}

  /** Exceptions the library must not throw: each has a SparkRcaException subclass instead. */
  public static final Pattern FORBIDDEN_THROW =
      Pattern.compile(
          "\\bthrow\\s+new\\s+(?:[\\w.]+\\.)?(IllegalArgumentException|IllegalStateException|UncheckedIOException)\\b");

  /** A command-line flag in a string literal. */
  public static final Pattern FLAG = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9-]*)");

  /**
   * Options of spark-submit, of Spark's executor launcher and of {@code gcloud dataproc}, which
   * remediation advice and log parsing name legitimately: they are how a Spark job is submitted,
   * not options of sparkrca's command line.
   */
  public static final Set<String> SPARK_OPTIONS =
      Set.of(
          "class", "jars", "py-files", "archives", "files", "packages", "conf", "properties",
          "properties-file", "executor-id", "master", "deploy-mode", "driver-memory",
          "executor-memory", "num-executors", "executor-cores");

  /** One breach of the policy: where, what and the source line. */
  public record Violation(Path file, int line, String what, String text) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + what + "\n    " + text.strip();
    }
  }

  /**
   * An allowed breach, with the reason: the file (relative to the scanned root, '/'-separated),
   * a text its line contains, and why it must stay.
   */
  public record Exemption(String file, String lineContains, String why) {}

  /** The breaches in every {@code .java} file under {@code root}, minus the exempted ones. */
  public static List<Violation> scan(Path root, List<Exemption> exemptions) {
    List<Violation> all = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")).sorted()::iterator) {
        String rel = root.relativize(f).toString().replace('\\', '/');
        for (Violation v : scanSource(Path.of(rel), Files.readString(f, StandardCharsets.UTF_8))) {
          if (exemptions.stream().noneMatch(e -> exempts(e, v))) {
            all.add(v);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all;
  }

  /** The exemptions that match no breach any more: they should be removed. */
  public static List<Exemption> unused(Path root, List<Exemption> exemptions) {
    List<Violation> raw = scan(root, List.of());
    return exemptions.stream().filter(e -> raw.stream().noneMatch(v -> exempts(e, v))).toList();
  }

  private static boolean exempts(Exemption e, Violation v) {
    return v.file().toString().replace('\\', '/').equals(e.file()) && v.text().contains(e.lineContains());
  }

  /** The breaches in one source text. */
  public static List<Violation> scanSource(Path file, String source) {
    Lexed lexed = lex(source);
    String[] lines = source.split("\n", -1);
    List<Violation> out = new ArrayList<>();
    Matcher t = FORBIDDEN_THROW.matcher(lexed.code);
    while (t.find()) {
      int line = lineOf(lexed.code, t.start());
      out.add(new Violation(file, line, "throws " + t.group(1)
          + "; throw a SparkRcaException subclass (InvalidRequestException for a bad argument), "
          + "or an AssertionError for an invariant no input can break", lines[line - 1]));
    }
    for (Literal lit : lexed.literals) {
      Matcher m = FLAG.matcher(lit.text);
      while (m.find()) {
        if (!SPARK_OPTIONS.contains(m.group(1))) {
          int line = lit.line + (int) lit.text.substring(0, m.start()).chars().filter(ch -> ch == '\n').count();
          out.add(new Violation(file, line, "a message names the command-line flag --" + m.group(1)
              + "; say what to do in library terms (the CLI adds its own flags)", lines[line - 1]));
        }
      }
    }
    out.sort(java.util.Comparator.comparingInt(Violation::line));
    return out;
  }

  private record Literal(int line, String text) {}

  /** The source with comments and literals blanked (line breaks kept), and the literals. */
  private record Lexed(String code, List<Literal> literals) {}

  /** The source with comments and string and character literals blanked, line breaks kept. */
  public static String codeOnly(String source) {
    return lex(source).code;
  }

  private static Lexed lex(String s) {
    StringBuilder code = new StringBuilder(s.length());
    List<Literal> literals = new ArrayList<>();
    int line = 1;
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
        while (i < n && s.charAt(i) != '\n') {
          code.append(' ');
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        for (; i < end; i++) {
          char k = s.charAt(i);
          code.append(k == '\n' ? '\n' : ' ');
          line += k == '\n' ? 1 : 0;
        }
      } else if (s.startsWith("\"\"\"", i)) {
        int start = line;
        int end = s.indexOf("\"\"\"", i + 3);
        while (end > 0 && s.charAt(end - 1) == '\\') {
          end = s.indexOf("\"\"\"", end + 1);
        }
        end = end < 0 ? n : end + 3;
        literals.add(new Literal(start, s.substring(i + 3, Math.max(i + 3, end - 3))));
        for (; i < end; i++) {
          char k = s.charAt(i);
          code.append(k == '\n' ? '\n' : ' ');
          line += k == '\n' ? 1 : 0;
        }
      } else if (c == '"' || c == '\'') {
        StringBuilder text = new StringBuilder();
        code.append(' ');
        i++;
        while (i < n && s.charAt(i) != c && s.charAt(i) != '\n') {
          if (s.charAt(i) == '\\' && i + 1 < n) {
            text.append(s.charAt(i)).append(s.charAt(i + 1));
            code.append("  ");
            i += 2;
            continue;
          }
          text.append(s.charAt(i));
          code.append(' ');
          i++;
        }
        if (i < n && s.charAt(i) == c) {
          code.append(' ');
          i++;
        }
        if (c == '"') {
          literals.add(new Literal(line, text.toString()));
        }
      } else {
        code.append(c);
        line += c == '\n' ? 1 : 0;
        i++;
      }
    }
    return new Lexed(code.toString(), literals);
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int k = 0; k < offset; k++) {
      if (text.charAt(k) == '\n') {
        line++;
      }
    }
    return line;
  }
}

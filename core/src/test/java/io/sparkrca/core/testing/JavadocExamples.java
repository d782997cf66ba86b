package io.sparkrca.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps the Javadoc examples compiled (issue #39): every Java example in a {@code <pre>{@code
 * ...}</pre>} block of a public type's Javadoc (or a package's {@code package-info.java}) must
 * appear in a compiled example class of the module's tests, so that an example that stops
 * compiling breaks the build instead of misleading a reader.
 *
 * <p>The rules, applied by {@link #check}:
 *
 * <ul>
 *   <li><b>Which blocks.</b> Every such block in a Javadoc comment of a {@code .java} file whose
 *       top-level type is {@code public}, and of every {@code package-info.java}. The leading
 *       {@code *} of each comment line is dropped.
 *   <li><b>Which blocks are Java.</b> All of them, except a block whose first line is a command
 *       ({@link #COMMANDS}: {@code sparkrca}, {@code spark-submit}, {@code mvn}, {@code java},
 *       {@code gcloud}, {@code kubectl}, {@code curl}, {@code $}), a block that opens with a
 *       brace, a bracket or an angle bracket (JSON, XML), and a block the module lists as {@link
 *       NotJava} with the reason (a CEL expression, say).
 *   <li><b>What counts as compiled.</b> The block appears in one {@code .java} file under the
 *       example roots, comparing without any whitespace. Where the block elides code with {@code
 *       ...}, the example fills it in (at most {@link #MAX_ELISION} characters per elision) and the
 *       text around it appears in order. Leading {@code import} lines of the block must appear in
 *       the same file (as its imports).
 * </ul>
 *
 * <pre>{@code
 * List<Path> roots = List.of(Path.of("src/test/java/io/sparkrca/core/examples"));
 * List<JavadocExamples.Missing> missing = JavadocExamples.check(Path.of("src/main/java"), roots, List.of());
 * assertThat(missing).as(() -> JavadocExamples.describe(missing, roots)).isEmpty();
 * }</pre>
 */
public final class JavadocExamples {
  private JavadocExamples() {}

  /** The longest code, whitespace aside, that one {@code ...} of an example may stand for. */
  public static final int MAX_ELISION = 400;

  /** First words of a block that is a command line, not Java. */
  public static final List<String> COMMANDS =
      List.of("sparkrca ", "spark-submit", "mvn ", "java ", "gcloud ", "kubectl ", "curl ", "$ ");

  private static final Pattern DOC_COMMENT = Pattern.compile("/\\*\\*(.*?)\\*/", Pattern.DOTALL);
  private static final Pattern CODE_BLOCK = Pattern.compile("<pre>\\{@code(.*?)}</pre>", Pattern.DOTALL);
  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed|static|strictfp)\\s+)*"
          + "(?:class|interface|enum|record|@interface)\\s");
  private static final Pattern COMMENT_STAR = Pattern.compile("^\\s*\\*(?!/) ?");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  /** One {@code <pre>{@code ...}</pre>} block: the file, the line it starts on, its text. */
  public record Example(Path file, int line, String code) {}

  /**
   * A block that is not Java though the automatic rule takes it for Java: the file (relative to
   * the main sources, '/'-separated), a text the block contains, and what it is instead.
   */
  public record NotJava(String file, String blockContains, String why) {
    boolean matches(Path mainSources, Example e) {
      return mainSources.relativize(e.file()).toString().replace('\\', '/').equals(file)
          && e.code().contains(blockContains);
    }
  }

  /** A Java example found in no example class. */
  public record Missing(Example example) {
    @Override
    public String toString() {
      return example.file() + ":" + example.line() + "\n" + example.code().indent(4).stripTrailing();
    }
  }

  /** The Java examples of {@code mainSources} that no file under {@code exampleRoots} compiles. */
  public static List<Missing> check(Path mainSources, List<Path> exampleRoots, List<NotJava> notJava) {
    List<String> compiled = exampleRoots.stream().flatMap(JavadocExamples::javaFiles)
        .map(JavadocExamples::read).map(JavadocExamples::squeeze).toList();
    return javaExamples(mainSources, notJava).stream()
        .filter(e -> compiled.stream().noneMatch(file -> contains(file, e.code())))
        .map(Missing::new).toList();
  }

  /** The {@link NotJava} entries that match no block any more: they should be removed. */
  public static List<NotJava> unused(Path mainSources, List<NotJava> notJava) {
    List<Example> all = examples(mainSources);
    return notJava.stream().filter(n -> all.stream().noneMatch(e -> n.matches(mainSources, e))).toList();
  }

  /** The failure message for {@code missing}: each example's place and text, and what to do. */
  public static String describe(List<Missing> missing, List<Path> exampleRoots) {
    return missing.size() + " Javadoc example(s) are compiled in no example class:\n\n"
        + String.join("\n\n", missing.stream().map(Missing::toString).toList())
        + "\n\nCopy each example into a method of an example class under " + exampleRoots
        + " (a class per package, e.g. EvidenceExamples; the method's parameters declare the"
        + " example's free variables), filling in what the example elides with '...'. Whitespace"
        + " may differ; nothing else. If the example does not compile, correct the Javadoc. If the"
        + " block is not Java, see io.sparkrca.core.testing.JavadocExamples for the rule, or list"
        + " it as a NotJava with the reason.";
  }

  /** Every Java block of the public Javadoc under {@code mainSources}. */
  public static List<Example> javaExamples(Path mainSources, List<NotJava> notJava) {
    return examples(mainSources).stream()
        .filter(e -> isJava(e.code()))
        .filter(e -> notJava.stream().noneMatch(n -> n.matches(mainSources, e)))
        .toList();
  }

  /** Every block of the public Javadoc under {@code mainSources}, Java or not. */
  public static List<Example> examples(Path mainSources) {
    return javaFiles(mainSources).flatMap(f -> examplesIn(f, read(f)).stream()).toList();
  }

  /** The blocks of one source file, if its top-level type is public or it is a package-info. */
  public static List<Example> examplesIn(Path file, String source) {
    boolean published = file.getFileName().toString().equals("package-info.java")
        || PUBLIC_TYPE.matcher(source).find();
    List<Example> out = new ArrayList<>();
    if (!published) {
      return out;
    }
    Matcher comment = DOC_COMMENT.matcher(source);
    while (comment.find()) {
      Matcher block = CODE_BLOCK.matcher(source).region(comment.start(1), comment.end(1));
      while (block.find()) {
        out.add(new Example(file, lineOf(source, block.start()), uncomment(block.group(1))));
      }
    }
    return out;
  }

  /** Whether a block is Java by the automatic rule: not a command line, not JSON or XML. */
  public static boolean isJava(String code) {
    String first = code.strip();
    return !(first.startsWith("{") || first.startsWith("[") || first.startsWith("<")
        || COMMANDS.stream().anyMatch(first::startsWith));
  }

  /**
   * Whether the whitespace-free text of an example file holds {@code code}: its leading imports
   * anywhere, then its body with each {@code ...} standing for at most {@link #MAX_ELISION}
   * characters.
   */
  public static boolean contains(String squeezedFile, String code) {
    List<String> lines = code.strip().lines().toList();
    int body = 0;
    while (body < lines.size() && (lines.get(body).startsWith("import ") || lines.get(body).isBlank())) {
      if (!squeezedFile.contains(squeeze(lines.get(body)))) {
        return false;
      }
      body++;
    }
    List<String> pieces = elided(squeeze(String.join("\n", lines.subList(body, lines.size()))));
    for (int start = squeezedFile.indexOf(pieces.get(0)); start >= 0; start = squeezedFile.indexOf(pieces.get(0), start + 1)) {
      if (restFollows(squeezedFile, pieces, start + pieces.get(0).length())) {
        return true;
      }
    }
    return false;
  }

  /** The pieces around each {@code ...}; an elision at either end constrains nothing. */
  private static List<String> elided(String squeezed) {
    List<String> pieces = new ArrayList<>(List.of(squeezed.split("\\.\\.\\.", -1)));
    if (pieces.size() > 1 && pieces.get(0).isEmpty()) {
      pieces.remove(0);
    }
    if (pieces.size() > 1 && pieces.get(pieces.size() - 1).isEmpty()) {
      pieces.remove(pieces.size() - 1);
    }
    return pieces;
  }

  private static boolean restFollows(String text, List<String> pieces, int from) {
    int at = from;
    for (String piece : pieces.subList(1, pieces.size())) {
      int next = text.indexOf(piece, at);
      if (next < 0 || next - at > MAX_ELISION) {
        return false;
      }
      at = next + piece.length();
    }
    return true;
  }

  private static String uncomment(String block) {
    List<String> lines = block.lines().map(l -> COMMENT_STAR.matcher(l).replaceFirst("")).toList();
    return String.join("\n", lines).strip();
  }

  private static String squeeze(String s) {
    return WHITESPACE.matcher(s).replaceAll("");
  }

  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
  }

  private static Stream<Path> javaFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root.toAbsolutePath(), e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
    }
  }
}

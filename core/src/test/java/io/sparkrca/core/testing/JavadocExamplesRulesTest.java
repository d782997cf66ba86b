package io.sparkrca.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.JavadocExamples.Example;
import io.sparkrca.core.testing.JavadocExamples.Missing;
import io.sparkrca.core.testing.JavadocExamples.NotJava;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of {@link JavadocExamples}: which blocks count, which are Java, what matches one. */
class JavadocExamplesRulesTest {
  private static final String PUBLIC_TYPE = String.join("\n",
      "package p;",
      "",
      "/**",
      " * A thing.",
      " *",
      " * <pre>{@code",
      " * Thing t = Thing.of(\"a\");",
      " * t.run();",
      " * }</pre>",
      " */",
      "public final class Thing {",
      "  /**",
      "   * Runs.",
      "   *",
      "   * <pre>{@code",
      "   * sparkrca rca /tmp/app-1",
      "   * }</pre>",
      "   */",
      "  public void run() {}",
      "}");

  @Test
  void takesEveryBlockOfAPublicTypeWithItsLineAndWithoutTheCommentStars() {
    List<Example> blocks = JavadocExamples.examplesIn(Path.of("p/Thing.java"), PUBLIC_TYPE);

    assertThat(blocks).extracting(Example::line).containsExactly(6, 15);
    assertThat(blocks.get(0).code()).isEqualTo("Thing t = Thing.of(\"a\");\nt.run();");
    assertThat(blocks.get(1).code()).isEqualTo("sparkrca rca /tmp/app-1");
  }

  @Test
  void ignoresPackagePrivateTypesButNotPackageInfo() {
    String hidden = PUBLIC_TYPE.replace("public final class", "final class");
    String packageInfo = "/**\n * <pre>{@code\n * Thing.of(\"b\");\n * }</pre>\n */\npackage p;\n";

    assertThat(JavadocExamples.examplesIn(Path.of("p/Thing.java"), hidden)).isEmpty();
    assertThat(JavadocExamples.examplesIn(Path.of("p/package-info.java"), packageInfo))
        .extracting(Example::code).containsExactly("Thing.of(\"b\");");
  }

  @Test
  void aBlockIsJavaUnlessItIsACommandLineJsonOrXml() {
    assertThat(JavadocExamples.isJava("Thing t = Thing.of(\"a\");")).isTrue();
    assertThat(JavadocExamples.isJava("new Metric(\"x\", 1.0, \"ratio\")")).isTrue();
    assertThat(JavadocExamples.isJava("@SparkTest\nclass T { ... }")).isTrue();
    assertThat(JavadocExamples.isJava("sparkrca rca /tmp/app-1")).isFalse();
    assertThat(JavadocExamples.isJava("spark-submit --jars x.jar \\\n  app.jar")).isFalse();
    assertThat(JavadocExamples.isJava("{\"action\": \"search\"}")).isFalse();
    assertThat(JavadocExamples.isJava("[1, 2]")).isFalse();
  }

  @Test
  void anExampleMatchesWhateverItsWhitespace() {
    String file = squeeze("void thing() {\n  Thing t =\n      Thing.of(\"a\");\n  t.run();\n}");

    assertThat(JavadocExamples.contains(file, "Thing t = Thing.of(\"a\");\nt.run();")).isTrue();
    assertThat(JavadocExamples.contains(file, "Thing t = Thing.of(\"b\");\nt.run();")).isFalse();
  }

  @Test
  void anElisionStandsForShortCodeAndTheRestMustFollowInOrder() {
    String file = squeeze("if (t.ready()) { System.out.println(\"ready\"); }\nt.run();");

    assertThat(JavadocExamples.contains(file, "if (t.ready()) { ... }\nt.run();")).isTrue();
    assertThat(JavadocExamples.contains(file, "t.run();\nif (t.ready()) { ... }")).isFalse();
    String far = squeeze("if (t.ready()) { " + "x();".repeat(200) + " }");
    assertThat(JavadocExamples.contains(far, "if (t.ready()) { ... }")).isFalse();
  }

  @Test
  void leadingImportsMustBeImportsOfTheSameFile() {
    String code = "import static p.Checks.check;\n\ncheck(t);";

    assertThat(JavadocExamples.contains(squeeze("import static p.Checks.check;\nclass E { void e() { check(t); } }"), code))
        .isTrue();
    assertThat(JavadocExamples.contains(squeeze("class E { void e() { check(t); } }"), code)).isFalse();
  }

  @Test
  void reportsEachJavaExampleNoExampleClassHoldsWithItsPlaceAndSkipsTheDeclaredNotJava(@TempDir Path dir)
      throws IOException {
    Path main = Files.createDirectories(dir.resolve("main/p"));
    Files.writeString(main.resolve("Thing.java"), PUBLIC_TYPE.replace("sparkrca rca /tmp/app-1", "t.stop();"));
    Path examples = Files.createDirectories(dir.resolve("examples"));
    Files.writeString(examples.resolve("ThingExamples.java"),
        "class ThingExamples { void thing() { Thing t = Thing.of(\"a\"); t.run(); } }");
    List<Path> roots = List.of(examples);

    List<Missing> missing = JavadocExamples.check(dir.resolve("main"), roots, List.of());
    List<NotJava> stop = List.of(new NotJava("p/Thing.java", "t.stop()", "a test"));

    assertThat(missing).extracting(m -> m.example().line()).containsExactly(15);
    assertThat(JavadocExamples.describe(missing, roots))
        .contains("Thing.java:15\n    t.stop();")
        .contains("Copy each example into a method of an example class under");
    assertThat(JavadocExamples.check(dir.resolve("main"), roots, stop)).isEmpty();
    assertThat(JavadocExamples.unused(dir.resolve("main"), stop)).isEmpty();
    assertThat(JavadocExamples.unused(dir.resolve("main"), List.of(new NotJava("p/Thing.java", "gone", "x"))))
        .hasSize(1);
  }

  private static String squeeze(String s) {
    return s.replaceAll("\\s+", "");
  }
}

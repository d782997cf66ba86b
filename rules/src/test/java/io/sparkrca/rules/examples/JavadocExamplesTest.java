package io.sparkrca.rules.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.JavadocExamples;
import io.sparkrca.core.testing.JavadocExamples.Missing;
import io.sparkrca.core.testing.JavadocExamples.NotJava;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards issue #39 over rules: every Java example in the Javadoc of its public types and packages
 * is compiled in an example class of this package, so an example that stops compiling fails the
 * build instead of misleading a reader. A failure names the file and line of each example missing
 * here and says what to do; {@link JavadocExamples} states the rules.
 */
class JavadocExamplesTest {
  private static final Path SOURCES = Path.of("src/main/java");

  private static final List<Path> EXAMPLES = List.of(
      Path.of("src/test/java/io/sparkrca/rules/examples"));

  /** Blocks that look like Java to the rule but are not, each with what they are. */
  private static final List<NotJava> NOT_JAVA = List.of(
      new NotJava("io/sparkrca/rules/package-info.java", "stages.filter(x, x.num_failed_tasks > 0)",
          "CEL expressions, the language rules are written in"));

  @Test
  void everyJavaExampleOfThePublicJavadocIsCompiledInAnExampleClass() {
    List<Missing> missing = JavadocExamples.check(SOURCES, EXAMPLES, NOT_JAVA);

    assertThat(JavadocExamples.javaExamples(SOURCES, NOT_JAVA)).isNotEmpty();
    assertThat(missing).as(() -> JavadocExamples.describe(missing, EXAMPLES)).isEmpty();
  }

  @Test
  void everyDeclaredNotJavaBlockStillExists() {
    assertThat(JavadocExamples.unused(SOURCES, NOT_JAVA)).isEmpty();
  }
}

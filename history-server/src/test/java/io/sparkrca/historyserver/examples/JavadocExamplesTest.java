package io.sparkrca.historyserver.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.JavadocExamples;
import io.sparkrca.core.testing.JavadocExamples.Missing;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards issue #39 over history-server: every Java example in the Javadoc of its public types and packages
 * is compiled in an example class of this package, so an example that stops compiling fails the
 * build instead of misleading a reader. A failure names the file and line of each example missing
 * here and says what to do; {@link JavadocExamples} states the rules.
 */
class JavadocExamplesTest {
  private static final Path SOURCES = Path.of("src/main/java");

  private static final List<Path> EXAMPLES = List.of(
      Path.of("src/test/java/io/sparkrca/historyserver/examples"));

  @Test
  void everyJavaExampleOfThePublicJavadocIsCompiledInAnExampleClass() {
    List<Missing> missing = JavadocExamples.check(SOURCES, EXAMPLES, List.of());

    assertThat(JavadocExamples.javaExamples(SOURCES, List.of())).isNotEmpty();
    assertThat(missing).as(() -> JavadocExamples.describe(missing, EXAMPLES)).isEmpty();
  }
}

package io.sparkrca.core.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.JavadocExamples;
import io.sparkrca.core.testing.JavadocExamples.Missing;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards issue #39 over core: every Java example in the Javadoc of its public types and packages
 * is compiled in an example class of this package, so an example that stops compiling fails the
 * build instead of misleading a reader. A failure names the file and line of each example missing
 * and says what to do; {@link JavadocExamples} states the rules.
 *
 * <p>The report examples that start from {@code RcaEngine} cannot compile here (the engine is in
 * analysis, which depends on core): they are compiled in analysis's {@code CoreReportExamples},
 * which this guard reads too.
 */
class JavadocExamplesTest {
  private static final Path SOURCES = Path.of("src/main/java");

  private static final List<Path> EXAMPLES = List.of(
      Path.of("src/test/java/io/sparkrca/core/examples"),
      Path.of("../analysis/src/test/java/io/sparkrca/analysis/examples/CoreReportExamples.java"));

  @Test
  void everyJavaExampleOfThePublicJavadocIsCompiledInAnExampleClass() {
    List<Missing> missing = JavadocExamples.check(SOURCES, EXAMPLES, List.of());

    assertThat(JavadocExamples.javaExamples(SOURCES, List.of())).isNotEmpty();
    assertThat(missing).as(() -> JavadocExamples.describe(missing, EXAMPLES)).isEmpty();
  }
}

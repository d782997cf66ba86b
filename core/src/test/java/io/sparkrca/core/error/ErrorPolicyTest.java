package io.sparkrca.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.ErrorPolicy;
import io.sparkrca.core.testing.ErrorPolicy.Exemption;
import io.sparkrca.core.testing.ErrorPolicy.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the error policy (issue #11) over core's sources: no {@code IllegalArgumentException},
 * {@code IllegalStateException} or {@code UncheckedIOException} is thrown, and no message names a
 * command-line flag. A failure names the file and line.
 */
class ErrorPolicyTest {
  private static final Path SOURCES = Path.of("src/main/java");

  /** Lines allowed to break the policy, each with why; none today. */
  private static final List<Exemption> OTHER_OWNERS = List.of();

  @Test
  void coreThrowsOnlySparkRcaExceptionsAndNamesNoCliFlag() {
    List<Violation> violations = ErrorPolicy.scan(SOURCES, OTHER_OWNERS);

    assertThat(violations).as(() -> "error policy violations:\n" + String.join("\n",
        violations.stream().map(Violation::toString).toList())).isEmpty();
  }

  @Test
  void theScanFindsForbiddenThrowsAndFlagsButNotCommentsOrSparkOptions() {
    String source = String.join("\n",
        "class X {",
        "  // throw new IllegalStateException(\"--strict\") in a comment is fine",
        "  /** {@code \"--entry\"} in Javadoc too */",
        "  void a() { throw new IllegalArgumentException(\"bad\"); }",
        "  void b() { throw new java.io.UncheckedIOException(null); }",
        "  String c = \"drop --strict to go on\";",
        "  String d = \"spark-submit needs --class\";",
        "  String e = \"wording -- retry\";",
        "  String f = \"\"\"",
        "      raise --max-apps",
        "      \"\"\";",
        "  void g() { throw new InvalidRequestException(\"x\"); }",
        "}");

    List<Violation> v = ErrorPolicy.scanSource(Path.of("X.java"), source);

    assertThat(v).extracting(Violation::line).containsExactly(4, 5, 6, 10);
    assertThat(v.get(0).what()).contains("IllegalArgumentException");
    assertThat(v.get(1).what()).contains("UncheckedIOException");
    assertThat(v.get(2).what()).contains("--strict");
    assertThat(v.get(3).what()).contains("--max-apps");
    assertThat(v.get(0).toString()).startsWith("X.java:4: ");
  }
}

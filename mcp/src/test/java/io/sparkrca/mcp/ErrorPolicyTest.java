package io.sparkrca.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.ErrorPolicy;
import io.sparkrca.core.testing.ErrorPolicy.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the error policy (issue #11) over the MCP server's sources: no {@code
 * IllegalArgumentException}, {@code IllegalStateException} or {@code UncheckedIOException} is
 * thrown (a bad argument is an {@code InvalidRequestException}, an invariant no input can break
 * an {@code AssertionError}), and no message names a command-line flag (the CLI adds its own). A
 * failure names the file and line. See {@link ErrorPolicy} for what is allowed.
 */
class ErrorPolicyTest {
  @Test
  void mcpThrowsOnlySparkRcaExceptionsAndNamesNoCliFlag() {
    List<Violation> violations = ErrorPolicy.scan(Path.of("src/main/java"), List.of());

    assertThat(violations).as(() -> "error policy violations:\n" + String.join("\n",
        violations.stream().map(Violation::toString).toList())).isEmpty();
  }
}

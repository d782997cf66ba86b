package io.sparkrca.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testing.ErrorPolicy;
import io.sparkrca.core.testing.ErrorPolicy.Exemption;
import io.sparkrca.core.testing.ErrorPolicy.Violation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the error policy (issue #11) over the gcp module's sources: no {@code
 * IllegalArgumentException}, {@code IllegalStateException} or {@code UncheckedIOException} is
 * thrown (a bad argument is an {@code InvalidRequestException}, an invariant no input can break
 * an {@code AssertionError}), and no message names a command-line flag (the CLI adds its own). A
 * failure names the file and line. See {@link ErrorPolicy} for what is allowed.
 */
class ErrorPolicyTest {
  private static final Path SOURCES = Path.of("src/main/java");

  /** Lines allowed to break the policy, each with why. */
  private static final List<Exemption> EXEMPT = List.of(
      new Exemption("io/sparkrca/gcp/dataproc/DataprocControlPlane.java", "list --region",
          "gcloud's option, in the gcloud command that lists the workloads; not sparkrca's"),
      new Exemption("io/sparkrca/gcp/dataproc/DataprocEvidenceProvider.java", "(--gcp-timeout)",
          "a gap's advice, in reports word for word: it stays until gap advice is a remedy the CLI words"),
      new Exemption("io/sparkrca/gcp/internal/Messages.java", "(--gcp-timeout, GcpSettings.timeout)",
          "a timeout's advice, which the MCP server passes on word for word: it stays until it is a remedy the CLI words"));

  @Test
  void gcpThrowsOnlySparkRcaExceptionsAndNamesNoCliFlag() {
    List<Violation> violations = ErrorPolicy.scan(SOURCES, EXEMPT);

    assertThat(violations).as(() -> "error policy violations:\n" + String.join("\n",
        violations.stream().map(Violation::toString).toList())).isEmpty();
  }

  @Test
  void everyExemptionStillExempts() {
    assertThat(ErrorPolicy.unused(SOURCES, EXEMPT)).isEmpty();
  }
}

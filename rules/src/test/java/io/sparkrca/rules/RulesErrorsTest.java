package io.sparkrca.rules;

import io.sparkrca.core.report.Severity;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #11: the rules API fails with a SparkRcaException subclass naming the input or the
 * parameter, never with an IllegalArgumentException, IllegalStateException or an IOException.
 */
class RulesErrorsTest {
  @TempDir Path dir;

  @Test
  void aMissingRuleFileIsNotFoundAndADirectoryIsRefusedBothNamed() throws IOException {
    Path missing = dir.resolve("team-rules.json");
    Path folder = Files.createDirectory(dir.resolve("rules.d"));

    assertThatThrownBy(() -> RuleCatalog.load(missing))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("rule file " + missing + " not found");
    assertThatThrownBy(() -> RuleCatalog.load(folder))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining(folder.toString())
        .hasMessageContaining("is a directory");
  }

  @Test
  void aRuleFileThatIsNotJsonOrNotTextIsARuleFileErrorNamingIt() throws IOException {
    Path notJson = Files.writeString(dir.resolve("rules.json"), "{not json");
    Path binary = Files.write(dir.resolve("rules.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});

    assertThatThrownBy(() -> RuleCatalog.load(notJson))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining(notJson.toString())
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> RuleCatalog.load(binary))
        .isInstanceOf(RuleFileException.class)
        .hasMessageContaining(binary.toString())
        .hasMessageContaining("UTF-8");
  }

  @Test
  void anEventLogThatCannotBeReadIsAnErrorResultNamingIt() throws IOException {
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    Path missing = dir.resolve("app-1");
    byte[] real = Files.readAllBytes(TestkitFixtures.get("3.5.9", "bad-record").eventLog());
    Path damaged = Files.write(dir.resolve("app-2.gz"), damagedGzip(real));

    StageDiagnostics notFound = engine.evaluateEventLog(missing.toString());
    StageDiagnostics corrupt = engine.evaluateEventLog(damaged.toString());

    assertThat(notFound.status()).isEqualTo(DiagnosticStatus.ERROR);
    assertThat(notFound.errorMessage()).hasValueSatisfying(m -> assertThat(m).contains(missing.toString(), "not found"));
    assertThat(corrupt.status()).isEqualTo(DiagnosticStatus.ERROR);
    assertThat(corrupt.errorMessage()).hasValueSatisfying(m -> assertThat(m).contains(damaged.toString(), "gzip"));
  }

  /** {@code content} gzipped, with its deflate data damaged (the gzip header kept). */
  private static byte[] damagedGzip(byte[] content) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(b)) {
      out.write(content);
    }
    byte[] bytes = b.toByteArray();
    for (int i = 20; i < bytes.length - 20; i += 7) {
      bytes[i] ^= 0x5a;
    }
    return bytes;
  }

  @Test
  void telemetryWithAValueOfTheWrongTypeIsCorruptNamingTheField() {
    assertThatThrownBy(() -> StageTelemetry.fromDataprocJson("[{\"numTasks\": \"many\"}]"))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("the stage telemetry cannot be read")
        .hasMessageContaining("many")
        .hasMessageContaining("num_tasks");
    assertThatThrownBy(() -> StageTelemetry.fromDataprocJson("[{\"tasks\": {\"seven\": {}}}]"))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("'seven'");
  }

  @Test
  void invalidArgumentsAreInvalidRequestsNamingTheParameterAndTheAllowedValues() {
    assertThatThrownBy(() -> Severity.parse("urgent"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'urgent'").hasMessageContaining("INFO, LOW, MEDIUM, HIGH, CRITICAL");
    assertThatThrownBy(() -> new Advice("", " "))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("advice needs a text");
    assertThatThrownBy(() -> StageRule.of(" ", "d", "true"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("ruleId");
    assertThatThrownBy(() -> new StageRule("R", "d", null, Optional.empty(), "", Severity.LOW, null))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("rule 'R' needs an expression");
    assertThatThrownBy(() -> StageRuleEngine.builder().parallelism(0))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("parallelism").hasMessageContaining("was 0");
    assertThatThrownBy(() -> new RuleLimits(0, 1, 1, 1, Duration.ofSeconds(1)))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("maxExpressionLength 0");
    assertThatThrownBy(() -> RuleLimits.DEFAULT.withMaxRuleTime(Duration.ZERO))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("maxRuleTime");
    assertThatThrownBy(() -> DataprocSchema.message("Stages"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("StageData");
    assertThatThrownBy(() -> StageRuleEngine.builder().build())
        .isInstanceOf(NoRulesException.class)
        .hasMessageContaining("recommended()")
        .hasMessageNotContaining("--");
  }

  @Test
  void aBadSeverityInARuleFileIsABrokenEntryNotAnException() {
    RuleCatalog c = RuleCatalog.parse("[{\"ruleId\": \"R\", \"expression\": \"true\", \"severity\": \"urgent\"}]", "inline rules");

    assertThat(c.rules()).isEmpty();
    assertThat(c.warnings()).singleElement().asString().contains("R", "unknown severity 'urgent'");
  }
}

package io.sparkrca.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.source.SourceSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What to do travels as data beside the words, so a caller with words of its own can say it its way. */
class RemedyTest {
  private static final Remedy RETRY = Remedy.of("demo.retry", "retry with retries(3)", "3");

  @Test
  void anExceptionSaysItsRemedyInTheLibrarysWordsOrInTheCallers() {
    SparkRcaException e = new CorruptInputException("x.log line 2: bad (", RETRY, ")");

    assertThat(e.getMessage()).isEqualTo("x.log line 2: bad (retry with retries(3))");
    assertThat(e.remedy()).hasValue(RETRY);
    assertThat(e.message(r -> "run again with --retries " + r.values().get(0)))
        .isEqualTo("x.log line 2: bad (run again with --retries 3)");
  }

  @Test
  void anExceptionWithoutARemedyIsItsMessageWhateverTheWords() {
    SparkRcaException e = new InputNotFoundException("/x", "check the path");

    assertThat(e.remedy()).isEmpty();
    assertThat(e.message(r -> "never")).isEqualTo("/x not found: check the path");
  }

  @Test
  void eachKindOfFailureCanCarryARemedy() {
    assertThat(new InvalidRequestException("bad; ", RETRY).message(r -> "y")).isEqualTo("bad; y");
    assertThat(new UnsupportedInputException("odd; ", RETRY).message(r -> "y")).isEqualTo("odd; y");
    assertThat(new InputNotFoundException("e", "near: a; ", RETRY).message(r -> "y")).isEqualTo("e not found: near: a; y");
    assertThat(new AccessDeniedException("u", "HTTP 401", RETRY).message(r -> "y")).isEqualTo("Access to u denied (HTTP 401): y");
  }

  @Test
  void aRemedyTravelsWithItsExceptionWhenSerialized() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new CorruptInputException("cut; ", RETRY));
    }
    try (ObjectInputStream in = new ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(((SparkRcaException) in.readObject()).remedy()).hasValue(RETRY);
    }
  }

  @Test
  void aRemedyIdIsDottedLowerCaseAndItsWordsSaySomething() {
    assertThatThrownBy(() -> Remedy.of("Retry", "x")).isInstanceOf(InvalidRequestException.class).hasMessageContaining("'Retry'");
    assertThatThrownBy(() -> Remedy.of("a.b", " ")).isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void aGapLeftByAFailureKeepsItsRemedy(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"),
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"app-1\",\"Timestamp\":1000,\"User\":\"u\"}\n"
            + "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":\"x\"}\n");

    EvidenceGap g = EvidenceCollector.builder().settings(SourceSettings.builder().strict(true).build())
        .application(log.toString()).loadServiceProviders(false).build().collect().gaps(EvidenceKind.EVENT_LOG).get(0);

    assertThat(g.remedy()).hasValue(Replayer.LENIENT);
    assertThat(g.detail()).contains(Replayer.LENIENT.words());
    assertThat(g.detail(r -> "be lenient")).contains("line 2").contains("(be lenient)").doesNotContain("strict(false)");
  }
}

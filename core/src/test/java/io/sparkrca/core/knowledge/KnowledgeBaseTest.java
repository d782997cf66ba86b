package io.sparkrca.core.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnowledgeBaseTest {
  private final KnowledgeBase kb = KnowledgeBase.standard();

  @Test
  void everyExampleOfTheStandardBaseIsClassifiedAsItsOwnFamily() {
    List<String> wrong = new ArrayList<>();
    int examples = 0;
    for (FailureFamily f : kb.families()) {
      for (Wording w : f.wordings()) {
        for (String e : w.examples()) {
          examples++;
          String got = kb.classify(e, KnowledgeBase.Side.EXECUTOR).map(m -> m.family().id()).orElse("nothing");
          if (!got.equals(f.id())) {
            wrong.add(f.id() + " example classified as " + got + ": " + e);
          }
        }
      }
    }
    assertThat(wrong).as("families are tried most specific first; a later family's example caught earlier").isEmpty();
    assertThat(examples).isGreaterThanOrEqualTo(kb.families().size());
  }

  @Test
  void everyWordingOfTheStandardBaseHasAnExampleAndEveryFamilyAFix() {
    for (FailureFamily f : kb.families()) {
      assertThat(f.wordings()).as(f.id()).allSatisfy(w -> assertThat(w.examples()).as(f.id() + " " + w.regex()).isNotEmpty());
      assertThat(f.fix().action()).as(f.id()).isNotBlank();
      assertThat(f.check()).as(f.id()).isNotEmpty();
    }
    Set<String> ids = new HashSet<>();
    kb.families().forEach(f -> assertThat(ids.add(f.id())).as("unique id " + f.id()).isTrue());
    kb.signals().forEach(s -> assertThat(ids.add(s.id())).as("unique id " + s.id()).isTrue());
  }

  @Test
  void anOutOfMemoryErrorIsTheDriversKindOnTheDriverAndTheExecutorsElsewhere() {
    String oom = "java.lang.OutOfMemoryError: Java heap space";
    assertThat(kb.classify(oom, KnowledgeBase.Side.DRIVER).orElseThrow().kind()).isEqualTo(RootCauseKind.DRIVER_OOM);
    assertThat(kb.classify(oom, KnowledgeBase.Side.EXECUTOR).orElseThrow().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_HEAP);
    assertThat(kb.classify(oom, KnowledgeBase.Side.EXECUTOR).orElseThrow().decisive()).isTrue();
  }

  @Test
  void aTextWithNoKnownWordingClassifiesAsNothing() {
    assertThat(kb.classify("INFO SparkContext: Successfully stopped SparkContext", KnowledgeBase.Side.UNKNOWN)).isEmpty();
  }

  @Test
  void aUsersFamilyIsTriedBeforeTheStandardOnesAndReplacesOneWithItsId() {
    String mine = """
        {"schemaVersion": 1, "families": [
          {"id": "warehouse-quota", "kind": "CLOUD_QUOTA_EXCEEDED", "title": "Our warehouse quota",
           "meaning": "The team's warehouse slot quota ran out.", "check": ["the quota dashboard"],
           "fix": {"action": "Ask for more slots.", "rationale": "Slots bound concurrency.", "properties": []},
           "wordings": [{"regex": "WarehouseQuotaExceeded", "decisive": true, "examples": ["WarehouseQuotaExceeded: 0 slots left"]}]},
          {"id": "disk-full", "kind": "DISK_FULL", "title": "Disk full on our nodes",
           "meaning": "Our nodes' scratch disk.", "check": ["df -h /scratch"],
           "fix": {"action": "Clean /scratch.", "rationale": "It fills.", "properties": []},
           "wordings": [{"regex": "No space left on device", "decisive": true}]}
        ]}""";
    KnowledgeBase withMine = KnowledgeBase.builder().standard().add(mine, "ours.json").build();

    assertThat(withMine.families().get(0).id()).isEqualTo("warehouse-quota");
    assertThat(withMine.classify("WarehouseQuotaExceeded: 0 slots left", KnowledgeBase.Side.UNKNOWN).orElseThrow().kind())
        .isEqualTo(RootCauseKind.CLOUD_QUOTA_EXCEEDED);
    assertThat(withMine.family("disk-full").orElseThrow().title()).isEqualTo("Disk full on our nodes");
    assertThat(withMine.families().stream().filter(f -> f.id().equals("disk-full"))).hasSize(1);
    assertThat(withMine.origins()).containsExactly("ours.json", "the standard base");
  }

  @Test
  void aBrokenFileIsRefusedWithEveryProblemNamed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("broken.json");
    Files.writeString(file, """
        {"schemaVersion": 1, "families": [
          {"id": "a", "kind": "NOT_A_KIND", "title": "t", "meaning": "m", "check": [],
           "fix": {"action": "x", "rationale": "y", "properties": []},
           "wordings": [{"regex": "(unclosed", "decisve": true}]},
          {"id": "b", "kind": "DISK_FULL", "title": "t", "meaning": "m", "check": [],
           "fix": {"action": "x", "rationale": "y", "properties": []},
           "wordings": [{"regex": ".*"}, {"regex": "abc", "examples": ["xyz"]}]}
        ]}""");

    assertThatThrownBy(() -> KnowledgeBase.builder().add(file).build())
        .isInstanceOf(BrokenKnowledgeBaseException.class)
        .hasMessageContaining(file.toString())
        .satisfies(e -> assertThat(((BrokenKnowledgeBaseException) e).problems()).anySatisfy(p -> assertThat(p).contains("'NOT_A_KIND' is not a root-cause kind"))
            .anySatisfy(p -> assertThat(p).contains("does not compile"))
            .anySatisfy(p -> assertThat(p).contains("unknown field \"decisve\""))
            .anySatisfy(p -> assertThat(p).contains("matches an empty line"))
            .anySatisfy(p -> assertThat(p).contains("example does not match its regex: xyz")));
  }

  @Test
  void aFileThatIsNotJsonOrMissingIsOneClearError(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("not.json");
    Files.writeString(file, "families: [");
    assertThatThrownBy(() -> KnowledgeBase.builder().add(file).build())
        .isInstanceOf(BrokenKnowledgeBaseException.class).hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> KnowledgeBase.builder().add(dir.resolve("absent.json")).build())
        .isInstanceOf(io.sparkrca.core.error.InputNotFoundException.class).hasMessageContaining("absent.json");
  }

  @Test
  void aNewerSchemaVersionIsRefused() {
    assertThatThrownBy(() -> KnowledgeBase.builder().add("{\"schemaVersion\": 2, \"families\": []}", "future.json").build())
        .isInstanceOf(BrokenKnowledgeBaseException.class).hasMessageContaining("\"schemaVersion\" must be 1");
  }
}

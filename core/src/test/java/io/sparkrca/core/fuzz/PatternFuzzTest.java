package io.sparkrca.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.knowledge.BrokenKnowledgeBaseException;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random regular expressions, mostly metacharacters, through the two pattern compilers users feed:
 * {@code logs search --regex} ({@link SearchQuery}) and a knowledge-base file's wordings. A pattern
 * either runs over a real driver log within the time bound, or is refused with a clear error that
 * names it: never another exception.
 */
class PatternFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static byte[] log;
  private static String[] lines;

  @BeforeContainer
  static void readFixture() {
    log = Fuzz.fixture("bad-record", "driver-stderr.log");
    lines = new String(log, StandardCharsets.UTF_8).split("\n");
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void aRandomSearchPatternRunsOrIsRefusedClearly(
      @ForAll @StringLength(max = 24) @Chars({'(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '\\', '^', '$', '.',
          '-', ',', ':', 'a', 'E', 'r', 'o', '0', '9', 'p', 'P', 'Q', 'k', '<', '=', '!', ' '}) String pattern,
      @ForAll boolean ignoreCase) {
    Object answer = Fuzz.holdsContract("search pattern '" + pattern + "'", () -> {
      SearchQuery q = SearchQuery.regex(pattern);
      if (ignoreCase) {
        q = q.withIgnoreCase(true);
      }
      return LogStream.of(ByteSource.of("driver.log", log)).search(q).matches().size();
    });
    if (answer instanceof RuntimeException e) {
      assertThat(e).as("refusal of '%s'", pattern).isInstanceOf(InvalidRequestException.class);
      assertThat(e.getMessage()).as("refusal of '%s'", pattern).contains(pattern);
    }
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void aRandomKnowledgeBaseWordingCompilesOrTheFileIsRefusedNamingTheProblem(
      @ForAll @StringLength(max = 24) @Chars({'(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '\\', '^', '$', '.',
          '-', ',', ':', 'a', 'E', 'r', 'o', '0', '9', 'p', 'P', 'Q', 'k', '<', '=', '!', ' '}) String regex) {
    ObjectNode file = JSON.createObjectNode().put("schemaVersion", 1);
    ObjectNode family = file.putArray("families").addObject()
        .put("id", "fuzzed").put("kind", "DISK_FULL").put("title", "t").put("meaning", "m");
    family.putArray("check");
    family.putObject("fix").put("action", "a").put("rationale", "r").putArray("properties");
    family.putArray("wordings").addObject().put("regex", regex).put("decisive", true);
    String json = file.toString();
    Object answer = Fuzz.holdsContract("knowledge-base regex '" + regex + "'", () -> {
      KnowledgeBase kb = KnowledgeBase.builder().add(json, "fuzzed.json").build();
      int n = 0;
      for (String line : lines) {
        n += kb.classify(line, KnowledgeBase.Side.UNKNOWN).isPresent() ? 1 : 0;
      }
      return n;
    });
    if (answer instanceof RuntimeException e) {
      assertThat(e).as("refusal of '%s'", regex).isInstanceOf(BrokenKnowledgeBaseException.class);
      assertThat(e.getMessage()).as("refusal of '%s'", regex).contains("fuzzed.json");
    }
  }
}

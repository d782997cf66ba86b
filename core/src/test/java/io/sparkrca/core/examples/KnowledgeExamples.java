package io.sparkrca.core.examples;

import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.knowledge.BrokenKnowledgeBaseException;
import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.Fix;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.knowledge.KnowledgeBaseProvider;
import io.sparkrca.core.knowledge.Signal;
import io.sparkrca.core.knowledge.Wording;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.core.knowledge}, compiled (see {@link JavadocExamplesTest}). */
class KnowledgeExamples {
  /** The example of {@code BrokenKnowledgeBaseException}. */
  void brokenKnowledgeBaseException() throws Exception {
    try {
      KnowledgeBase kb = KnowledgeBase.builder().standard().add(Path.of("our-failures.json")).build();
    } catch (BrokenKnowledgeBaseException e) {
      e.problems().forEach(System.err::println);
    }
  }

  /** The example of {@code FailureFamily}. */
  void failureFamily() throws Exception {
    KnowledgeBase kb = KnowledgeBase.standard();
    kb.classify("Total size of serialized results of 16 tasks (1048.5 MiB) is bigger than spark.driver.maxResultSize",
        KnowledgeBase.Side.DRIVER).ifPresent(m -> System.out.println(m.family().kind())); // RESULT_TOO_LARGE
  }

  /** The example of {@code Fix}. */
  void fix(KnowledgeBase kb) throws Exception {
    Fix fix = kb.family("result-too-large").orElseThrow().fix();
    fix.properties("yarn").forEach(p -> System.out.println("--conf " + p.name() + "=" + p.value()));
  }

  /** The example of {@code KnowledgeBase}. */
  void knowledgeBase() throws Exception {
    KnowledgeBase kb = KnowledgeBase.builder().standard().add(Path.of("our-failures.json")).build();
    Optional<KnowledgeBase.Match> m = kb.classify("java.lang.OutOfMemoryError: Java heap space", KnowledgeBase.Side.EXECUTOR);
    m.ifPresent(x -> System.out.println(x.kind() + (x.decisive() ? " (decisive)" : "")));
  }

  /** The example of {@code KnowledgeBaseProvider}. */
  public final class OurFailures implements KnowledgeBaseProvider {
    public String name() { return "our platform's failures"; }
    public InputStream open() { return OurFailures.class.getResourceAsStream("/our-failures.json"); }
  }
  // META-INF/services/io.sparkrca.core.knowledge.KnowledgeBaseProvider: com.example.OurFailures

  /** The example of {@code Signal}. */
  void signal() throws Exception {
    Signal exit = KnowledgeBase.standard().signal(LogSignatures.EXIT_CODE).orElseThrow();
    boolean exited = exit.wordings().stream().anyMatch(w -> w.matches("Exit status: 137"));
  }

  /** The example of {@code Wording}. */
  void wording(FailureFamily family, String line) throws Exception {
    Wording w = family.wordings().get(0);
    if (w.decisive() && w.pattern().matcher(line).find()) {
      System.out.println(family.kind() + " is established by: " + line);
    }
  }
}

package io.sparkrca.core.knowledge;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.List;

/**
 * A knowledge-base file could not be used: it is not JSON, or entries in it are broken (a field
 * missing or unknown, a kind that does not exist, a regular expression that does not compile).
 * Every problem of the file is listed, each naming the file and the entry, so that one run shows
 * all there is to fix. No family of a broken file is used.
 *
 * <pre>{@code
 * try {
 *   KnowledgeBase kb = KnowledgeBase.builder().standard().add(Path.of("our-failures.json")).build();
 * } catch (BrokenKnowledgeBaseException e) {
 *   e.problems().forEach(System.err::println);
 * }
 * }</pre>
 */
public class BrokenKnowledgeBaseException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  public BrokenKnowledgeBaseException(String source, List<String> problems) {
    super(message(source, problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem in one sentence, in file order. */
  public List<String> problems() {
    return problems;
  }

  private static String message(String source, List<String> problems) {
    StringBuilder sb = new StringBuilder("the failure knowledge base ").append(source).append(" is broken: ");
    int shown = Math.min(problems.size(), 10);
    sb.append(String.join("; ", problems.subList(0, shown)));
    if (problems.size() > shown) {
      sb.append("; and ").append(problems.size() - shown).append(" more problems");
    }
    return sb.append(". Fix ").append(problems.size() == 1 ? "it" : "them")
        .append(" (the schema is in docs/knowledge-base.md) or leave the file out").toString();
  }
}

package io.sparkrca.core.knowledge;

import java.util.List;
import java.util.Objects;

/**
 * A line the analysis reads that is not a failure by itself: a process's exit code, a lost
 * executor, the driver's uncaught exception, a line logged at ERROR, the SparkContext starting.
 * The analyzers decide what it means in context; the base says how it is worded.
 *
 * <pre>{@code
 * Signal exit = KnowledgeBase.standard().signal(LogSignatures.EXIT_CODE).orElseThrow();
 * boolean exited = exit.wordings().stream().anyMatch(w -> w.matches("Exit status: 137"));
 * }</pre>
 *
 * @param id the id analyzers refer to (the constants of {@link io.sparkrca.core.evidence.LogSignatures})
 * @param description what it means, in a few words
 * @param wordings how it is worded
 * @param origin where it was defined
 */
public record Signal(String id, String description, List<Wording> wordings, String origin) {
  public Signal {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(description, "description");
    wordings = List.copyOf(wordings);
    Objects.requireNonNull(origin, "origin");
  }
}

package io.sparkrca.core.summary;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.Report;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The summaries of a {@link SummaryRequest}: one per log read, in the order found, the logs that
 * could not be read with their failures, and how many more logs there were than the request's cap.
 *
 * <pre>{@code
 * Summaries s = SummaryRunner.standard().run(SummaryRequest.of("/var/spark-events"));
 * s.skipped().forEach(k -> System.err.println("skipped " + k.source() + ": " + k.failure().getMessage()));
 * System.out.print(s.toMarkdown());
 * }</pre>
 *
 * @param location where the applications were looked for
 * @param logsFound how many logs were found there
 * @param summaries the summaries, in the order found
 * @param skipped the logs that could not be read
 * @param notSummarized how many logs past the request's cap were not read
 */
public record Summaries(String location, int logsFound, List<ApplicationSummary> summaries, List<Skipped> skipped,
    int notSummarized) implements Report {
  /** What to do when logs were left out: raise the cap. */
  public static final Remedy MORE_APPS = Remedy.of("summary.more-apps", "raise maxApps (at most " + SummaryRequest.MAX_APPS + ")");
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A log that could not be read.
   *
   * @param source the log
   * @param failure why
   */
  public record Skipped(String source, SparkRcaException failure) {
    public Skipped {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(failure, "failure");
    }
  }

  public Summaries {
    Objects.requireNonNull(location, "location");
    summaries = List.copyOf(summaries);
    skipped = List.copyOf(skipped);
  }

  /** Whether any application failed. */
  public boolean anyFailed() {
    return summaries.stream().anyMatch(s -> s.outcome() == ApplicationSummary.Outcome.FAILED);
  }

  /** The note on the logs past the cap, with its remedy in {@code words}' words; empty when none were left out. */
  public String note(Function<? super Remedy, String> words) {
    return notSummarized == 0 ? "" : notSummarized + " more logs were not summarized; " + words.apply(MORE_APPS) + ".";
  }

  /** Each summary's Markdown, separated by rules, and the note on the logs left out (its remedy in {@code words}' words). */
  public String toMarkdown(Function<? super Remedy, String> words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < summaries.size(); i++) {
      if (i > 0) {
        b.append("\n---\n\n");
      }
      b.append(SummaryMarkdown.render(summaries.get(i)));
    }
    if (notSummarized > 0) {
      b.append("\n(").append(notSummarized).append(" more logs not summarized; ").append(words.apply(MORE_APPS)).append(")\n");
    }
    return b.toString();
  }

  @Override
  public String toMarkdown() {
    return toMarkdown(Remedy::words);
  }

  /**
   * The JSON document: {@code logsFound}, {@code summaries}, {@code skipped} (each {@code source} and
   * its redacted {@code message}) and {@code notes}.
   */
  @Override
  public String toJson() {
    ObjectNode out = JSON.createObjectNode();
    out.put("logsFound", logsFound);
    ArrayNode list = out.putArray("summaries");
    try {
      for (ApplicationSummary s : summaries) {
        list.add(JSON.readTree(s.toJson()));
      }
    } catch (JsonProcessingException e) {
      throw new AssertionError("a summary's own JSON did not parse", e);
    }
    ArrayNode skip = out.putArray("skipped");
    for (Skipped s : skipped) {
      skip.addObject().put("source", s.source()).put("message", Redactor.standard().redactText(s.failure().getMessage()));
    }
    ArrayNode notes = out.putArray("notes");
    if (notSummarized > 0) {
      notes.add(note(Remedy::words));
    }
    return out.toPrettyString();
  }

  /** One application's page when exactly one was summarized; otherwise the Markdown as a page. */
  @Override
  public String toHtml() {
    return summaries.size() == 1 ? summaries.get(0).toHtml() : Report.super.toHtml();
  }
}

package io.sparkrca.core.report.html;

import io.sparkrca.core.app.SparkApplication;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * What a report's HTML charts are drawn from: the application itself, profiled when the page is
 * rendered (so that an analysis that is never rendered as HTML never reads the tasks the charts
 * need), or a profile made already. The stages drawn in detail are the report's culprit stages, or
 * the longest stage when it names none.
 *
 * <pre>{@code
 * RcaReport report = RcaEngine.standard().analyze(evidence);  // charts from the application
 * String page = report.toHtml();                               // profiled here
 * Optional<RunProfile> p = ChartSource.of(app).profile(List.of(3));
 * }</pre>
 */
public sealed interface ChartSource {
  /**
   * The profile to draw, with {@code culpritStages} in detail (the longest stage when empty); empty
   * when it could not be made (the charts are then left out, the rest of the page is drawn).
   */
  Optional<RunProfile> profile(List<Integer> culpritStages);

  /** Charts of {@code app}, profiled when they are drawn. */
  static ChartSource of(SparkApplication app) {
    return new FromApplication(Objects.requireNonNull(app, "app"));
  }

  /** Charts of a profile made already. */
  static ChartSource of(RunProfile profile) {
    return new Made(Objects.requireNonNull(profile, "profile"));
  }

  /** The application, profiled on each call. */
  record FromApplication(SparkApplication app) implements ChartSource {
    @Override
    public Optional<RunProfile> profile(List<Integer> culpritStages) {
      try {
        return Optional.of(RunProfile.of(app, culpritStages.isEmpty() ? RunProfile.longestStage(app) : culpritStages));
      } catch (RuntimeException e) {
        // Charts are an aid: a source that cannot give the tasks they need leaves them out.
        LoggerFactory.getLogger(ChartSource.class).debug("the charts' profile could not be made", e);
        return Optional.empty();
      }
    }
  }

  /** A profile made already, whatever the stages asked for. */
  record Made(RunProfile made) implements ChartSource {
    @Override
    public Optional<RunProfile> profile(List<Integer> culpritStages) {
      return Optional.of(made);
    }
  }
}

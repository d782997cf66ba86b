package io.sparkrca.analysis.examples;

import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.analysis.compare.CompareRunner;
import io.sparkrca.analysis.compare.CompareRequest;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Javadoc examples of {@code io.sparkrca.analysis.compare}, compiled (see {@link JavadocExamplesTest}). */
class CompareExamples {
  /** The example of {@code Comparison}. */
  void comparison(Path slowLog, Path healthyLog, SparkApplication candidate, SparkApplication baseline) throws Exception {
    Comparison c = Comparison.of(EventLogs.replay(slowLog), EventLogs.replay(healthyLog));
    System.out.println(c.verdict().kind() + ": " + c.verdict().explanation());
    if (c.normalizedSlowdown() > 1.5) {
      c.firstDivergentStage().ifPresent(s -> System.out.println("first divergent: " + s.candidate().label()));
    }
    // With the code of both runs:
    Comparison withCode = Comparison.builder(candidate, baseline)
        .code("releases/1.5/app.jar", "releases/1.4/app.jar")
        .compare();
  }

  /** The example of {@code io.sparkrca.analysis.compare}. */
  void overview(Path slow, Path healthy) throws Exception {
    Comparison c = Comparison.of(EventLogs.replay(slow), EventLogs.replay(healthy));
    Files.writeString(Path.of("compare.html"), c.toHtml());
    System.exit(c.exitCode());
  }

  /** The example of {@code CompareRequest}. */
  void compareRequest() throws Exception {
    Comparison c = CompareRunner.standard().run(CompareRequest.builder("runs/slow", "runs/healthy").build());
    System.out.println(c.verdict().kind() + ": " + c.verdict().title());
  }

  /** The example of {@code CompareRunner}. */
  void compareRunner() throws Exception {
    CompareRunner runner = CompareRunner.builder().settings(SourceSettings.defaults()).build();
    Comparison c = runner.run(CompareRequest.builder("gs://b/events/app-2", "gs://b/events/app-1").build());
  }
}

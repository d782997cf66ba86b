package io.sparkrca.examples;

import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.analysis.rca.RcaRequest;
import io.sparkrca.analysis.rca.RcaRunner;
import java.io.PrintStream;
import java.util.List;

/**
 * Embedding sparkrca: diagnoses every application in event-log directories (local paths or
 * {@code http(s)://}, {@code gs://} URIs with their providers on the class path), or the one
 * application another source's URI names (a History Server application such as
 * {@code http://shs:18080/api/v1/applications/app-1} with sparkrca-history-server on the class
 * path, a Dataproc batch with sparkrca-gcp), and prints each one's root cause and first fix.
 *
 * <pre>{@code
 * java -cp ... io.sparkrca.examples.DiagnoseEventLogs /tmp/spark-events
 * local-1795962689745  DETERMINISTIC_DATA_FAILURE (CONFIRMED): Partition 2 of stage 0 fails on every attempt
 *     fix: Find and fix the input that partition 2 holds, ...
 * }</pre>
 */
public final class DiagnoseEventLogs {
  private DiagnoseEventLogs() {}

  public static void main(String[] args) {
    int problems = diagnose(args.length > 0 ? List.of(args) : List.of("/tmp/spark-events"), System.out);
    System.exit(problems > 0 ? 1 : 0); // like the CLI: 1 when a root cause was found
  }

  /** Prints the root cause of every application {@code inputs} hold or name; returns how many had a problem. */
  public static int diagnose(List<String> inputs, PrintStream out) {
    SparkSources sources = SparkSources.builder().loadServiceProviders().build();
    EventLogReader reader = EventLogs.reader().build();
    RcaRunner runner = RcaRunner.standard();
    int problems = 0;
    for (String input : inputs) {
      // An event-log directory holds many applications; another source's URI names one.
      List<String> apps = sources.providerFor(input).fallback()
          ? reader.find(input).stream().map(EventLogRef::uri).toList() : List.of(input);
      for (String app : apps) {
        RcaReport report = runner.run(RcaRequest.builder().application(app).build());
        RootCause cause = report.rootCause();
        out.println(report.application().id() + "  " + cause.kind() + " (" + cause.confidence() + "): " + cause.title());
        report.recommendations().stream().findFirst().ifPresent(r -> out.println("    fix: " + r.action()));
        problems += report.exitCode();
      }
    }
    return problems;
  }
}

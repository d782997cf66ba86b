package io.sparkrca.cli;

import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogs;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sparkrca api}: answers a History Server REST path from event logs. */
@Command(
    name = "api",
    mixinStandardHelpOptions = true,
    description = {
      "Answers a Spark History Server REST path (/api/v1/...) from event logs, with the History",
      "Server's JSON. Example: sparkrca api /tmp/spark-events 'applications/app-1/stages?status=failed'"
    })
final class ApiCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "EVENT_LOGS", description = "A log directory (or one log).")
  String location;

  @Parameters(index = "1", paramLabel = "REST_PATH", description = "Path relative to /api/v1, e.g. applications or applications/ID/jobs.")
  String path;

  @picocli.CommandLine.Mixin HttpOptions http;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ApiResponse r = RestRouter.over(EventLogs.reader().sources(http.sources()).build().history(location)).get(path);
    if (r.status() == 404) {
      throw new InputNotFoundException(path, r.body() + " (list applications with: sparkrca api " + location + " applications)");
    }
    if (!r.ok()) {
      throw new InvalidRequestException(path + ": HTTP " + r.status() + ": " + r.body());
    }
    spec.commandLine().getOut().println(r.body());
    return 0;
  }
}

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
  @Parameters(paramLabel = "[EVENT_LOGS] REST_PATH", arity = "1..2",
      description = "A log directory (or one log, or a History Server URL), then a path relative to /api/v1, e.g. applications or applications/ID/jobs. With --shs, the path alone.")
  java.util.List<String> args;

  @picocli.CommandLine.Mixin HttpOptions http;

  @picocli.CommandLine.Mixin ShsOptions shs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String location = args.size() == 2 ? args.get(0) : null;
    String path = args.get(args.size() - 1);
    location = shs.serverUri(location, "EVENT_LOGS");
    path = shs.appRelative(path);
    if (location == null) {
      throw new io.sparkrca.core.error.InvalidRequestException("sparkrca api EVENT_LOGS REST_PATH (or --shs URL REST_PATH)");
    }
    io.sparkrca.core.source.SparkSources sources = Applications.sources(http, false);
    io.sparkrca.core.app.SparkHistory history = Applications.fromOtherSource(sources, location)
        ? Applications.history(sources, location)
        : EventLogs.reader().sources(http.sources()).build().history(location);
    ApiResponse r = RestRouter.over(history).get(path);
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

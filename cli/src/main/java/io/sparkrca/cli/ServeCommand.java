package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.historyserver.serve.HistoryApiServer;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca serve}: the History Server's REST API over a directory of event logs, for tools
 * that speak it (scripts, notebooks, MCP servers), without a History Server.
 *
 * <pre>{@code
 * sparkrca serve /tmp/spark-events --port 18080 &
 * curl http://127.0.0.1:18080/api/v1/applications
 * }</pre>
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    header = "Answers the Spark History Server's REST API (/api/v1/...) over a directory of event logs.",
    description = {
      "",
      "Exactly as the History Server does, for event logs in any codec, rolling or in progress: new "
          + "and growing logs are picked up, applications are replayed when first asked for, and a "
          + "bounded number of them is kept. Read-only, bound to 127.0.0.1 unless --host says otherwise. "
          + "Runs until stopped (Ctrl-C); it exits 0 then, and 2 when the logs cannot be listed or the "
          + "port is taken.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca serve /tmp/spark-events",
      "  sparkrca serve gs://bucket/spark-events --port 0",
      "  sparkrca serve /tmp/spark-events --host 0.0.0.0 --redact   # shared: no secret by value or name",
      "  curl -s localhost:18080/api/v1/applications"
    })
final class ServeCommand implements Callable<Integer> {
  @Parameters(paramLabel = "EVENT_LOG_DIR", description = "A directory of event logs (or one log, or a URI of a listable store).")
  String location;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "The address to listen on (default ${DEFAULT-VALUE}: this machine only; 0.0.0.0 exposes the applications' data to the network).")
  String host;

  @Option(names = "--port", defaultValue = "18080", description = "The port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(names = "--threads", defaultValue = "4", description = "Threads answering requests (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--max-cached-apps", defaultValue = "8", description = "Replayed applications kept in memory (default ${DEFAULT-VALUE}).")
  int cached;

  @Option(names = "--request-timeout", paramLabel = "SECONDS", defaultValue = "120", description = "The longest one request may take (default ${DEFAULT-VALUE} s); then 503.")
  long requestTimeout;

  @Option(names = "--refresh", paramLabel = "SECONDS", defaultValue = "2", description = "How often at most the directory is looked at again for new and grown logs (default ${DEFAULT-VALUE} s).")
  long refresh;

  @Option(names = "--redact",
      description = "Redact answers beyond the History Server's own rule: every secret known by its value (cloud keys, "
          + "tokens, private keys, passwords in URLs) in names, job descriptions, SQL text and properties, and every "
          + "property whose name looks secret. Without it answers are exactly the History Server's.")
  boolean redact;

  @Mixin HttpOptions http;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (requestTimeout < 1) {
      throw new InvalidRequestException("--request-timeout must be at least 1 second, not " + requestTimeout);
    }
    HistoryApiServer server = HistoryApiServer.builder(location)
        .host(host).port(port).threads(threads).cachedApplications(cached)
        .requestTimeout(Duration.ofSeconds(requestTimeout)).redact(redact).refreshInterval(Duration.ofSeconds(Math.max(0, refresh)))
        .reader(EventLogs.reader().sources(http.sources()).build())
        .build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "sparkrca-serve-stop"));
    spec.commandLine().getErr().println("sparkrca: serving the History Server API over " + location + " at " + server.url()
        + "/api/v1/ (Ctrl-C stops)");
    spec.commandLine().getErr().flush();
    server.awaitStop();
    return 0;
  }
}

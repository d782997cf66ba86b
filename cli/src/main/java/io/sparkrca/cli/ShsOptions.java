package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.historyserver.HistoryServerUri;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --shs URL --app ID [--attempt N] [--full-log]}: the application of a Spark History Server
 * or a running driver's UI, in place of an event-log path. Sugar for the application URI the
 * history-server provider reads ({@code URL/api/v1/applications/ID[/N][/logs]}), which every
 * command also takes as its positional argument.
 */
final class ShsOptions {
  @Option(names = "--shs", paramLabel = "URL",
      description = "A Spark History Server (http(s)://host:18080) or a running driver's UI (http://host:4040) to read the application from, with --app. Credentials: SPARK_HISTORY_AUTHORIZATION, SPARK_HISTORY_COOKIE, SPARK_HISTORY_HEADERS_JSON, or --header.")
  String shs;

  @Option(names = "--app", paramLabel = "ID", description = "The application id on the History Server (with --shs).")
  String app;

  @Option(names = "--attempt", paramLabel = "N", description = "The attempt (YARN cluster mode); default: the latest.")
  String attempt;

  @Option(names = "--full-log", description = "Download the application's event log from the History Server and replay it here, instead of reading its REST answers (the log has what the REST API leaves out: SQL error texts, the exit code, log line numbers).")
  boolean fullLog;

  /** Whether the History Server options were given. */
  boolean given() {
    return shs != null;
  }

  /**
   * The application URI these options name, or {@code positional} when they are not given.
   *
   * @throws InvalidRequestException when they are given with a positional argument too, or
   *     incompletely
   */
  String applicationUri(String positional, String what) {
    if (shs == null) {
      if (app != null || attempt != null || fullLog) {
        throw new InvalidRequestException("--app, --attempt and --full-log go with --shs URL");
      }
      return positional;
    }
    if (positional != null) {
      throw new InvalidRequestException("give either " + what + " or --shs URL --app ID, not both");
    }
    if (app == null) {
      throw new InvalidRequestException("--shs needs --app ID (list the applications with: sparkrca shs applications --shs "
          + Redactor.redactUri(shs) + ")");
    }
    HistoryServerUri u = HistoryServerUri.of(shs, app, Optional.ofNullable(attempt));
    return (fullLog ? u.withEventLog() : u).toString();
  }

  /** The server URL alone (for commands that read the whole history), or {@code positional}. */
  String serverUri(String positional, String what) {
    if (shs == null) {
      return applicationUri(positional, what);
    }
    if (positional != null) {
      throw new InvalidRequestException("give either " + what + " or --shs URL, not both");
    }
    if (fullLog) {
      throw new InvalidRequestException("--full-log goes with the analysis commands (rca, summarize, rules), not here");
    }
    return shs;
  }

  /** With --app, a REST path relative to that application ({@code jobs}); else {@code path} as is. */
  String appRelative(String path) {
    if (shs == null || app == null || path.startsWith("applications")) {
      return path;
    }
    String p = path.startsWith("/") ? path.substring(1) : path;
    return HistoryServerUri.of(shs, app, Optional.ofNullable(attempt)).appPath().orElseThrow() + "/" + p;
  }
}

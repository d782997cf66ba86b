package io.sparkrca.historyserver;

import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Finds where applications can be read when no History Server URL is given, in the order of the
 * failure and slow-job playbooks: {@code SPARK_HISTORY_URL}; a History Server at {@code
 * http://localhost:18080}; a running driver's UI at {@code http://localhost:4040}; then the local
 * Spark configuration ({@code spark-defaults.conf} under {@code SPARK_CONF_DIR} or {@code
 * SPARK_HOME/conf}): a History Server on its {@code spark.history.ui.port}, else the event-log
 * directory ({@code spark.history.fs.logDirectory} or {@code spark.eventLog.dir}) to read directly.
 * Each probe is one request with short timeouts and no retries; the result says what was tried and
 * what answered.
 *
 * <pre>{@code
 * HistoryServerDiscovery.Result r = HistoryServerDiscovery.discover(System::getenv, HistoryServerSettings.defaults());
 * r.url().ifPresentOrElse(u -> System.out.println("History Server: " + u),
 *     () -> r.eventLogDir().ifPresent(d -> System.out.println("event logs: " + d)));
 * r.tried().forEach(System.err::println);
 * }</pre>
 */
public final class HistoryServerDiscovery {
  private HistoryServerDiscovery() {}

  /**
   * What discovery found.
   *
   * @param url the History Server or driver UI that answered, if any
   * @param eventLogDir the event-log directory of the local Spark configuration, when no server answered
   * @param tried every place tried, in order, with its outcome
   */
  public record Result(Optional<String> url, Optional<String> eventLogDir, List<String> tried) {
    public Result {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(eventLogDir, "eventLogDir");
      tried = List.copyOf(tried);
    }

    /** Whether anything was found. */
    public boolean found() {
      return url.isPresent() || eventLogDir.isPresent();
    }

    /** One line naming every place tried and its outcome. */
    public String describe() {
      return String.join("; ", tried);
    }
  }

  /**
   * The history to read: the server at {@code url} when given; else the discovered History Server
   * or driver UI; else the discovered event-log directory, read directly with {@code eventLogs}.
   * {@code notice} receives one line saying what discovery chose (nothing when {@code url} is given).
   *
   * <pre>{@code
   * SparkHistory h = HistoryServerDiscovery.history(Optional.empty(), settings, ByteSources.defaults(), System.err::println);
   * }</pre>
   *
   * @throws InputNotFoundException when no url is given and discovery finds nothing, naming every place tried
   */
  public static SparkHistory history(Optional<String> url, HistoryServerSettings settings, ByteSources eventLogs,
      Consumer<String> notice) {
    if (url.isPresent()) {
      return HistoryServerHistory.open(url.get(), settings);
    }
    Result d = discover(settings);
    if (d.url().isPresent()) {
      notice.accept("using the History Server at " + d.url().get() + " (" + d.describe() + ")");
      return HistoryServerHistory.open(d.url().get(), settings);
    }
    if (d.eventLogDir().isPresent()) {
      notice.accept("no History Server answered; reading the event logs in " + Redactor.redactUri(d.eventLogDir().get())
          + " directly (" + d.describe() + ")");
      return EventLogs.reader().sources(eventLogs).build().history(d.eventLogDir().get());
    }
    throw new InputNotFoundException("a Spark History Server", "none was given and none was found (" + d.describe()
        + "); give its URL or set " + HistoryServerSettings.ENV_URL);
  }

  /** Discovers with the process environment. */
  public static Result discover(HistoryServerSettings settings) {
    return discover(System::getenv, settings);
  }

  /** Discovers, reading variables from {@code env}. */
  public static Result discover(Function<String, String> env, HistoryServerSettings settings) {
    return discover(env, settings, LOCAL_SERVERS);
  }

  /** The local History Server and driver UI, in the order tried. */
  static final List<String> LOCAL_SERVERS = List.of("http://localhost:18080", "http://localhost:4040");

  /** As {@link #discover(Function, HistoryServerSettings)}, trying {@code locals} in place of the default ports. */
  static Result discover(Function<String, String> env, HistoryServerSettings settings, List<String> locals) {
    List<String> tried = new ArrayList<>();
    HistoryServerSettings probe = HistoryServerSettings.builder()
        .http(settings.http().toBuilder().connectTimeout(Duration.ofSeconds(2)).requestTimeout(Duration.ofSeconds(5))
            .readTimeout(Duration.ofSeconds(5)).maxRetries(0).build())
        .build();
    String fromEnv = env.apply(HistoryServerSettings.ENV_URL);
    if (fromEnv != null && !fromEnv.isBlank()) {
      Optional<String> ok = probe(fromEnv.trim(), HistoryServerSettings.ENV_URL + "=" + Redactor.redactUri(fromEnv.trim()), probe, tried);
      if (ok.isPresent()) {
        return new Result(ok, Optional.empty(), tried);
      }
    } else {
      tried.add(HistoryServerSettings.ENV_URL + ": not set");
    }
    for (String local : locals) {
      Optional<String> ok = probe(local, local, probe, tried);
      if (ok.isPresent()) {
        return new Result(ok, Optional.empty(), tried);
      }
    }
    Optional<Path> conf = defaultsFile(env);
    if (conf.isEmpty()) {
      tried.add("spark-defaults.conf: none under SPARK_CONF_DIR or SPARK_HOME/conf");
      return new Result(Optional.empty(), Optional.empty(), tried);
    }
    Map<String, String> props;
    try {
      props = readDefaults(conf.get());
    } catch (IOException e) {
      tried.add(conf.get() + ": unreadable (" + e.getMessage() + ")");
      return new Result(Optional.empty(), Optional.empty(), tried);
    }
    String port = props.get("spark.history.ui.port");
    if (port != null && port.matches("\\d{1,5}") && !port.equals("18080")) {
      String url = "http://localhost:" + port;
      Optional<String> ok = probe(url, url + " (spark.history.ui.port in " + conf.get() + ")", probe, tried);
      if (ok.isPresent()) {
        return new Result(ok, Optional.empty(), tried);
      }
    }
    for (String key : List.of("spark.history.fs.logDirectory", "spark.eventLog.dir")) {
      String dir = props.get(key);
      if (dir != null && !dir.isBlank()) {
        tried.add(key + " in " + conf.get() + ": " + Redactor.redactUri(dir) + " (event logs read directly)");
        return new Result(Optional.empty(), Optional.of(dir.trim()), tried);
      }
    }
    tried.add(conf.get() + ": sets neither spark.history.fs.logDirectory nor spark.eventLog.dir");
    return new Result(Optional.empty(), Optional.empty(), tried);
  }

  private static Optional<String> probe(String url, String label, HistoryServerSettings settings, List<String> tried) {
    try {
      HistoryServerHistory h = HistoryServerHistory.open(url, settings);
      int n = h.list(Optional.empty(), 1).size();
      tried.add(label + ": answered (" + (n == 0 ? "no application listed yet" : "lists applications") + ")");
      return Optional.of(h.server().root());
    } catch (SparkRcaException e) {
      tried.add(label + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private static Optional<Path> defaultsFile(Function<String, String> env) {
    List<Path> candidates = new ArrayList<>();
    String confDir = env.apply("SPARK_CONF_DIR");
    if (confDir != null && !confDir.isBlank()) {
      candidates.add(Path.of(confDir, "spark-defaults.conf"));
    }
    String home = env.apply("SPARK_HOME");
    if (home != null && !home.isBlank()) {
      candidates.add(Path.of(home, "conf", "spark-defaults.conf"));
    }
    return candidates.stream().filter(Files::isRegularFile).findFirst();
  }

  /** Reads {@code spark-defaults.conf}: {@code key value} or {@code key=value} lines, {@code #} comments. */
  static Map<String, String> readDefaults(Path file) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    if (Files.size(file) > 1024 * 1024) {
      throw new IOException("larger than 1 MiB, not a spark-defaults.conf");
    }
    for (String line : Files.readAllLines(file)) {
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      int sep = 0;
      while (sep < t.length() && !Character.isWhitespace(t.charAt(sep)) && t.charAt(sep) != '=') {
        sep++;
      }
      String key = t.substring(0, sep);
      String value = t.substring(sep).trim();
      if (value.startsWith("=")) {
        value = value.substring(1).trim();
      }
      out.put(key, value);
    }
    return out;
  }
}

package io.sparkrca.cli.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real headless Chromium (Debian's {@code chromium} package, installed by {@code
 * .ci/install-chromium.sh}) driven over the DevTools protocol on the loopback, with the JDK's own
 * WebSocket client: open a local HTML file, wait for it to load, read its DOM, take a screenshot,
 * and report every console message, uncaught exception and network request the page made. One
 * browser per test class; {@link #close()} kills it and deletes its profile.
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DEVTOOLS = Pattern.compile("DevTools listening on (ws://\\S+)");

  private final Process process;
  private final Path profile;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private HeadlessChromium(Process process, Path profile, int port) {
    this.process = process;
    this.profile = profile;
    this.port = port;
  }

  /** The chromium binary on this machine, if there is one. */
  public static Optional<Path> binary() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /** Starts a headless browser listening on a free loopback port. */
  public static HeadlessChromium start(Path binary) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("sparkrca-chromium");
    List<String> cmd = List.of(binary.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
        "--disable-domain-reliability", "--metrics-recording-only", "--mute-audio", "--hide-scrollbars",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=" + profile,
        "--window-size=1100,900", "about:blank");
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String line;
    StringBuilder seen = new StringBuilder();
    while (System.nanoTime() < deadline && (line = err.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher m = DEVTOOLS.matcher(line);
      if (m.find()) {
        int port = URI.create(m.group(1)).getPort();
        // Keep draining stderr so the browser never blocks on a full pipe.
        Thread drain = new Thread(() -> {
          try {
            while (err.readLine() != null) {
              // discarded
            }
          } catch (IOException e) {
            // the browser is gone
          }
        }, "chromium-stderr");
        drain.setDaemon(true);
        drain.start();
        return new HeadlessChromium(p, profile, port);
      }
    }
    p.destroyForcibly();
    throw new IOException("chromium did not start within 30 s: " + seen);
  }

  /** What the page did while it loaded. */
  public record PageLog(List<String> consoleErrors, List<String> consoleMessages, List<String> requests, long loadMs) {}

  /** An open tab. */
  public final class Page implements AutoCloseable {
    private final WebSocket ws;
    private final String targetId;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

    private Page(WebSocket ws, String targetId) {
      this.ws = ws;
      this.targetId = targetId;
    }

    void onMessage(JsonNode m) {
      if (m.has("id")) {
        CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
        if (f != null) {
          if (m.has("error")) {
            f.completeExceptionally(new IOException("DevTools error: " + m.get("error")));
          } else {
            f.complete(m.path("result"));
          }
        }
        return;
      }
      events.add(m);
      if ("Page.loadEventFired".equals(m.path("method").asText())) {
        loaded.complete(null);
      }
    }

    /** Sends a DevTools command and waits for its answer. */
    public JsonNode send(String method, Map<String, Object> params) throws IOException {
      int id = ids.incrementAndGet();
      ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
      msg.set("params", JSON.valueToTree(params));
      CompletableFuture<JsonNode> f = new CompletableFuture<>();
      pending.put(id, f);
      ws.sendText(JSON.writeValueAsString(msg), true).join();
      try {
        return f.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IOException(method + " failed: " + e.getMessage(), e);
      }
    }

    /** Opens {@code file}, waits for its load event, and says what the page logged and requested. */
    public PageLog open(Path file) throws IOException {
      events.clear();
      loaded = new CompletableFuture<>();
      long t0 = System.nanoTime();
      send("Page.navigate", Map.of("url", file.toUri().toString()));
      try {
        loaded.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IOException("the page did not load within 60 s: " + file, e);
      }
      long loadMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      // Let late console messages and requests arrive.
      evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))");
      List<String> errors = new ArrayList<>();
      List<String> messages = new ArrayList<>();
      List<String> requests = new ArrayList<>();
      for (JsonNode e : events) {
        String method = e.path("method").asText();
        JsonNode p = e.path("params");
        switch (method) {
          case "Runtime.consoleAPICalled" -> {
            String text = p.path("type").asText() + ": " + p.path("args").toString();
            messages.add(text);
            if (p.path("type").asText().equals("error") || p.path("type").asText().equals("assert")) {
              errors.add(text);
            }
          }
          case "Runtime.exceptionThrown" -> errors.add("exception: " + p.path("exceptionDetails").toString());
          case "Log.entryAdded" -> {
            String text = p.path("entry").path("level").asText() + ": " + p.path("entry").path("text").asText() + " "
                + p.path("entry").path("url").asText();
            messages.add(text);
            if (p.path("entry").path("level").asText().equals("error")) {
              errors.add(text);
            }
          }
          case "Network.requestWillBeSent" -> requests.add(p.path("request").path("url").asText());
          default -> {
            // other events are not needed
          }
        }
      }
      return new PageLog(errors, messages, requests, loadMs);
    }

    /** Evaluates a JavaScript expression in the page (awaiting a promise) and returns its value as JSON. */
    public JsonNode evaluate(String expression) throws IOException {
      JsonNode r = send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
          "awaitPromise", true));
      if (r.has("exceptionDetails")) {
        throw new IOException("the expression failed: " + r.get("exceptionDetails"));
      }
      return r.path("result").path("value");
    }

    /** A PNG of the whole page, {@code width} CSS pixels wide. */
    public byte[] screenshot(int width) throws IOException {
      JsonNode metrics = send("Page.getLayoutMetrics", Map.of());
      double h = metrics.path("cssContentSize").path("height").asDouble(900);
      int height = (int) Math.min(16_000, Math.ceil(h));
      send("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height, "deviceScaleFactor", 1,
          "mobile", false));
      JsonNode shot = send("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
          "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
      return Base64.getDecoder().decode(shot.path("data").asText());
    }

    @Override
    public void close() {
      try {
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // closing anyway
      }
      try {
        http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/close/" + targetId)).GET()
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
      } catch (Exception e) {
        // the browser is closed with the class anyway
      }
    }
  }

  /** Opens a new tab with the Page, Runtime, Log and Network domains enabled. */
  public Page newPage() throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/json/new?about:blank")).PUT(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("DevTools /json/new answered " + r.statusCode() + ": " + r.body());
    }
    JsonNode target = JSON.readTree(r.body());
    Page[] page = new Page[1];
    StringBuilder partial = new StringBuilder();
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(target.get("webSocketDebuggerUrl").asText()),
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
              String text = partial.toString();
              partial.setLength(0);
              try {
                page[0].onMessage(JSON.readTree(text));
              } catch (IOException e) {
                // a message that is not JSON: ignored
              }
            }
            w.request(1);
            return null;
          }
        }).join();
    page[0] = new Page(ws, target.get("id").asText());
    for (String domain : List.of("Page", "Runtime", "Log", "Network")) {
      page[0].send(domain + ".enable", Map.of());
    }
    return page[0];
  }

  @Override
  public void close() throws IOException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (var walk = Files.walk(profile)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}

package io.sparkrca.historyserver.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.HttpAnswer;
import io.sparkrca.core.io.HttpTransport;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.historyserver.HistoryServerSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GETs of one History Server's REST API, through core's {@link HttpTransport} (credentials, CAs,
 * redirects, retries of 429/5xx with {@code Retry-After}), plus what a REST client needs on top: a
 * size cap per answer, an answer whose body breaks off (a reset, a stall past the read timeout, a
 * body shorter than its length, JSON cut mid-way) retried as a whole by the transport and then an
 * error, never a partial answer; an HTML page (a login page of a proxy) recognised; 401 and 403
 * naming the credential variables. Counts its requests. Thread-safe.
 */
public final class RestClient {
  private static final long MIB = 1L << 20;
  private static final Pattern TITLE = Pattern.compile("(?is)<title[^>]*>(.*?)</title>");

  private final String apiRoot;
  private final HistoryServerSettings settings;
  private final HttpTransport http;
  private final AtomicLong bytes = new AtomicLong();

  /** @param apiRoot the REST root, ending with {@code /api/v1/} */
  public RestClient(String apiRoot, HistoryServerSettings settings) {
    this.apiRoot = apiRoot;
    this.settings = settings;
    this.http = HttpTransport.of(settings.http());
  }

  public String apiRoot() {
    return apiRoot;
  }

  public HistoryServerSettings settings() {
    return settings;
  }

  /** Requests sent so far (each retry counts). */
  public long requests() {
    return http.requests();
  }

  /** Body bytes received so far. */
  public long bytes() {
    return bytes.get();
  }

  /** The JSON answer of {@code path} (relative to the API root) as {@code type}. */
  public <T> T get(String path, JavaType type) {
    return this.<T>getOptional(path, type).orElseThrow(() -> new InputNotFoundException(name(path),
        "the History Server answered 404; check the application id"));
  }

  /** As {@link #get}, empty when the server answers 404 (an unknown stage, no summary yet). */
  public <T> Optional<T> getOptional(String path, JavaType type) {
    return this.<T>getSized(path, type).map(Sized::value);
  }

  /** A parsed answer and the size of its body. */
  public record Sized<T>(T value, long bytes) {}

  /**
   * As {@link #getOptional}, with the answer's size. JSON that ends before its last value (cut
   * off) is retried with the broken bodies; other JSON that is not the expected answer is not.
   */
  public <T> Optional<Sized<T>> getSized(String path, JavaType type) {
    try {
      return Optional.of(fetch(path, answer -> {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        read(path, answer, () -> out, settings.maxResponseBytes(), "answer");
        byte[] body = out.toByteArray();
        return new Sized<>(parse(path, body, type), body.length);
      }));
    } catch (InputNotFoundException e) {
      return Optional.empty();
    } catch (BrokenBody e) {
      throw new CorruptInputException("GET " + name(path) + ": " + e.getMessage() + " on each of " + attempts()
          + " attempts; the answer was not used (a partial answer is never read as "
          + "complete). Check the History Server and any proxy in front of it, and try again", e);
    } catch (JsonProcessingException e) {
      throw new CorruptInputException("GET " + name(path) + ": the answer is not complete JSON ("
          + firstLine(e.getOriginalMessage()) + ") on each of " + attempts() + " attempts; it was "
          + "cut off or is not a History Server answer. Check the URL and any proxy in front of the server", e);
    }
  }

  /** Attempts of one request when each failed: the first and every retry. */
  private int attempts() {
    return settings.http().maxRetries() + 1;
  }

  /** {@code body} as {@code type}; JSON cut off is thrown to be retried, other bad JSON is final. */
  private <T> T parse(String path, byte[] body, JavaType type) throws JsonProcessingException {
    try {
      T value = SparkJson.mapper().readValue(body, type);
      if (value == null) {
        throw new CorruptInputException("GET " + name(path) + ": the answer is empty (JSON null)");
      }
      return value;
    } catch (JsonProcessingException e) {
      if (endsEarly(e)) {
        throw e;
      }
      throw new CorruptInputException("GET " + name(path) + ": the answer is not the History Server JSON expected ("
          + firstLine(e.getOriginalMessage()) + "); check that the URL is a History Server's or driver UI's", e);
    } catch (IOException e) {
      throw new CorruptInputException("GET " + name(path) + ": unreadable answer (" + e.getMessage() + ")", e);
    }
  }

  /** Where a body is written: opened afresh for each attempt, so a retry starts it over. */
  @FunctionalInterface
  public interface Sink {
    OutputStream open();
  }

  /**
   * Streams the body of {@code path} into {@code sink}, at most {@code cap} bytes; a body that
   * breaks off is fetched again into a fresh sink, within the HTTP settings' retries.
   *
   * @throws BrokenBody when the body broke off on every attempt
   */
  public void fetchTo(String path, Sink sink, long cap, String what) throws BrokenBody {
    try {
      fetch(path, answer -> {
        read(path, answer, sink, cap, what);
        return null;
      });
    } catch (JsonProcessingException e) {
      // Unreachable: this reader parses no JSON.
      throw new CorruptInputException("GET " + name(path) + ": " + e.getOriginalMessage(), e);
    }
  }

  /** One GET of {@code path} read by {@code reader}, the transport's failures worded for a History Server. */
  private <T> T fetch(String path, HttpTransport.BodyReader<T> reader) throws BrokenBody, JsonProcessingException {
    try {
      return http.send(HttpTransport.Request.get(apiRoot + path).build(), reader);
    } catch (AccessDeniedException e) {
      throw accessDenied(path, e);
    } catch (BrokenBody | JsonProcessingException e) {
      throw e; // retried as a whole by the transport, now for the caller to word
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("GET " + name(path) + " was interrupted", e);
    } catch (IOException e) {
      throw new SparkRcaException("GET " + name(path) + ": " + Redactor.redactUri(String.valueOf(e.getMessage())), e);
    }
  }

  /** Copies one answer's body into {@code sink}, checking its size, its kind and its pace. */
  private void read(String path, HttpAnswer a, Sink sink, long cap, String what) throws IOException {
    OptionalLong declared = a.contentLength();
    if (declared.isPresent() && declared.getAsLong() > cap) {
      throw tooLarge(path, declared.getAsLong() + " bytes", cap, what);
    }
    String type = a.header("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    InputStream in = a.body();
    byte[] buf = new byte[64 * 1024];
    long n = 0;
    boolean first = true;
    long started = System.nanoTime();
    long window = settings.http().readTimeout().toNanos();
    try (OutputStream out = sink.open()) {
      while (true) {
        int r = readSome(in, buf, n);
        if (r < 0) {
          break;
        }
        if (first && r > 0) {
          first = false;
          if (type.startsWith("text/html") || looksLikeHtml(buf, r)) {
            throw html(path, new String(buf, 0, Math.min(r, 4096), StandardCharsets.UTF_8));
          }
        }
        n += r;
        if (n > cap) {
          throw tooLarge(path, "more than " + cap + " bytes", cap, what);
        }
        out.write(buf, 0, r);
        // At least 1 MiB per read timeout, on average: a server that trickles just fast enough for
        // each read (the body stream's own floor is 1 KiB per read timeout) cannot hold an answer
        // of many MiB for hours.
        long elapsed = System.nanoTime() - started;
        if (elapsed > window && elapsed / (double) window > 1 + n / (double) MIB) {
          throw new SparkRcaException("GET " + name(path) + ": the " + what + " arrives too slowly (" + n + " bytes in "
              + TimeUnit.NANOSECONDS.toSeconds(elapsed) + " s; at least 1 MiB per " + settings.http().readTimeout()
              .toSeconds() + " s is expected); check the server and any proxy in front of it, or allow more time "
              + "(--timeout)");
        }
      }
    } catch (BrokenBody | InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      // Writing failed, not the server: asking again would not help.
      throw new SparkRcaException("GET " + name(path) + ": " + Redactor.redactUri(String.valueOf(e.getMessage())), e);
    }
    bytes.addAndGet(n);
    if (declared.isPresent() && n < declared.getAsLong()) {
      throw new BrokenBody("the answer ended after " + n + " of its " + declared.getAsLong() + " bytes", null);
    }
  }

  /** One read of the body; a break or stall is a {@link BrokenBody}. */
  private int readSome(InputStream in, byte[] buf, long sofar) throws IOException {
    try {
      return in.read(buf);
    } catch (java.net.http.HttpTimeoutException | java.net.SocketTimeoutException e) {
      throw new BrokenBody("the answer stalled for longer than the read timeout ("
          + settings.http().readTimeout().toMillis() + " ms) after " + sofar + " bytes", e);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      throw new BrokenBody("the connection broke after " + sofar + " bytes of the answer ("
          + Redactor.redactUri(String.valueOf(e.getMessage())) + ")", e);
    }
  }

  /** The URL of {@code path}, without credentials, for messages. */
  public String name(String path) {
    return Redactor.redactUri(apiRoot + path);
  }

  private UnsupportedInputException tooLarge(String path, String size, long cap, String what) {
    return new UnsupportedInputException("GET " + name(path) + ": the " + what + " has " + size
        + ", more than the cap of " + cap + " bytes; nothing of it was used. Raise the cap of one answer in the "
        + "History Server settings, or ask for less (fewer stages or tasks)");
  }

  private UnsupportedInputException html(String path, String head) {
    Matcher m = TITLE.matcher(head);
    String title = m.find() ? " titled '" + Redactor.standard().redactText(m.group(1).replaceAll("\\s+", " ").trim()) + "'" : "";
    return new UnsupportedInputException("GET " + name(path) + ": the answer is an HTML page" + title
        + ", not the History Server's JSON: most likely the login page of a proxy or single sign-on in front "
        + "of it. Send that proxy's credentials (" + HistoryServerSettings.ENV_COOKIE + " with a session "
        + "cookie, or " + HistoryServerSettings.ENV_AUTHORIZATION + "), or use the History Server's own URL");
  }

  private AccessDeniedException accessDenied(String path, AccessDeniedException e) {
    boolean sent = settings.hasCredentials();
    // "(HTTP 401 " is the status core's message gives; a bare "401" also matches a port such as 40175.
    return new AccessDeniedException(name(path), e.getMessage().contains("(HTTP 401 ") ? "HTTP 401 Unauthorized" : "HTTP 403 Forbidden",
        sent
            ? "the credentials sent were refused: check the value of " + HistoryServerSettings.ENV_AUTHORIZATION
                + " (for example 'Bearer <token>'), " + HistoryServerSettings.ENV_COOKIE + " or "
                + HistoryServerSettings.ENV_HEADERS_JSON + ", that it has not expired, and that it may read this application"
            : "the History Server requires credentials: set " + HistoryServerSettings.ENV_AUTHORIZATION
                + " (for example 'Bearer <token>'), " + HistoryServerSettings.ENV_COOKIE + " (a session cookie) or "
                + HistoryServerSettings.ENV_HEADERS_JSON + " (a JSON object of headers)", e);
  }

  private static boolean looksLikeHtml(byte[] buf, int len) {
    for (int i = 0; i < len; i++) {
      byte b = buf[i];
      if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
        continue;
      }
      if (b != '<') {
        return false;
      }
      String head = new String(buf, i, Math.min(len - i, 64), StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
      return head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<head")
          || head.startsWith("<body") || head.startsWith("<!--") || head.startsWith("<meta") || head.startsWith("<title");
    }
    return false;
  }

  /** Whether the JSON ended before its last value did (cut off), as opposed to being other JSON. */
  private static boolean endsEarly(JsonProcessingException e) {
    return e instanceof com.fasterxml.jackson.core.io.JsonEOFException
        || String.valueOf(e.getOriginalMessage()).startsWith("Unexpected end-of-input");
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** A body that broke off: retried as a whole by the transport, then an error. */
  public static final class BrokenBody extends IOException {
    private static final long serialVersionUID = 1L;

    BrokenBody(String message, Throwable cause) {
      super(message, cause);
    }
  }
}

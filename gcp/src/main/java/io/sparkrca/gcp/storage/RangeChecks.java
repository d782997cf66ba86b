package io.sparkrca.gcp.storage;

import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpResponseInterceptor;
import com.google.cloud.ServiceOptions;
import com.google.cloud.http.HttpTransportOptions;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Cloud Storage client's HTTP transport options with one addition: every media answer to a
 * ranged request is checked before its body is read. The client itself does not check: a server
 * (or proxy) that ignores {@code Range} and answers 200 with the whole object would otherwise be
 * read from its first byte as if it were the range. Such an answer, or a 206 starting at another
 * byte, fails with {@link RangeIgnoredException} and its connection is closed unread. The answer's
 * total size and generation are handed to the {@link Probe} of the calling thread, if any, so one
 * request yields the first bytes, the size and the version of an object.
 */
final class RangeChecks extends HttpTransportOptions {
  private static final long serialVersionUID = 1L;
  private static final Pattern CONTENT_RANGE = Pattern.compile("\\s*bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)\\s*");
  private static final Pattern RANGE = Pattern.compile("\\s*bytes=(\\d+)-(\\d*)\\s*");
  static final ThreadLocal<Probe> PROBE = new ThreadLocal<>();

  RangeChecks(HttpTransportOptions.Builder b) {
    super(b);
  }

  /** What the last media answer on this thread said about the object. */
  static final class Probe {
    long total = -1;
    Optional<Long> generation = Optional.empty();
    int requests;
  }

  @Override
  public HttpRequestInitializer getHttpRequestInitializer(ServiceOptions<?, ?> serviceOptions) {
    HttpRequestInitializer base = super.getHttpRequestInitializer(serviceOptions);
    return request -> {
      base.initialize(request);
      HttpResponseInterceptor previous = request.getResponseInterceptor();
      request.setResponseInterceptor(response -> {
        if (previous != null) {
          previous.interceptResponse(response);
        }
        check(response);
      });
    };
  }

  private static void check(HttpResponse response) throws IOException {
    String url = response.getRequest().getUrl().build();
    if (!url.contains("alt=media")) {
      return;
    }
    Probe probe = PROBE.get();
    if (probe != null) {
      probe.requests++;
    }
    String range = response.getRequest().getHeaders().getRange();
    int status = response.getStatusCode();
    Object gen = response.getHeaders().get("x-goog-generation");
    if (probe != null && gen != null) {
      try {
        String g = gen instanceof java.util.List<?> l && !l.isEmpty() ? String.valueOf(l.get(0)) : String.valueOf(gen);
        probe.generation = Optional.of(Long.parseLong(g.trim()));
      } catch (NumberFormatException ignored) {
        // a fake without a numeric generation: reads are then not pinned to a version
      }
    }
    Matcher asked = range == null ? null : RANGE.matcher(range);
    if (asked == null || !asked.matches()) {
      if (probe != null && status == 200 && response.getHeaders().getContentLength() != null) {
        probe.total = response.getHeaders().getContentLength();
      }
      return;
    }
    long start = Long.parseLong(asked.group(1));
    if (status == 200) {
      Long length = response.getHeaders().getContentLength();
      if (start == 0 && asked.group(2).isEmpty()) {
        return; // the whole object was asked for
      }
      response.disconnect();
      throw new RangeIgnoredException(start, length == null ? -1 : length);
    }
    if (status == 206) {
      String cr = response.getHeaders().getContentRange();
      Matcher m = cr == null ? null : CONTENT_RANGE.matcher(cr);
      if (m == null || !m.matches() || Long.parseLong(m.group(1)) != start) {
        response.disconnect();
        throw new RangeIgnoredException(start, cr);
      }
      if (probe != null && !"*".equals(m.group(3))) {
        probe.total = Long.parseLong(m.group(3));
      }
    }
  }

  /** A ranged request answered with other bytes than those asked for. */
  static final class RangeIgnoredException extends IOException {
    private static final long serialVersionUID = 1L;
    final long start;

    RangeIgnoredException(long start, long wholeLength) {
      super("the server ignored the Range request for bytes from " + start + " and answered 200 with the whole object"
          + (wholeLength >= 0 ? " (" + wholeLength + " bytes)" : "") + " instead of 206 Partial Content");
      this.start = start;
    }

    RangeIgnoredException(long start, String contentRange) {
      super("the server answered a Range request for bytes from " + start + " with Content-Range '" + contentRange
          + "', not the bytes asked for");
      this.start = start;
    }
  }
}

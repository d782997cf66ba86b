package io.sparkrca.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The answer to one request of {@link HttpTransport} (or one plain GET of {@link
 * HttpByteSourceProvider#get}): the status, the headers, and the body as a stream whose reads time
 * out after the settings' read timeout. Close it to release the connection (a body closed before
 * its end aborts the transfer).
 *
 * <pre>{@code
 * try (HttpAnswer a = HttpByteSourceProvider.of(settings).get("https://shs:18080/api/v1/applications")) {
 *   byte[] json = a.readAll(1 << 20).orElseThrow(() -> new UnsupportedInputException("over 1 MiB"));
 * }
 * }</pre>
 */
public final class HttpAnswer implements Closeable {
  /** The most a Java array holds. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final int status;
  private final HttpHeaders headers;
  private final BodyStream body;
  private final URI uri;

  HttpAnswer(int status, HttpHeaders headers, BodyStream body, URI uri) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.uri = uri;
  }

  /**
   * The HTTP status: 2xx (or 416 to a ranged read), unless the request asked for error answers
   * ({@link HttpTransport.Request.Builder#errorsAsAnswers()}).
   */
  public int status() {
    return status;
  }

  /** The URL that answered, after redirects. */
  public URI uri() {
    return uri;
  }

  /** A response header, by case-insensitive name. */
  public Optional<String> header(String name) {
    return headers.firstValue(name);
  }

  HttpHeaders headers() {
    return headers;
  }

  /** The declared {@code Content-Length}, when the server sent a valid one. */
  public OptionalLong contentLength() {
    Optional<String> v = header("Content-Length");
    if (v.isPresent()) {
      try {
        return OptionalLong.of(Long.parseLong(v.get().trim()));
      } catch (NumberFormatException ignored) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  /** The body; a read that waits longer than the read timeout for more bytes fails. */
  public InputStream body() {
    return body;
  }

  /**
   * The whole body, or empty when it declares or sends more than {@code cap} bytes: a declared
   * length past the cap is refused before any byte is read, and a body without one is read no
   * further than one byte past the cap (close the answer to abort the rest).
   *
   * @throws IOException when the body breaks off or stalls
   */
  public Optional<byte[]> readAll(long cap) throws IOException {
    long max = Math.min(Math.max(cap, 0), MAX_ARRAY);
    OptionalLong declared = contentLength();
    if (declared.isPresent() && declared.getAsLong() > max) {
      return Optional.empty();
    }
    // Sized from the declared length when there is one (no copies as it grows).
    byte[] buf = new byte[(int) Math.min(max, declared.isPresent() ? declared.getAsLong() : 8192)];
    int size = 0;
    while (true) {
      if (size == buf.length) {
        if (size == max) {
          return body.read() < 0 ? Optional.of(buf) : Optional.empty();
        }
        buf = Arrays.copyOf(buf, (int) Math.min(max, Math.max(8192, 2L * size)));
      }
      int n = body.read(buf, size, buf.length - size);
      if (n < 0) {
        return Optional.of(size == buf.length ? buf : Arrays.copyOf(buf, size));
      }
      size += n;
    }
  }

  @Override
  public void close() {
    body.close();
  }
}

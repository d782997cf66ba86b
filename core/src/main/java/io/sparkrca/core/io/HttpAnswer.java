package io.sparkrca.core.io;

import java.io.Closeable;
import java.io.InputStream;
import java.net.URI;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The answer to one plain GET of a whole resource ({@link HttpByteSourceProvider#get}), such as a
 * REST answer: the status (2xx; errors are exceptions), the headers, and the body as a stream
 * whose reads time out after the settings' read timeout. Close it to release the connection (a
 * body closed before its end aborts the transfer).
 *
 * <pre>{@code
 * try (HttpAnswer a = HttpByteSourceProvider.of(settings).get("https://shs:18080/api/v1/applications")) {
 *   byte[] json = a.body().readNBytes(1 << 20);
 * }
 * }</pre>
 */
public final class HttpAnswer implements Closeable {
  private final HttpTransport.Response response;

  HttpAnswer(HttpTransport.Response response) {
    this.response = response;
  }

  /** The HTTP status, 2xx. */
  public int status() {
    return response.status();
  }

  /** The URL that answered, after redirects. */
  public URI uri() {
    return response.uri();
  }

  /** A response header, by case-insensitive name. */
  public Optional<String> header(String name) {
    return response.header(name);
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
    return response.body();
  }

  @Override
  public void close() {
    response.body().close();
  }
}

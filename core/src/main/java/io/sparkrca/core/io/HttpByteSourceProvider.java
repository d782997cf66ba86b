package io.sparkrca.core.io;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads {@code http://} and {@code https://} URLs with ranged GET requests, through one {@link
 * HttpTransport}. {@link
 * ByteSources#defaults()} includes one with default settings (after every other provider, so a
 * cloud module can claim its own hosts); build your own to send credentials or trust a private CA.
 *
 * <p>Behaviour: range answers are validated ({@code 206} with a matching {@code Content-Range}; a
 * {@code 200} with the whole body in answer to a range is detected and refused rather than read);
 * 429 and 5xx answers, connection failures and resets are retried with exponential backoff and
 * jitter, honouring {@code Retry-After}; a body interrupted mid-stream is resumed from the byte
 * where it stopped; redirects are followed, dropping credentials when they leave the origin and
 * refusing https-to-http downgrades and credentials over plain http to other hosts; extra CA certificates are added to the system trust, and TLS
 * verification is never disabled. Messages never contain credentials.
 *
 * <pre>{@code
 * HttpByteSourceProvider http = HttpByteSourceProvider.of(HttpSettings.builder()
 *     .header("Authorization", "Bearer " + token)
 *     .caCertificates(Path.of("/etc/corp/proxy-ca.pem"))
 *     .build());
 * ByteSources sources = ByteSources.builder().add(http).build();
 * ByteSource log = sources.open("https://logs.example.com/spark/driver.log");
 * }</pre>
 */
public final class HttpByteSourceProvider implements ByteSourceProvider {

  private final HttpTransport transport;

  private HttpByteSourceProvider(HttpTransport transport) {
    this.transport = transport;
  }

  /** A provider with default settings and no credentials. */
  public static HttpByteSourceProvider defaults() {
    return Defaults.INSTANCE;
  }

  /** A provider that reads with these settings (credentials, CAs, timeouts, retries). */
  public static HttpByteSourceProvider of(HttpSettings settings) {
    return new HttpByteSourceProvider(HttpTransport.of(Objects.requireNonNull(settings, "settings")));
  }

  /** The settings this provider reads with. */
  public HttpSettings settings() {
    return transport.settings();
  }

  /** The transport this provider reads through, for requests other than ranged reads. */
  public HttpTransport transport() {
    return transport;
  }

  /**
   * One plain GET of a whole resource (no {@code Range}), such as a REST answer, with these
   * settings' credentials, CAs, timeouts, retries ({@code Retry-After} honoured) and redirect
   * rules (credentials never leave the URL's origin). A {@code user:password@} in the URL is sent
   * as a Basic {@code Authorization} header, as {@link #open(String)} does, and the answer's
   * {@link HttpAnswer#uri()} no longer holds it. Errors are exceptions naming the URL
   * without credentials: 401/403 {@link io.sparkrca.core.error.AccessDeniedException}, 404/410
   * {@link io.sparkrca.core.error.InputNotFoundException} (its message quotes the start of a
   * plain-text body), other failures {@link io.sparkrca.core.error.SparkRcaException}s.
   */
  public HttpAnswer get(String url) throws java.io.IOException {
    return transport.send(HttpTransport.Request.get(Objects.requireNonNull(url, "url")).build());
  }

  @Override
  public boolean supports(String uri) {
    String u = uri.toLowerCase(Locale.ROOT);
    return u.startsWith("http://") || u.startsWith("https://");
  }

  @Override
  public HttpByteSource open(String uri) {
    return new HttpByteSource(uri, transport);
  }

  /** HTTP has no listing: always empty. */
  @Override
  public List<SourceEntry> list(String uri) {
    return List.of();
  }

  /** HTTP URLs always name one object. */
  @Override
  public boolean isDirectory(String uri) {
    return false;
  }

  /** HTTP has no listing: always empty. */
  @Override
  public List<SourceEntry> listPrefix(String uriPrefix) {
    return List.of();
  }

  /** Made on first use, like the other defaults. */
  private static final class Defaults {
    static final HttpByteSourceProvider INSTANCE = of(HttpSettings.defaults());
  }
}

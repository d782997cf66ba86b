package io.sparkrca.core.io;

import java.net.URI;
import java.util.Map;

/**
 * The authentication hook of {@link HttpTransport}: the credential headers of each request, and
 * what to do when the server answers 401. Its headers go only to the origin of the URL asked for,
 * never to another host a redirect leads to, and never over plain {@code http://} to a host other
 * than the loopback unless the settings allow it. Set it with {@link HttpSettings.Builder#auth}.
 *
 * <pre>{@code
 * HttpAuth oauth = new HttpAuth() {
 *   public Map<String, String> headers(URI uri) {
 *     return Map.of("Authorization", "Bearer " + tokens.current());
 *   }
 *   public boolean onUnauthorized(URI uri) {
 *     tokens.refresh();   // revoked or expired early: one more try with a new token
 *     return true;
 *   }
 * };
 * HttpTransport http = HttpTransport.of(HttpSettings.builder().auth(oauth).build());
 * }</pre>
 *
 * <p>Implementations are called from the threads that send requests, so they must be thread-safe.
 * When no credentials can be had, throw an {@link io.sparkrca.core.error.AccessDeniedException}
 * saying how to get them.
 */
@FunctionalInterface
public interface HttpAuth {
  /** Sends no credentials. */
  HttpAuth NONE = uri -> Map.of();

  /**
   * The credential headers of one request to {@code uri}, computed for every attempt so that an
   * expiring token is renewed here. Each is checked as {@link HttpSettings#requireValidHeader}
   * does before anything is sent.
   */
  Map<String, String> headers(URI uri);

  /**
   * Called once per request when the server answers 401 to the headers this hook gave. Renew the
   * credentials and return true to send the request once more (right away, not counted as a
   * retry); return false (the default) to fail with the 401.
   */
  default boolean onUnauthorized(URI uri) {
    return false;
  }
}

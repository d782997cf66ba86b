package io.sparkrca.core.io;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import java.net.URI;
import java.net.http.HttpHeaders;

/**
 * The redirect guard of {@link HttpTransport}: where a redirect may lead (an http(s) URL with a
 * host, never from https down to http, at most the settings' number of hops), and whether it stays
 * at the origin the credentials belong to.
 */
final class Redirects {
  private Redirects() {}

  static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  /**
   * The URL a redirect from {@code current} leads to, checked.
   *
   * @param call the request for messages, such as {@code GET https://host/x}
   * @param hops redirects followed so far, this one included
   */
  static URI next(URI current, HttpHeaders headers, String call, int hops, int maxHops) {
    URI next = target(current, headers, call);
    if (hops > maxHops) {
      throw new SparkRcaException(
          call + ": more than " + maxHops + " redirects; the URL "
              + "loops or points at a login page. Check the URL");
    }
    if ("https".equalsIgnoreCase(current.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
      throw new SparkRcaException(
          call + ": the server redirects from https to plain http ("
              + Redactor.redactUri(next.toString()) + "); refused so that nothing is sent in the "
              + "clear. Use the https URL of the final location");
    }
    return next;
  }

  private static URI target(URI current, HttpHeaders headers, String call) {
    String location =
        headers
            .firstValue("Location")
            .orElseThrow(
                () ->
                    new SparkRcaException(
                        call + ": a redirect without a Location header; the server is "
                            + "misconfigured"));
    URI next;
    try {
      next = current.resolve(URI.create(location.trim()));
    } catch (IllegalArgumentException e) {
      throw new SparkRcaException(call + ": the server redirects to an invalid URL");
    }
    String scheme = String.valueOf(next.getScheme());
    if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https") || next.getHost() == null) {
      throw new SparkRcaException(call + ": the server redirects to " + Redactor.redactUri(next.toString())
          + ", which is not an http(s) URL with a host; refused. Check the URL, or give the final location directly");
    }
    return next;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && String.valueOf(a.getHost()).equalsIgnoreCase(String.valueOf(b.getHost()))
        && port(a) == port(b);
  }

  private static int port(URI u) {
    if (u.getPort() >= 0) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  /** Whether {@code host} is this machine (see {@link Loopback#isLoopbackHost(String)}). */
  static boolean isLoopback(String host) {
    return Loopback.isLoopbackHost(host);
  }
}

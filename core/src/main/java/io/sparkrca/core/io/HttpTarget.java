package io.sparkrca.core.io;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * An http(s) URL as a reader sends it: checked, its {@code user:password@} taken out of the URL and
 * sent as a Basic {@code Authorization} header instead, and its name for messages (credentials and
 * secret query parameters redacted).
 *
 * @param uri the URL without its user information
 * @param credentials the header the user information becomes, or none
 * @param name the URL for messages
 */
record HttpTarget(URI uri, Map<String, String> credentials, String name) {
  /** @throws InvalidRequestException when {@code url} is not a valid http(s) URL with a host */
  static HttpTarget parse(String url) {
    String name = Redactor.redactUri(url);
    URI parsed;
    try {
      parsed = URI.create(url.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("Not a valid URL: " + name + " (" + Redactor.redactUri(e.getMessage()) + "); "
          + "percent-encode spaces and special characters");
    }
    if (parsed.getHost() == null) {
      throw new InvalidRequestException("Not a valid http(s) URL (no host): " + name);
    }
    if (parsed.getRawUserInfo() == null) {
      return new HttpTarget(parsed, Map.of(), name);
    }
    String userInfo = URLDecoder.decode(parsed.getRawUserInfo(), StandardCharsets.UTF_8);
    Map<String, String> basic = Map.of("Authorization",
        "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
    URI without = URI.create(url.trim().replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@]*@", "$1"));
    return new HttpTarget(without, basic, name);
  }
}

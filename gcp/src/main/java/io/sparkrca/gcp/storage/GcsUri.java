package io.sparkrca.gcp.storage;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * A Cloud Storage location: {@code gs://bucket/object}, {@code https://storage.googleapis.com/bucket/object}
 * or {@code https://storage.cloud.google.com/bucket/object} (percent-encoding in the https forms is
 * decoded). The object may be empty (the bucket itself) or end with {@code /} (a prefix).
 *
 * <pre>{@code
 * GcsUri u = GcsUri.parse("https://storage.googleapis.com/my-bucket/logs/driver.log");
 * u.bucket();   // "my-bucket"
 * u.object();   // "logs/driver.log"
 * u.toString(); // "gs://my-bucket/logs/driver.log"
 * }</pre>
 *
 * @param bucket the bucket name
 * @param object the object name or prefix, possibly empty
 */
public record GcsUri(String bucket, String object) {
  private static final String[] HTTPS_HOSTS = {"https://storage.googleapis.com/", "https://storage.cloud.google.com/"};

  public GcsUri {
    if (bucket == null || bucket.isEmpty() || bucket.contains("/")) {
      throw new InvalidRequestException("not a Cloud Storage bucket name: '" + bucket + "'");
    }
    object = object == null ? "" : object;
  }

  /** Whether {@code uri} names a Cloud Storage location in one of the accepted forms. */
  public static boolean isGcs(String uri) {
    return prefixOf(uri).isPresent();
  }

  /**
   * The location {@code uri} names.
   *
   * @throws InvalidRequestException when it is not a Cloud Storage URI or has no bucket
   */
  public static GcsUri parse(String uri) {
    String p = prefixOf(uri).orElseThrow(() -> new InvalidRequestException(
        "not a Cloud Storage URI: " + Redactor.redactUri(uri) + " (write gs://bucket/object)"));
    String rest = uri.substring(p.length());
    int q = rest.indexOf('?');
    if (q >= 0) {
      rest = rest.substring(0, q);
    }
    boolean https = !p.equals("gs://");
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String object = slash < 0 ? "" : rest.substring(slash + 1);
    if (https) {
      bucket = URLDecoder.decode(bucket, StandardCharsets.UTF_8);
      object = URLDecoder.decode(object.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
    if (bucket.isEmpty()) {
      throw new InvalidRequestException("no bucket in " + Redactor.redactUri(uri) + " (write gs://bucket/object)");
    }
    return new GcsUri(bucket, object);
  }

  private static Optional<String> prefixOf(String uri) {
    if (uri == null) {
      return Optional.empty();
    }
    if (uri.startsWith("gs://")) {
      return Optional.of("gs://");
    }
    String lower = uri.toLowerCase(Locale.ROOT);
    for (String h : HTTPS_HOSTS) {
      if (lower.startsWith(h)) {
        return Optional.of(uri.substring(0, h.length()));
      }
    }
    return Optional.empty();
  }

  /** The location below this one, {@code name} appended after a {@code /}. */
  public GcsUri child(String name) {
    return new GcsUri(bucket, object.isEmpty() || object.endsWith("/") ? object + name : object + "/" + name);
  }

  /** The last path segment of the object ("" for a bucket). */
  public String name() {
    String o = object.endsWith("/") ? object.substring(0, object.length() - 1) : object;
    return o.substring(o.lastIndexOf('/') + 1);
  }

  @Override
  public String toString() {
    return "gs://" + bucket + "/" + object;
  }
}

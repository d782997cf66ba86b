package io.sparkrca.core.evidence;

import io.sparkrca.core.app.SparkApplication;
import java.util.Objects;

/**
 * An application model and where it came from.
 *
 * <pre>{@code
 * evidence.application().ifPresent(a -> System.out.println(a.app().info().id() + " from " + a.provider() + " " + a.uri()));
 * }</pre>
 *
 * @param app the application (any source)
 * @param uri how it was named (credentials removed)
 * @param provider the source that served it, e.g. {@code "event-log"}
 */
public record ApplicationEvidence(SparkApplication app, String uri, String provider) {
  public ApplicationEvidence {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(provider, "provider");
  }
}

package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * How commands reach http(s) inputs: extra headers, a bearer token from the environment (never
 * on the command line), extra CAs added to the system trust. Mixed into every command that reads a
 * URI.
 */
final class HttpOptions {
  @Option(
      names = "--header",
      paramLabel = "'NAME: VALUE'",
      description = "An HTTP header to send with every request (repeatable), e.g. 'Authorization: Bearer TOKEN'.")
  List<String> headers = new ArrayList<>();

  @Option(
      names = "--bearer-token-env",
      paramLabel = "VAR",
      description = "Send 'Authorization: Bearer <value of environment variable VAR>' (keeps the token off the command line).")
  String bearerTokenEnv;

  @Option(
      names = "--ca-file",
      paramLabel = "PEM",
      description = "Extra CA certificates to trust, added to the system trust (repeatable).")
  List<Path> caFiles = new ArrayList<>();

  /** The longest one exchange may take, its answer included, when the command bounds it. */
  private java.util.Optional<java.time.Duration> exchangeTimeout = java.util.Optional.empty();

  /**
   * Bounds every http(s) exchange of the command as a whole, from the request to the answer's last
   * byte: a body that never ends (or trickles forever) fails as a timeout instead of holding the
   * command; retries stay bounded, so the command ends.
   */
  HttpOptions exchangeTimeout(java.time.Duration timeout) {
    this.exchangeTimeout = java.util.Optional.of(timeout);
    return this;
  }

  /** The HTTP settings every remote source of the command reads with. */
  HttpSettings settings() {
    HttpSettings.Builder http = HttpSettings.builder();
    exchangeTimeout.ifPresent(http::exchangeTimeout);
    for (String h : headers) {
      int colon = h.indexOf(':');
      if (colon <= 0) {
        throw new InvalidRequestException(
            "--header must look like 'Name: value' (the value is not shown here)");
      }
      http.header(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
    }
    if (bearerTokenEnv != null) {
      http.bearerTokenFromEnv(bearerTokenEnv);
    }
    caFiles.forEach(http::caCertificates);
    return http.build();
  }

  /** Providers from the class path, then http(s) with the credentials and CAs given. */
  ByteSources sources() {
    return ByteSources.builder().loadServiceProviders().add(HttpByteSourceProvider.of(settings())).build();
  }

  /** {@link #sources()}, with the progress of their reads shown for {@code command} (see {@link ReadProgress}). */
  ByteSources sources(CommandSpec command) {
    return ReadProgress.track(sources(), command);
  }
}

package io.sparkrca.gcp.internal;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.io.HttpAuth;
import io.sparkrca.gcp.GcpSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The credentials of one endpoint, the one place they are decided: none for an emulator or fake on
 * loopback (unless given explicitly) or when turned off; the given credentials or file; else
 * Application Default Credentials, loaded on first use (never when nothing needs them).
 * Thread-safe; tokens are refreshed by google-auth-library when they expire, and on demand after a
 * 401 ({@link #httpAuth()}).
 */
public final class Credentials {
  private final GcpSettings settings;
  private final boolean none;
  private volatile GoogleCredentials loaded;

  private Credentials(GcpSettings settings, boolean none) {
    this.settings = settings;
    this.none = none;
  }

  /** The credentials to send to {@code endpoint} (a URL or host:port). */
  public static Credentials forEndpoint(GcpSettings settings, String endpoint) {
    boolean none = settings.noCredentials() || (!settings.explicitCredentials() && GcpSettings.isLoopback(endpoint));
    return new Credentials(settings, none);
  }

  /** Credentials for an in-process transport: only those given explicitly. */
  public static Credentials forInProcess(GcpSettings settings) {
    return new Credentials(settings, settings.noCredentials() || !settings.explicitCredentials());
  }

  /** Whether no credentials are sent. */
  public boolean none() {
    return none;
  }

  /** For the gax clients (Dataproc, Logging). */
  public CredentialsProvider provider() {
    return none ? NoCredentialsProvider.create() : FixedCredentialsProvider.create(google());
  }

  /** For the Cloud Storage client; empty means {@code NoCredentials}. */
  public Optional<com.google.auth.Credentials> storage() {
    return none ? Optional.empty() : Optional.of(google());
  }

  /**
   * For REST calls through core's transport: a bearer token on every request, refreshed when it
   * expires and forced anew after a 401; no header at all when no credentials are sent.
   */
  public HttpAuth httpAuth() {
    if (none) {
      return HttpAuth.NONE;
    }
    return new HttpAuth() {
      @Override
      public Map<String, String> headers(URI uri) {
        return Map.of("Authorization", "Bearer " + token(false));
      }

      @Override
      public boolean onUnauthorized(URI uri) {
        token(true); // a token revoked or expired early: one retry with a new one
        return true;
      }
    };
  }

  /** A bearer token; {@code refresh} forces a new one (after a 401). */
  private String token(boolean refresh) {
    GoogleCredentials c = google();
    try {
      if (refresh) {
        c.refresh();
      } else {
        c.refreshIfExpired();
      }
      AccessToken t = c.getAccessToken();
      if (t == null || t.getTokenValue() == null || t.getTokenValue().isEmpty()) {
        throw new AccessDeniedException("Google Cloud credentials", "no access token was issued",
            "check the credentials file or run 'gcloud auth application-default login'");
      }
      return t.getTokenValue();
    } catch (IOException e) {
      throw new AccessDeniedException("Google Cloud credentials", "the access token could not be "
          + (refresh ? "refreshed" : "obtained") + ": " + Messages.oneLine(e.getMessage()),
          "run 'gcloud auth application-default login', or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file",
          e);
    }
  }

  private GoogleCredentials google() {
    GoogleCredentials c = loaded;
    if (c == null) {
      synchronized (this) {
        if (loaded == null) {
          loaded = load();
        }
        c = loaded;
      }
    }
    return c;
  }

  private GoogleCredentials load() {
    if (settings.credentials().isPresent()) {
      return scoped(settings.credentials().get());
    }
    if (settings.credentialsFile().isPresent()) {
      try (InputStream in = Files.newInputStream(settings.credentialsFile().get())) {
        return scoped(GoogleCredentials.fromStream(in));
      } catch (IOException | RuntimeException e) {
        throw new AccessDeniedException("the credentials file " + settings.credentialsFile().get(),
            Messages.oneLine(e.getMessage()), "give a service-account key or an authorized-user JSON file", e);
      }
    }
    try {
      return scoped(GoogleCredentials.getApplicationDefault());
    } catch (IOException e) {
      throw new AccessDeniedException("Google Cloud", "no Application Default Credentials: " + Messages.oneLine(e.getMessage()),
          "run 'gcloud auth application-default login', or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file",
          e);
    }
  }

  private static GoogleCredentials scoped(GoogleCredentials c) {
    return c.createScopedRequired() ? c.createScoped(List.of(GcpSettings.CLOUD_PLATFORM_SCOPE)) : c;
  }
}

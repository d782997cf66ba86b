package io.sparkrca.core.io;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.redaction.Redactor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Resolves URIs and paths to {@link ByteSource}s through the registered {@link
 * ByteSourceProvider}s: those added explicitly, then those found on the class path with {@link
 * ServiceLoader} (in the order the builder was told), then http(s) URLs with default settings,
 * then local files.
 *
 * <pre>{@code
 * ByteSource log = ByteSources.defaults().open("gs://bucket/spark-events/app-1");
 * List<SourceEntry> apps = ByteSources.defaults().list("/tmp/spark-events");
 * }</pre>
 */
public final class ByteSources {

  private final List<ByteSourceProvider> providers;
  private final Optional<ReadListener> listener;

  private ByteSources(List<ByteSourceProvider> providers, Optional<ReadListener> listener) {
    this.providers = List.copyOf(providers);
    this.listener = listener;
  }

  /**
   * The providers found with {@link ServiceLoader}, then http(s) with default settings, then
   * local files.
   */
  public static ByteSources defaults() {
    return Defaults.INSTANCE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A source for {@code uri}; nothing is read yet.
   *
   * @throws io.sparkrca.core.error.SparkRcaException when no provider reads {@code uri}, or it is
   *     not a valid path or URI
   */
  public ByteSource open(String uri) {
    ByteSource source = call(uri, () -> providerFor(uri).open(uri));
    return listener.<ByteSource>map(l -> new CountingByteSource(source, l)).orElse(source);
  }

  /**
   * The same providers, with {@code listener} told of every stream opened and every byte read
   * from the sources this registry opens (for a progress display). Replaces any listener this
   * registry had.
   */
  public ByteSources observed(ReadListener listener) {
    return new ByteSources(providers, Optional.of(Objects.requireNonNull(listener, "listener")));
  }

  /**
   * The entries directly under a directory or prefix; empty when {@code uri} is one object.
   *
   * @throws io.sparkrca.core.error.InputNotFoundException when nothing exists at {@code uri}
   */
  public List<SourceEntry> list(String uri) {
    return call(uri, () -> providerFor(uri).list(uri));
  }

  /**
   * The objects whose URI starts with {@code uriPrefix}, sorted by name (see {@link
   * ByteSourceProvider#listPrefix(String)}).
   */
  public List<SourceEntry> listPrefix(String uriPrefix) {
    return call(uriPrefix, () -> providerFor(uriPrefix).listPrefix(uriPrefix));
  }

  /** Whether {@code uri} names a directory or prefix. */
  public boolean isDirectory(String uri) {
    return call(uri, () -> providerFor(uri).isDirectory(uri));
  }

  /**
   * Runs a provider call: its {@link java.io.IOException} becomes the {@link IoErrors} translation, and an
   * {@link IllegalArgumentException} (a provider's way of refusing a malformed URI) an {@link
   * InvalidRequestException}, both naming the redacted URI.
   */
  private static <T> T call(String uri, IoErrors.IoCall<T> call) {
    Objects.requireNonNull(uri, "uri");
    try {
      return IoErrors.call(Redactor.redactUri(uri), call);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(
          "Not a valid path or URI: " + Redactor.redactUri(uri) + " ("
              + Redactor.redactUri(String.valueOf(e.getMessage())) + "); check how it is written",
          e);
    }
  }

  /**
   * These sources with {@code first} tried before them: for bytes already in hand (a provider's
   * log tail) read by URI like any other.
   *
   * <pre>{@code
   * ByteSources all = ByteSources.defaults().with(myHeldLogs);
   * }</pre>
   */
  public ByteSources with(ByteSourceProvider first) {
    List<ByteSourceProvider> all = new ArrayList<>();
    all.add(Objects.requireNonNull(first, "first"));
    all.addAll(providers);
    return new ByteSources(all, listener);
  }

  /** The provider that reads {@code uri}. */
  public ByteSourceProvider providerFor(String uri) {
    for (ByteSourceProvider p : providers) {
      if (p.supports(uri)) {
        return p;
      }
    }
    int colon = uri.indexOf(':');
    String scheme = colon > 0 ? uri.substring(0, colon) : uri;
    throw new UnsupportedInputException(
        "No reader for '" + scheme + ":' URIs (" + Redactor.redactUri(uri) + "): add the module that "
            + "provides it (for example sparkrca-gcp for gs://) to the class path");
  }

  /** Builds a registry; providers added first win. */
  public static final class Builder {
    private final List<ByteSourceProvider> providers = new ArrayList<>();

    private Builder() {}

    /** Adds a provider ahead of the built-in http(s) and local-file fallbacks. */
    public Builder add(ByteSourceProvider provider) {
      providers.add(provider);
      return this;
    }

    /** Adds every provider listed in {@code META-INF/services}. */
    public Builder loadServiceProviders() {
      ServiceLoader.load(ByteSourceProvider.class, ByteSources.class.getClassLoader())
          .forEach(providers::add);
      return this;
    }

    public ByteSources build() {
      List<ByteSourceProvider> all = new ArrayList<>(providers);
      // Last, so that a cloud module can claim its own https hosts (storage.googleapis.com).
      all.add(HttpByteSourceProvider.defaults());
      all.add(new LocalFileProvider());
      return new ByteSources(all, Optional.empty());
    }
  }

  /** Made on first use: loading the class path's providers costs a short command's start, and a caller with its own byte sources never needs them. */
  private static final class Defaults {
    static final ByteSources INSTANCE = builder().loadServiceProviders().build();
  }
}

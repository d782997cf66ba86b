package io.sparkrca.gcp.storage;

import com.google.api.gax.paging.Page;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSourceProvider;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.Credentials;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads {@code gs://bucket/object} and {@code https://storage.googleapis.com/bucket/object} with
 * the google-cloud-storage client: objects with ranged reads (size and first bytes in one request,
 * every range checked), directory-style listing of prefixes ({@code gs://bucket/spark-events/}, a
 * rolling {@code eventlog_v2_} folder) and native prefix listing (the numbered {@code driveroutput}
 * parts of a Dataproc driver output). Found by {@link java.util.ServiceLoader}, so every command and
 * API that reads a URI accepts {@code gs://} once this module is on the class path. The endpoint
 * and credentials come from {@link GcpSettings}: {@code STORAGE_EMULATOR_HOST} points it at an
 * emulator or fake (which the Java client does not do by itself), with no credentials on loopback.
 *
 * <pre>{@code
 * ByteSources bytes = ByteSources.builder().add(GcsByteSourceProvider.of(GcpSettings.defaults())).build();
 * LogLines last = LogStream.builder().sources(bytes).build("gs://bucket/logs/driver.log").tail(100);
 * }</pre>
 *
 * <p>Thread-safe; the client is created on first use.
 */
public final class GcsByteSourceProvider implements ByteSourceProvider {
  /** The most entries one listing returns. */
  public static final int MAX_LIST = 10_000;

  /** Empty for {@link GcpSettings#defaults()}, read when the client is first made. */
  private final Optional<GcpSettings> settings;
  private volatile Storage storage;

  /**
   * With {@link GcpSettings#defaults()} (for {@link java.util.ServiceLoader}), read on first use:
   * every command that opens a URI loads this provider, and most read local files only.
   */
  public GcsByteSourceProvider() {
    this.settings = Optional.empty();
  }

  private GcsByteSourceProvider(GcpSettings settings) {
    this.settings = Optional.of(settings);
  }

  public static GcsByteSourceProvider of(GcpSettings settings) {
    return new GcsByteSourceProvider(java.util.Objects.requireNonNull(settings, "settings"));
  }

  @Override
  public boolean supports(String uri) {
    return GcsUri.isGcs(uri);
  }

  @Override
  public ByteSource open(String uri) {
    return new GcsByteSource(GcsUri.parse(uri), storage());
  }

  @Override
  public List<SourceEntry> list(String uri) throws IOException {
    GcsUri u = GcsUri.parse(uri);
    String prefix = u.object().isEmpty() || u.object().endsWith("/") ? u.object() : u.object() + "/";
    List<SourceEntry> out = listed(u, prefix, true, MAX_LIST);
    if (out.isEmpty() && !u.object().isEmpty() && !u.object().endsWith("/")) {
      // One object, or nothing at all.
      try {
        if (storage().get(com.google.cloud.storage.BlobId.of(u.bucket(), u.object()),
            Storage.BlobGetOption.fields(Storage.BlobField.NAME)) != null) {
          return List.of();
        }
      } catch (StorageException e) {
        throw new GcsByteSource(u, storage()).translate(e);
      }
      throw new InputNotFoundException(uri, "no object or prefix of that name; check the bucket and path");
    }
    return out;
  }

  @Override
  public boolean isDirectory(String uri) throws IOException {
    GcsUri u = GcsUri.parse(uri);
    if (u.object().isEmpty() || u.object().endsWith("/")) {
      return true;
    }
    return !listed(u, u.object() + "/", true, 1).isEmpty();
  }

  @Override
  public List<SourceEntry> listPrefix(String uriPrefix) throws IOException {
    GcsUri u = GcsUri.parse(uriPrefix);
    List<SourceEntry> out = new ArrayList<>();
    for (SourceEntry e : listed(u, u.object(), false, MAX_LIST)) {
      if (!e.directory()) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  private List<SourceEntry> listed(GcsUri u, String prefix, boolean directoryStyle, int max) {
    List<SourceEntry> out = new ArrayList<>();
    try {
      List<Storage.BlobListOption> opts = new ArrayList<>();
      opts.add(Storage.BlobListOption.prefix(prefix));
      opts.add(Storage.BlobListOption.pageSize(Math.min(max, 1000)));
      if (directoryStyle) {
        opts.add(Storage.BlobListOption.currentDirectory());
      }
      Page<Blob> page = storage().list(u.bucket(), opts.toArray(Storage.BlobListOption[]::new));
      for (Blob b : page.iterateAll()) {
        if (out.size() >= max) {
          break;
        }
        String n = b.getName();
        if (n.equals(prefix)) {
          continue; // the "folder" placeholder object itself
        }
        GcsUri child = new GcsUri(u.bucket(), n);
        boolean dir = b.isDirectory();
        out.add(new SourceEntry(child.toString(), child.name(), dir,
            dir || b.getSize() == null ? OptionalLong.empty() : OptionalLong.of(b.getSize())));
      }
    } catch (StorageException e) {
      throw new GcsByteSource(new GcsUri(u.bucket(), prefix.isEmpty() ? "x" : prefix + "x"), storage()).translate(e);
    }
    out.sort(Comparator.comparing(SourceEntry::name));
    return out;
  }

  /** The client, created once. */
  Storage storage() {
    Storage s = storage;
    if (s == null) {
      synchronized (this) {
        if (storage == null) {
          storage = create(settings.orElseGet(GcpSettings::defaults));
        }
        s = storage;
      }
    }
    return s;
  }

  private static Storage create(GcpSettings settings) {
    String host = settings.storageEndpoint();
    Credentials creds = Credentials.forEndpoint(settings, host);
    int timeoutMs = (int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis());
    HttpTransportOptions.Builder transport =
        HttpTransportOptions.newBuilder().setConnectTimeout(timeoutMs).setReadTimeout(timeoutMs);
    StorageOptions.Builder b = StorageOptions.http()
        .setTransportOptions(new RangeChecks(transport))
        .setHost(host)
        // Reading needs no project; naming one keeps the client from looking for a default (the metadata server).
        .setProjectId(settings.project().orElse("sparkrca-reader"))
        .setRetrySettings(StorageOptions.getDefaultRetrySettings().toBuilder()
            .setMaxAttempts(settings.maxAttempts())
            .setInitialRetryDelayDuration(settings.retryDelay())
            .build());
    b.setCredentials(creds.storage().orElse(NoCredentials.getInstance()));
    return b.build().getService();
  }
}

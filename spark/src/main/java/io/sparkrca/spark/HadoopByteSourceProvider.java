package io.sparkrca.spark;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSourceProvider;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.redaction.Redactor;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads event logs through Hadoop's {@link FileSystem}: every scheme the cluster's Hadoop
 * configuration knows ({@code gs://} with the Cloud Storage connector, {@code s3a://},
 * {@code hdfs://}, {@code abfs://}, {@code file:}), with the credentials and settings the cluster
 * already has. Ranged reads are positioned reads, so a reader fetches only what it needs.
 *
 * <p>It claims URIs that carry a scheme Hadoop can load a file system for, except http(s) (core
 * reads those itself); plain paths stay with core's local-file reader, so that rows name the same
 * paths as {@code sparkrca scan} does.
 *
 * <pre>{@code
 * ByteSources sources = ByteSources.builder()
 *     .add(new HadoopByteSourceProvider(spark.sparkContext().hadoopConfiguration()))
 *     .build();
 * FleetLogs.Listing logs = FleetLogs.discover(sources, "s3a://bucket/spark-events/");
 * }</pre>
 */
public final class HadoopByteSourceProvider implements ByteSourceProvider {
  private static final Set<String> NOT_HADOOP = Set.of("http", "https", "jar", "classpath");

  private final Configuration conf;
  private final ConcurrentHashMap<String, Boolean> known = new ConcurrentHashMap<>();

  /** A provider over the file systems {@code conf} configures (it is copied). */
  public HadoopByteSourceProvider(Configuration conf) {
    this.conf = new Configuration(Objects.requireNonNull(conf, "conf"));
  }

  @Override
  public boolean supports(String uri) {
    String scheme = scheme(uri);
    if (scheme == null || NOT_HADOOP.contains(scheme)) {
      return false;
    }
    return known.computeIfAbsent(scheme, s -> {
      try {
        FileSystem.getFileSystemClass(s, conf);
        return true;
      } catch (IOException | RuntimeException e) {
        return false; // no file system for it: another provider may read it, or none names it
      }
    });
  }

  /** The lower-case scheme of {@code uri}, or null for a plain path (or a Windows drive letter). */
  static String scheme(String uri) {
    int colon = uri.indexOf(':');
    if (colon < 2) {
      return null;
    }
    for (int i = 0; i < colon; i++) {
      char c = uri.charAt(i);
      boolean ok = Character.isLetter(c) || (i > 0 && (Character.isDigit(c) || c == '+' || c == '-' || c == '.'));
      if (!ok) {
        return null;
      }
    }
    return uri.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  @Override
  public ByteSource open(String uri) throws IOException {
    Path p = path(uri);
    return new HadoopByteSource(fileSystem(p), p, uri);
  }

  @Override
  public List<SourceEntry> list(String uri) throws IOException {
    Path p = path(uri);
    FileSystem fs = fileSystem(p);
    FileStatus self;
    try {
      self = fs.getFileStatus(p);
    } catch (FileNotFoundException e) {
      throw new InputNotFoundException(Redactor.redactUri(uri), "check the path and that this cluster's "
          + "service account may list it", e);
    }
    if (!self.isDirectory()) {
      return List.of();
    }
    FileStatus[] children = fs.listStatus(p);
    Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
    String base = uri.endsWith("/") ? uri : uri + "/";
    List<SourceEntry> out = new ArrayList<>(children.length);
    for (FileStatus s : children) {
      String name = s.getPath().getName();
      // Children keep the URI as the caller wrote it (bucket, authority), so rows name it the same way.
      out.add(new SourceEntry(base + name, name, s.isDirectory(),
          s.isDirectory() ? OptionalLong.empty() : OptionalLong.of(s.getLen())));
    }
    return out;
  }

  @Override
  public boolean isDirectory(String uri) throws IOException {
    Path p = path(uri);
    try {
      return fileSystem(p).getFileStatus(p).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  /**
   * The file system of {@code p}; for a checksummed one (Hadoop's local file system) its raw file
   * system, which lists every file as it is on disk (the checksummed one hides {@code .crc} files,
   * and the sizes would differ from what {@code sparkrca scan} reads for the same log).
   */
  private FileSystem fileSystem(Path p) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    return fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
  }

  private static Path path(String uri) {
    return new Path(URI.create(uri));
  }

  /** One file, read with positioned reads. */
  private static final class HadoopByteSource implements ByteSource {
    private final FileSystem fs;
    private final Path path;
    private final String name;
    private volatile FileStatus status;

    HadoopByteSource(FileSystem fs, Path path, String uri) {
      this.fs = fs;
      this.path = path;
      this.name = Redactor.redactUri(uri);
    }

    private FileStatus status() throws IOException {
      FileStatus s = status;
      if (s == null) {
        s = fs.getFileStatus(path);
        if (s.isDirectory()) {
          throw new FileNotFoundException(name + " (Is a directory)");
        }
        status = s;
      }
      return s;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public OptionalLong size() throws IOException {
      return OptionalLong.of(status().getLen());
    }

    @Override
    public Optional<Instant> lastModified() throws IOException {
      long t = status().getModificationTime();
      return t > 0 ? Optional.of(Instant.ofEpochMilli(t)) : Optional.empty();
    }

    @Override
    public InputStream openStream(long offset) throws IOException {
      FSDataInputStream in = fs.open(path);
      if (offset > 0) {
        try {
          in.seek(offset);
        } catch (IOException | RuntimeException e) {
          in.close();
          throw e;
        }
      }
      return in;
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      long size = status().getLen();
      if (offset >= size || length <= 0) {
        return new byte[0];
      }
      int n = (int) Math.min(length, size - offset);
      byte[] buf = new byte[n];
      try (FSDataInputStream in = fs.open(path)) {
        in.readFully(offset, buf, 0, n);
      }
      return buf;
    }
  }
}

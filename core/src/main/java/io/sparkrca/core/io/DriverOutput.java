package io.sparkrca.core.io;

import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.redaction.Redactor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dataproc driver output: {@code driverOutputResourceUri} is a <em>prefix</em>, and the driver log
 * is sharded into {@code driveroutput.000000000}, {@code driveroutput.000000001}, ... (trailing
 * shards are often empty). This class resolves such a prefix, through the provider's {@link
 * ByteSourceProvider#listPrefix(String) prefix listing}, to exactly its numbered parts in numeric
 * order ({@code driveroutput_old} or {@code driveroutput.000000001.bak} are not parts), and reads
 * them as one log. The core only defines the hook; the gcp module lists {@code gs://} prefixes.
 *
 * <pre>{@code
 * String uri = "gs://bucket/google-cloud-dataproc-metainfo/.../jobs/job-1/driveroutput";
 * if (DriverOutput.isPrefix(uri)) {
 *   List<SourceEntry> parts = DriverOutput.parts(ByteSources.defaults(), uri);
 *   ByteSource whole = DriverOutput.open(ByteSources.defaults(), uri).orElseThrow();
 * }
 * }</pre>
 */
public final class DriverOutput {
  /** The last path segment of a driver output prefix. */
  public static final String STEM = "driveroutput";

  private static final Pattern PART = Pattern.compile(Pattern.quote(STEM) + "\\.(\\d{1,18})");

  private DriverOutput() {}

  /** Whether {@code uri}, without trailing slashes, ends with the segment {@code driveroutput}. */
  public static boolean isPrefix(String uri) {
    String base = stripSlashes(uri);
    if (!base.endsWith(STEM)) {
      return false;
    }
    int before = base.length() - STEM.length() - 1;
    return before < 0 || base.charAt(before) == '/' || base.charAt(before) == '\\';
  }

  /**
   * The numbered parts of a driver output prefix, in part order; empty when {@code uri} is not a
   * prefix or has no parts (then it is read as an ordinary object or file).
   */
  public static List<SourceEntry> parts(ByteSources sources, String uri) {
    if (!isPrefix(uri)) {
      return List.of();
    }
    String base = stripSlashes(uri);
    List<SourceEntry> parts = new ArrayList<>();
    for (SourceEntry e : sources.listPrefix(base + ".")) {
      if (!e.directory() && PART.matcher(e.name()).matches()) {
        parts.add(e);
      }
    }
    parts.sort(Comparator.comparingLong(DriverOutput::partNumber));
    return List.copyOf(parts);
  }

  /**
   * The parts of a driver output prefix read as one source (named after the prefix), or empty
   * when there are no parts.
   */
  public static Optional<ByteSource> open(ByteSources sources, String uri) {
    List<SourceEntry> parts = parts(sources, uri);
    if (parts.isEmpty()) {
      return Optional.empty();
    }
    List<ByteSource> opened = new ArrayList<>();
    long[] sizes = new long[parts.size()];
    for (int i = 0; i < parts.size(); i++) {
      SourceEntry e = parts.get(i);
      ByteSource part = sources.open(e.uri());
      opened.add(part);
      sizes[i] =
          e.size().isPresent()
              ? e.size().getAsLong()
              : IoErrors.call(part.name(), part::size).orElse(0);
    }
    return Optional.of(new ConcatenatedByteSource(Redactor.redactUri(stripSlashes(uri)), opened, sizes));
  }

  static long partNumber(SourceEntry e) {
    Matcher m = PART.matcher(e.name());
    return m.matches() ? Long.parseLong(m.group(1)) : Long.MAX_VALUE;
  }

  private static String stripSlashes(String uri) {
    String s = uri;
    while (s.length() > 1 && (s.endsWith("/") || s.endsWith("\\"))) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}

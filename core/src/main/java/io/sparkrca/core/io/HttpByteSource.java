package io.sparkrca.core.io;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An object behind an {@code http(s)} URL, read with ranged GET requests. {@link #read(long, int)}
 * costs exactly one request; {@link #size()} costs one small ranged request (the answer's {@code
 * Content-Range} carries the total size, and the first bytes are kept for codec detection), so a
 * tail of a remote log is two requests. Get instances from {@link HttpByteSourceProvider} (or
 * {@link #of(String)} for defaults).
 *
 * <pre>{@code
 * HttpByteSource log = HttpByteSource.of("https://logs.example.com/driver.log");
 * long size = log.size().orElseThrow();
 * byte[] last64k = log.read(size - 65536, 65536);   // one request
 * }</pre>
 */
public final class HttpByteSource implements ByteSource {
  private static final Logger LOG = LoggerFactory.getLogger(HttpByteSource.class);
  /** Bytes fetched by the size probe and kept for magic-byte detection. */
  static final int PROBE_BYTES = 64;

  private static final Pattern CONTENT_RANGE =
      Pattern.compile("\\s*bytes\\s+(?:(\\d+)-(\\d+)|\\*)/(\\d+|\\*)\\s*", Pattern.CASE_INSENSITIVE);

  private final HttpTransport.Request request;
  private final String name;
  private final HttpTransport transport;
  private volatile long knownSize = -1;
  private volatile boolean sizeProbed;
  private volatile byte[] head;
  private volatile String validator; // ETag or Last-Modified of the first answer
  private volatile java.time.Instant lastModified;

  HttpByteSource(String url, HttpTransport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
    this.request = HttpTransport.Request.get(url).build();
    this.name = request.name();
  }

  /** A source with the default settings of {@link HttpByteSourceProvider#defaults()}. */
  public static HttpByteSource of(String url) {
    return HttpByteSourceProvider.defaults().open(url);
  }

  /** The URL without credentials or secret query parameters. */
  @Override
  public String name() {
    return name;
  }

  /**
   * The object's size, learned from the {@code Content-Range} of a 64-byte ranged request (one
   * request, made once; later ranged reads refresh it). Empty when the server does not say.
   */
  @Override
  public OptionalLong size() throws IOException {
    if (knownSize < 0 && !sizeProbed) {
      probe();
    }
    return knownSize >= 0 ? OptionalLong.of(knownSize) : OptionalLong.empty();
  }

  private void probe() throws IOException {
    byte[] bytes;
    try (RangeStream in = open(0, PROBE_BYTES - 1)) {
      bytes = in.readNBytes(PROBE_BYTES);
    }
    head = bytes;
    sizeProbed = true;
    if (knownSize < 0 && bytes.length < PROBE_BYTES) {
      knownSize = bytes.length; // the whole object fit
    }
  }

  /** The {@code Last-Modified} date of the object, from the size probe or any later read. */
  @Override
  public Optional<java.time.Instant> lastModified() throws IOException {
    if (lastModified == null && !sizeProbed) {
      probe();
    }
    return Optional.ofNullable(lastModified);
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    if (offset < 0) {
      throw new InvalidRequestException("stream of " + name + ": the offset must be 0 or more, was " + offset);
    }
    return open(offset, -1);
  }

  /** Reads {@code [offset, offset + length)} with one ranged request. */
  @Override
  public byte[] read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new InvalidRequestException(
          "read of " + name + ": offset and length must be 0 or more, were " + offset + " and " + length);
    }
    if (length == 0 || (knownSize >= 0 && offset >= knownSize)) {
      return new byte[0];
    }
    byte[] h = head;
    if (h != null && offset + length <= h.length) {
      return Arrays.copyOfRange(h, (int) offset, (int) offset + length);
    }
    try (RangeStream in = open(offset, offset + length - 1)) {
      return in.readNBytes(length);
    }
  }

  /** Opens {@code [start, endInclusive]}, or to the end when {@code endInclusive} is -1. */
  private RangeStream open(long start, long endInclusive) throws IOException {
    RangeStream s = new RangeStream(start, endInclusive);
    s.connect(false);
    return s;
  }

  /** The request for {@code [start, endInclusive]}: a plain GET for the whole object. */
  private HttpTransport.Request ranged(long start, long endInclusive) {
    if (start == 0 && endInclusive < 0) {
      return request;
    }
    return request.with("Range", "bytes=" + start + "-" + (endInclusive >= 0 ? Long.toString(endInclusive) : ""));
  }

  /** The parsed {@code Content-Range}: first and last byte (-1 when "*") and total (-1 when "*"). */
  record ContentRange(long first, long last, long total) {
    static Optional<ContentRange> parse(String value) {
      Matcher m = CONTENT_RANGE.matcher(value);
      if (!m.matches()) {
        return Optional.empty();
      }
      long first = m.group(1) == null ? -1 : Long.parseLong(m.group(1));
      long last = m.group(2) == null ? -1 : Long.parseLong(m.group(2));
      long total = "*".equals(m.group(3)) ? -1 : Long.parseLong(m.group(3));
      return Optional.of(new ContentRange(first, last, total));
    }
  }

  private UnsupportedInputException rangeIgnored(long start, HttpAnswer r) {
    String size = r.header("Content-Length").map(l -> " (" + l + " bytes)").orElse("");
    return new UnsupportedInputException(
        name + ": the server ignored the Range request for bytes from " + start + " and answered "
            + "200 with the whole object" + size + " instead of 206 Partial Content; stopped "
            + "rather than download it all. Use a server or URL that supports ranged reads (object "
            + "stores do), or download the file and read it locally");
  }

  /**
   * The body of one byte range, resumed from where it stopped if the connection breaks: each
   * resume is a new ranged request, checked to start at the right byte and to come from the same
   * version of the object.
   */
  private final class RangeStream extends InputStream {
    private final long start;
    private final long endInclusive; // -1: to the end of the object
    private long position;
    private long expectedEnd = -1; // exclusive; -1 when the server did not say
    private long limit = -1; // exclusive; set when a 200 answer must be cut short
    private HttpAnswer answer;
    private int resumes;
    private boolean done;

    RangeStream(long start, long endInclusive) {
      this.start = start;
      this.endInclusive = endInclusive;
      this.position = start;
    }

    void connect(boolean resuming) throws IOException {
      HttpAnswer r = transport.send(ranged(position, endInclusive));
      try {
        accept(r, resuming);
      } catch (IOException | RuntimeException e) {
        r.close();
        throw e;
      }
    }

    private void accept(HttpAnswer r, boolean resuming) throws IOException {
      r.header("Last-Modified").ifPresent(v -> {
        try {
          lastModified = java.time.ZonedDateTime.parse(v, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (java.time.format.DateTimeParseException ignored) {
          // not a date: leave it unknown
        }
      });
      String version = r.header("ETag").or(() -> r.header("Last-Modified")).orElse(null);
      if (version != null) {
        String first = validator;
        if (first == null) {
          validator = version;
        } else if (!first.equals(version)) {
          if (resuming) {
            throw new CorruptInputException(
                name + " changed while it was being read (its version went from " + first + " to "
                    + version + "), so the rest cannot be resumed; read it again");
          }
          validator = version; // a new read of a newer version: fine on its own
        }
      }
      int status = r.status();
      if (status == 416) {
        // Nothing at or after this offset; the answer says how big the object is.
        r.header("Content-Range").flatMap(ContentRange::parse)
            .filter(cr -> cr.total() >= 0)
            .ifPresent(cr -> knownSize = cr.total());
        r.close();
        done = true;
        return;
      }
      if (status == 206) {
        ContentRange cr =
            r.header("Content-Range")
                .flatMap(ContentRange::parse)
                .orElseThrow(
                    () ->
                        new CorruptInputException(
                            name + ": the server answered 206 Partial Content without a valid "
                                + "Content-Range header (" + r.header("Content-Range").orElse("none")
                                + "); cannot tell which bytes it sent. Use another server"));
        if (cr.first() != position || (endInclusive >= 0 && cr.last() > endInclusive) || cr.last() < cr.first()) {
          throw new CorruptInputException(
              name + ": asked for bytes " + position + "-" + (endInclusive >= 0 ? endInclusive : "")
                  + " but the server sent " + cr.first() + "-" + cr.last() + "; refusing to use "
                  + "data from the wrong place");
        }
        if (cr.total() >= 0) {
          knownSize = cr.total();
        }
        expectedEnd = cr.last() + 1;
        answer = r;
        return;
      }
      if (status == 200) {
        if (position != 0) {
          throw rangeIgnored(position, r);
        }
        OptionalLong length = r.contentLength();
        if (length.isPresent()) {
          knownSize = length.getAsLong();
          expectedEnd = length.getAsLong();
        }
        if (endInclusive >= 0) {
          // A 200 to a range that starts at 0 carries the right bytes: keep what was asked for,
          // then abort the transfer.
          limit = endInclusive + 1;
          if (length.isEmpty() || length.getAsLong() > limit) {
            LOG.debug("{} ignores Range; reading the first {} bytes of a 200 answer", name, limit);
          }
        }
        answer = r;
        return;
      }
      throw new UnsupportedInputException(
          "GET " + name + ": unexpected HTTP " + status + " to a read; the server is not serving "
              + "the object as a plain file");
    }

    @Override
    public int read() throws IOException {
      return SingleByteRead.from(this);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      while (true) {
        if (done) {
          return -1;
        }
        if (limit >= 0) {
          if (position >= limit) {
            finish();
            return -1;
          }
          len = (int) Math.min(len, limit - position);
        }
        int n;
        try {
          n = answer.body().read(b, off, len);
        } catch (IOException e) {
          resume(e);
          continue;
        }
        if (n < 0) {
          if (expectedEnd >= 0 && position < expectedEnd) {
            resume(new IOException("the connection closed after " + position + " of " + expectedEnd + " bytes"));
            continue;
          }
          finish();
          return -1;
        }
        position += n;
        return n;
      }
    }

    private void resume(IOException cause) throws IOException {
      answer.close();
      if (resumes >= transport.settings().maxRetries() || cause instanceof java.io.InterruptedIOException
          && !(cause instanceof java.net.http.HttpTimeoutException)) {
        throw HttpErrors.failure(request.call(), cause, resumes + 1);
      }
      resumes++;
      LOG.warn(
          "Reading {} broke off at byte {} ({}); resuming from there (retry {} of {})",
          name, position, Redactor.redactUri(String.valueOf(cause.getMessage())), resumes,
          transport.settings().maxRetries());
      transport.retries().pause(transport.retries().backoff(resumes - 1), name);
      connect(true);
    }

    private void finish() {
      done = true;
      if (answer != null) {
        answer.close();
      }
    }

    @Override
    public void close() {
      finish();
    }
  }
}

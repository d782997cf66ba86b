package io.sparkrca.core.examples;

import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.BinaryFormat;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSourceProvider;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.Compression;
import io.sparkrca.core.io.CountingByteSource;
import io.sparkrca.core.io.DecodedStream.Detection;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.DriverOutput;
import io.sparkrca.core.io.HttpAnswer;
import io.sparkrca.core.io.HttpAuth;
import io.sparkrca.core.io.HttpByteSource;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.io.HttpTransport.Request;
import io.sparkrca.core.io.HttpTransport;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.io.Loopback;
import io.sparkrca.core.io.ReadAheadInputStream;
import io.sparkrca.core.io.ReadListener;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.io.SourceFiles;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/** The Javadoc examples of {@code io.sparkrca.core.io}, compiled (see {@link JavadocExamplesTest}). */
class IoExamples {
  // Stand-ins for the caller's own code that the examples call.

  private static void warn(String message) {}

  private static void parse(byte[] buffer, int start, int length) {}

  private static int indexOf(byte[] b, int from, int to, String literal) {
    return from;
  }

  private static boolean matches(LineReader lines) {
    return true;
  }

  private static void search(String uri) {}

  /** The caller's OAuth tokens in the example of {@code HttpAuth}. */
  interface Tokens {
    String current();

    void refresh();
  }

  /** Where the example of {@code LineReader.SkippedLine} keeps lines. */
  interface Ring {
    void add(byte[] b, int start, int length);
  }

  /** The example of {@code BinaryFormat}. */
  void binaryFormat(ByteSource source) throws Exception {
    Optional<BinaryFormat> f = BinaryFormat.detect("app.jar", source.read(0, BinaryFormat.MAGIC_LENGTH));
    f.ifPresent(x -> System.out.println("app.jar is " + x.description())); // "a JAR (ZIP archive)"
  }

  /** The example of {@code ByteSource}. */
  void byteSource() throws Exception {
    ByteSource log = ByteSource.of(Path.of("/tmp/spark-events/app-1.zstd"));
    byte[] head = log.read(0, 4);                  // magic bytes
    try (InputStream in = log.openStream()) { in.transferTo(OutputStream.nullOutputStream()); } // the whole object
  }

  /** The provider's store in the example of {@code ByteSourceProvider}. */
  private final Map<String, byte[]> store = Map.of();

  /** The example of {@code ByteSourceProvider}. */
  public final class MemoryProvider implements ByteSourceProvider {
    public boolean supports(String uri) { return uri.startsWith("mem:"); }
    public ByteSource open(String uri) { return ByteSource.of(uri, store.get(uri)); }
    public List<SourceEntry> list(String uri) { return List.of(); }
    public boolean isDirectory(String uri) { return false; }
  }

  /** The example of {@code ByteSources}. */
  void byteSources() throws Exception {
    ByteSource log = ByteSources.defaults().open("gs://bucket/spark-events/app-1");
    List<SourceEntry> apps = ByteSources.defaults().list("/tmp/spark-events");
  }

  /** The example of {@code Compression}. */
  void compression(ByteSource source) throws Exception {
    Compression c = Compression.fromMagic(source.read(0, 16)).orElse(Compression.NONE);
    try (InputStream in = c.decompress(source.openStream())) { in.transferTo(OutputStream.nullOutputStream()); }
  }

  /** The example of {@code CountingByteSource}. */
  void countingByteSource(ByteSource source, Logger log) throws Exception {
    CountingByteSource counted = new CountingByteSource(source);
    DecodedStream.detect(counted); // reads the magic bytes only
    log.info("read {} bytes in {} requests", counted.bytesRead(), counted.requests());
  }

  /** The example of {@code DecodedStream}. */
  void decodedStream(Path path) throws Exception {
    try (DecodedStream in = DecodedStream.open(ByteSource.of(path), true)) {
      // ... read lines ...
      if (in.truncated()) warn("the log ends mid-stream");
    }
  }

  /** The example of {@code DecodedStream}. */
  void decodedStreamDetect(ByteSource source) throws Exception {
    DecodedStream.Detection d = DecodedStream.detect(source);
    if (!d.compression().isCompressed()) { /* ... ranged reads are byte offsets into the text ... */ }
  }

  /** The example of {@code DecodedStream}. */
  void decodedStreamDetection() throws Exception {
    Detection d = DecodedStream.detect(ByteSource.of(Path.of("application_1700000000000_0001")));
    d.compression();  // GZIP, found from the magic bytes although the name has no extension
  }

  /** The example of {@code DriverOutput}. */
  void driverOutput() throws Exception {
    String uri = "gs://bucket/google-cloud-dataproc-metainfo/.../jobs/job-1/driveroutput";
    if (DriverOutput.isPrefix(uri)) {
      List<SourceEntry> parts = DriverOutput.parts(ByteSources.defaults(), uri);
      ByteSource whole = DriverOutput.open(ByteSources.defaults(), uri).orElseThrow();
    }
  }

  /** The example of {@code HttpAnswer}. */
  void httpAnswer(HttpSettings settings) throws Exception {
    try (HttpAnswer a = HttpByteSourceProvider.of(settings).get("https://shs:18080/api/v1/applications")) {
      byte[] json = a.readAll(1 << 20).orElseThrow(() -> new UnsupportedInputException("over 1 MiB"));
    }
  }

  /** The example of {@code HttpAuth}. */
  void httpAuth(Tokens tokens) throws Exception {
    HttpAuth oauth = new HttpAuth() {
      public Map<String, String> headers(URI uri) {
        return Map.of("Authorization", "Bearer " + tokens.current());
      }
      public boolean onUnauthorized(URI uri) {
        tokens.refresh();   // revoked or expired early: one more try with a new token
        return true;
      }
    };
    HttpTransport http = HttpTransport.of(HttpSettings.builder().auth(oauth).build());
  }

  /** The example of {@code HttpByteSource}. */
  void httpByteSource() throws Exception {
    HttpByteSource log = HttpByteSource.of("https://logs.example.com/driver.log");
    long size = log.size().orElseThrow();
    byte[] last64k = log.read(size - 65536, 65536);   // one request
  }

  /** The example of {@code HttpByteSourceProvider}. */
  void httpByteSourceProvider(String token) throws Exception {
    HttpByteSourceProvider http = HttpByteSourceProvider.of(HttpSettings.builder()
        .header("Authorization", "Bearer " + token)
        .caCertificates(Path.of("/etc/corp/proxy-ca.pem"))
        .build());
    ByteSources sources = ByteSources.builder().add(http).build();
    ByteSource log = sources.open("https://logs.example.com/spark/driver.log");
  }

  /** The example of {@code HttpSettings}. */
  void httpSettings() throws Exception {
    HttpSettings http = HttpSettings.builder()
        .bearerTokenFromEnv("SPARK_HISTORY_TOKEN")
        .caCertificates(Path.of("/etc/corp/proxy-ca.pem"))
        .readTimeout(Duration.ofSeconds(30))
        .build();
    ByteSources sources = ByteSources.builder().loadServiceProviders().add(HttpByteSourceProvider.of(http)).build();
  }

  /** The example of {@code HttpSettings}. */
  void httpSettingsRequireValidHeader(String token) throws Exception {
    HttpSettings.requireValidHeader("Authorization", "Bearer " + token);
  }

  /** The example of {@code HttpTransport}. */
  void httpTransport() throws Exception {
    HttpTransport http = HttpTransport.of(HttpSettings.builder().bearerTokenFromEnv("API_TOKEN").build());
    byte[] json = http.send(HttpTransport.Request.get("https://api.example.com/v1/items").build(),
        answer -> answer.readAll(1 << 20).orElseThrow(() -> new UnsupportedInputException("over 1 MiB")));
  }

  /** The example of {@code HttpTransport.Request}. */
  void httpTransportRequest(byte[] json) throws Exception {
    Request r = Request.get("https://shs:18080/api/v1/applications").header("Accept", "application/json").build();
    Request q = Request.post("https://api.example.com/v1/query", json, "application/json").build();
  }

  /** The example of {@code LineReader}. */
  void lineReader(InputStream in) throws Exception {
    try (LineReader lines = new LineReader(in, 1 << 20)) {
      while (lines.next()) {
        parse(lines.buffer(), lines.start(), lines.length());
      }
    }
  }

  /** The example of {@code LineReader}. */
  void lineReaderCandidates() throws Exception {
    LineReader.Candidates errors = (b, from, to) -> indexOf(b, from, to, "ERROR");
  }

  /** The example of {@code LineReader}. */
  void lineReaderSkippedLine(Ring ring) throws Exception {
    LineReader.SkippedLine keep = (b, start, len, number, offset, cut, full) -> ring.add(b, start, len);
  }

  /** The example of {@code LineReader}. */
  void lineReaderSkipUntil(LineReader lines, LineReader.Candidates finder) throws Exception {
    while (true) {
      lines.skipUntil(finder, 0, null);
      if (!lines.next()) break;
      if (matches(lines)) return;
    }
  }

  /** The example of {@code ReadAheadInputStream}. */
  void loopback() throws Exception {
    Loopback.isLoopbackHost("127.0.0.1");            // true
    Loopback.isLoopbackHost("[::1]");                // true
    Loopback.isLoopbackHost("127.attacker.example"); // false: a name, not an address
    Loopback.isLoopbackHostPort("localhost:4040");   // true
  }

  void readAheadInputStream(ByteSource source) throws Exception {
    try (InputStream in = new ReadAheadInputStream(DecodedStream.open(source, true), 256 * 1024, 4)) {
      // ... read as usual ...
    }
  }

  /** The example of {@code ReadListener}. */
  void readListener() throws Exception {
    AtomicLong done = new AtomicLong();
    ByteSources sources = ByteSources.defaults().observed(new ReadListener() {
      public void bytesRead(long n) { done.addAndGet(n); }
    });
    EventLogs.reader().sources(sources).build().replay("/tmp/spark-events/app-1");
  }

  /** The example of {@code SourceEntry}. */
  void sourceEntry() throws Exception {
    for (SourceEntry e : ByteSources.defaults().list("/tmp/spark-events")) {
      System.out.println(e.name() + (e.directory() ? "/" : " " + e.size().orElse(-1)));
    }
  }

  /** The example of {@code SourceFiles}. */
  void sourceFiles() throws Exception {
    SourceFiles.Listing l = SourceFiles.expand(ByteSources.defaults(), List.of("executor-logs/", "*.log"), 1000, 2);
    l.files().forEach(f -> search(f));
    l.problems().forEach(p -> System.err.println(p.uri() + ": " + p.message()));
  }

  /** The example of {@code ByteSources.with}. */
  void byteSourcesWith(ByteSourceProvider myHeldLogs) {
    ByteSources all = ByteSources.defaults().with(myHeldLogs);
  }
}

package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.io.TestHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The inspector over a real loopback HTTP server (JDK {@code HttpServer} answering Range requests)
 * through core's {@code HttpByteSource}: what it fetches, counted on the server side, and how it
 * fails when the server misbehaves.
 */
class RemoteArchiveTest {
  private TestHttpServer server;

  @BeforeEach
  void start() throws IOException {
    server = TestHttpServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The central directory's size, from the end record (the test archives have no comment). */
  private static long centralDirectorySize(byte[] zip) {
    return ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN).getInt(zip.length - 22 + 12)
        & 0xFFFFFFFFL;
  }

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

  @Test
  void anOverviewOverHttpFetchesTheEndRecordTheDirectoryAndTheManifestAndNothingElse()
      throws Exception {
    byte[] jar = TestJars.fatJar();
    server.serve("/fat.jar", TestHttpServer.Content.of(jar));

    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(server.url("/fat.jar"));

    assertThat(o.mainClass()).contains("com.example.SparkJob");
    assertThat(o.nestedArchives()).hasSize(40);
    assertThat(o.classes()).isEqualTo(1);
    assertThat(o.estimated()).isFalse();
    // The size probe, the tail, the directory (inside the tail here), the manifest, one class
    // header: every one a ranged request, none of them reaching into a nested jar's data.
    List<TestHttpServer.Request> requests = server.requests();
    assertThat(requests).hasSizeLessThanOrEqualTo(5)
        .allSatisfy(r -> assertThat(r.header("Range")).matches(RANGE.pattern()));
    long firstNestedJar = indexOf(jar, "lib/dep-0.jar".getBytes(StandardCharsets.UTF_8));
    long directoryStart = jar.length - 22 - centralDirectorySize(jar);
    for (TestHttpServer.Request r : requests) {
      Matcher m = RANGE.matcher(r.header("Range"));
      assertThat(m.matches()).isTrue();
      long first = Long.parseLong(m.group(1));
      assertThat(first < firstNestedJar || first >= directoryStart - 1024)
          .as("%s lies before the nested jars or in the archive's tail", r.header("Range")).isTrue();
    }
    assertThat(server.bodyBytesSent())
        .isLessThan(centralDirectorySize(jar) + 8 * 1024)
        .isLessThan(jar.length / 500);
  }

  @Test
  void aClassInsideAStoredNestedJarIsReadInPlaceOverHttp() throws Exception {
    byte[] boot = TestJars.bootJar();
    server.serve("/boot.jar", TestHttpServer.Content.of(boot));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(server.url("/boot.jar") + "!/BOOT-INF/lib/lib.jar!/com/example/SparkJob.class");

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(v.toText()).contains("gs://my-bucket/input/data.parquet");
    assertThat(boot.length).isGreaterThan(4 << 20);
    assertThat(server.bodyBytesSent()).isLessThan(64 * 1024);
    assertThat(server.requests()).allSatisfy(r -> assertThat(r.header("Range")).isNotNull());
  }

  @Test
  void aNestedEntryGivenAsEntryFindsTheSameClassAsTheFragment() throws Exception {
    server.serve("/boot.jar", TestHttpServer.Content.of(TestJars.bootJar()));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(server.url("/boot.jar"), "BOOT-INF/lib/lib.jar!/com.example.SparkJob");

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(server.bodyBytesSent()).isLessThan(64 * 1024);
  }

  @Test
  void aClassNamedInTheUrlFragmentIsDisassembledOverHttp() throws Exception {
    server.serve("/app.jar", TestHttpServer.Content.of(Fixtures.sparkJobJar()));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(server.url("/app.jar") + "!/com/example/WithClosure.class");

    assertThat(v.classes()).extracting(ClassView.ClassDetail::name)
        .containsExactly("com.example.WithClosure", "com.example.WithClosure$1");
    assertThat(v.toText()).contains("closure body");
  }

  @Test
  void aServerThatIgnoresRangeGetsCoresClearErrorInsteadOfAFullDownload() throws Exception {
    // 128 MiB of launch-script-like bytes before a real jar: a valid archive (see the last line).
    byte[] jar = Fixtures.sparkJobJar();
    long prefix = 128L << 20;
    TestHttpServer.Content big = new TestHttpServer.Content() {
      @Override
      public long size() {
        return prefix + jar.length;
      }

      @Override
      public void copy(long offset, byte[] dst, int off, int len) {
        for (int i = 0; i < len; i++) {
          long at = offset + i;
          dst[off + i] = at < prefix ? (byte) '#' : jar[(int) (at - prefix)];
        }
      }
    };
    server.serve("/app.jar", big).rangeSupported(false);

    assertThatThrownBy(() -> ClassInspector.create().inspect(server.url("/app.jar")))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("ignored the Range request")
        .hasMessageContaining("stopped rather than download it all");
    server.awaitIdle();
    assertThat(server.bodyBytesSent()).isLessThan(big.size() / 4);

    server.rangeSupported(true);
    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect(server.url("/app.jar"));
    assertThat(o.mainClass()).contains("com.example.SparkJob");
  }

  @Test
  void aMissingArchiveIsReportedAsNotFoundWithItsUrl() {
    String url = server.url("/jobs/missing.jar");

    assertThatThrownBy(() -> ClassInspector.create().inspect(url))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining(url)
        .hasMessageContaining("HTTP 404");
  }

  @Test
  void aForbiddenArchiveIsReportedAsAccessDenied() {
    server.serve("/app.jar", TestHttpServer.Content.of(Fixtures.sparkJobJar()))
        .enqueue("/app.jar", 403, Map.of());

    assertThatThrownBy(() -> ClassInspector.create().inspect(server.url("/app.jar")))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 403 Forbidden");
  }

  @Test
  void theDirectoryCapIsCheckedBeforeTheDirectoryIsFetched() throws Exception {
    byte[] jar = TestJars.fatJar();
    server.serve("/fat.jar", TestHttpServer.Content.of(jar));
    InspectorLimits d = InspectorLimits.defaults();
    InspectorLimits tiny = new InspectorLimits(d.maxEntries(), 1024, d.maxEntryBytes(),
        d.maxTotalInflatedBytes(), d.maxCompressionRatio(), d.maxNestedArchiveBytes(),
        d.maxScannedClasses(), d.maxSourceBytes());
    assertThat(centralDirectorySize(jar)).isGreaterThan(1024);

    assertThatThrownBy(() -> ClassInspector.builder().limits(tiny).build()
            .inspect(server.url("/fat.jar")))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining("cap");
    assertThat(server.bodyBytesSent()).isLessThanOrEqualTo(64 + 1024);
  }

  @Test
  void theSourceSizeCapStopsTheDownloadOfAHugeTextEntry() throws Exception {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; sql.length() < 8 << 20; i++) {
      sql.append("INSERT INTO sales.orders VALUES (").append(i).append(", 'row ").append(i)
          .append("');\n");
    }
    byte[] jar = TestJars.zip(TestJars.entries("sql/load.sql", sql.toString()), true);
    server.serve("/sql.jar", TestHttpServer.Content.of(jar));
    InspectorLimits d = InspectorLimits.defaults();
    InspectorLimits small = new InspectorLimits(d.maxEntries(), d.maxCentralDirectoryBytes(),
        d.maxEntryBytes(), d.maxTotalInflatedBytes(), d.maxCompressionRatio(),
        d.maxNestedArchiveBytes(), d.maxScannedClasses(), 256 * 1024);

    SourceView v = (SourceView) ClassInspector.builder().limits(small).build()
        .inspect(server.url("/sql.jar") + "!/sql/load.sql");

    assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("only the first 256.0 KiB"));
    assertThat(server.bodyBytesSent()).isLessThan(1 << 20);
  }

  @Test
  void aClassOverTheEntryCapIsRefusedWithoutFetchingIt() throws Exception {
    byte[] jar = Fixtures.sparkJobJar();
    server.serve("/app.jar", TestHttpServer.Content.of(jar));

    assertThatThrownBy(() -> ClassInspector.builder()
            .limits(InspectorLimits.defaults().withMaxEntryBytes(100)).build()
            .inspect(server.url("/app.jar"), "com.example.SparkJob"))
        .isInstanceOf(CorruptInputException.class).hasMessageContaining("read for one entry");
  }

  @Test
  void aServerThatStallsMidBodyFailsWithTheConfiguredReadTimeoutNotAHang() throws Exception {
    // The size probe and the tail are answered; the directory read, and its resumption, stall.
    try (StallingServer stalling = new StallingServer(TestJars.fatJar(), 2)) {
      HttpByteSourceProvider http = HttpByteSourceProvider.of(HttpSettings.builder()
          .readTimeout(Duration.ofMillis(300))
          .maxRetries(1)
          .backoff(Duration.ofMillis(1), Duration.ofMillis(1))
          .build());
      ClassInspector inspector = ClassInspector.builder()
          .sources(ByteSources.builder().add(http).build()).build();

      assertThatThrownBy(() -> inspector.inspect(stalling.url()))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining(stalling.url())
          .hasMessageContaining("timed out")
          .hasMessageContaining("2 attempts");
    }
  }

  @Test
  void aServerThatNeverAnswersFailsWithTheConfiguredRequestTimeout() throws Exception {
    try (StallingServer silent = new StallingServer(new byte[0], -1)) {
      HttpByteSourceProvider http = HttpByteSourceProvider.of(HttpSettings.builder()
          .requestTimeout(Duration.ofMillis(300))
          .maxRetries(0)
          .build());
      ClassInspector inspector = ClassInspector.builder()
          .sources(ByteSources.builder().add(http).build()).build();

      assertThatThrownBy(() -> inspector.inspect(silent.url()))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("timed out");
    }
  }

  private static long indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalArgumentException("not found");
  }

  /**
   * A server that answers its first {@code answered} ranged reads normally, then sends the headers
   * and half the body of each later one and stops until it is closed; with {@code answered} -1 it
   * never answers at all.
   */
  private static final class StallingServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicInteger seen =
        new java.util.concurrent.atomic.AtomicInteger();

    StallingServer(byte[] data, int answered) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.setExecutor(pool);
      server.createContext("/", ex -> handle(ex, data, answered));
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/stall.jar";
    }

    private void handle(HttpExchange ex, byte[] data, int answered) throws IOException {
      try (ex) {
        if (answered < 0) {
          await();
          return;
        }
        Matcher m = RANGE.matcher(String.valueOf(ex.getRequestHeaders().getFirst("Range")));
        if (!m.matches()) {
          ex.sendResponseHeaders(400, -1);
          return;
        }
        int first = Integer.parseInt(m.group(1));
        int last = m.group(2).isEmpty() ? data.length - 1
            : Math.min(data.length - 1, Integer.parseInt(m.group(2)));
        int length = last - first + 1;
        ex.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + data.length);
        ex.sendResponseHeaders(206, length);
        OutputStream out = ex.getResponseBody();
        if (seen.incrementAndGet() > answered) {
          out.write(data, first, length / 2);
          out.flush();
          await();
          return;
        }
        out.write(data, first, length);
      } catch (IOException e) {
        // the client gave up: expected
      }
    }

    private void await() {
      try {
        closed.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      closed.countDown();
      server.stop(0);
      pool.shutdownNow();
    }
  }
}

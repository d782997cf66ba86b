package io.sparkrca.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Side-by-side benchmark of {@link LogStream} against GNU grep, on the same files in one run:
 *
 * <ol>
 *   <li>regex search of a ~1 GiB plain Spark driver log vs {@code grep -E -n} (same match count);
 *   <li>the same on a zstd copy vs {@code zstdcat | grep -E -n};
 *   <li>tail of a 5 GiB sparse object served by a loopback HTTP server: requests and bytes fetched.
 * </ol>
 *
 * Run it through {@code benchmarks/logstream-bench.sh}, which builds the classpath and runs this
 * JVM with {@code -Xmx64m} to prove the heap bound. Data goes to {@code benchmarks/data/}
 * (git-ignored) and is generated once, deterministically.
 *
 * <pre>{@code
 * java -Xmx64m -cp ... io.sparkrca.benchmarks.LogStreamBenchmark benchmarks/data
 * }</pre>
 */
public final class LogStreamBenchmark {
  /** The regex searched for: what a person looks for first in a failed Spark driver log. */
  static final String REGEX = "OutOfMemoryError|FetchFailedException|Container killed";
  /** A second regex whose required literals are common, so the regex engine does real work. */
  static final String BUSY_REGEX = "Finished task [0-9]+\\.[0-9] in stage [0-9]+\\.[0-9] \\(TID [0-9]+\\) in [0-9]{5,} ms";

  private LogStreamBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "benchmarks/data");
    long plainBytes = Long.getLong("bench.plainBytes", 1L << 30);
    int runs = Integer.getInteger("bench.runs", 3);
    Files.createDirectories(data);
    Path plain = data.resolve("driver-1g.log");
    Path zst = data.resolve("driver-1g.log.zst");
    Path sparse = data.resolve("sparse-5g.log");

    generatePlain(plain, plainBytes);
    boolean zstdCli = commandExists("zstd") && commandExists("zstdcat");
    generateZstd(plain, zst, zstdCli);
    generateSparse(sparse, 5L << 30);

    List<String> report = new ArrayList<>();
    report.add("machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
        + ", max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB, "
        + grepVersion() + ", LC_ALL/LANG=" + System.getenv().getOrDefault("LC_ALL", System.getenv().getOrDefault("LANG", "(unset)")));
    report.add("plain file: " + Files.size(plain) + " bytes; zstd file: " + Files.size(zst) + " bytes");
    System.out.println(report.get(0));
    System.out.println(report.get(1));
    // Warm the page cache for both files.
    readAll(plain);
    readAll(zst);

    Row p = compare("regex search, plain", REGEX, plain,
        () -> timed("grep -E -n -- \"$1\" \"$2\"", REGEX, plain.toString()), runs);
    Row z = zstdCli
        ? compare("regex search, zstd", REGEX, zst,
            () -> timed("zstdcat -q -- \"$2\" | grep -E -n -- \"$1\"", REGEX, zst.toString()), runs)
        : null;
    Row busy = compare("busy regex (informative), plain", BUSY_REGEX, plain,
        () -> timed("grep -E -n -- \"$1\" \"$2\"", BUSY_REGEX, plain.toString()), runs);
    TailRow t = tailOverHttp(sparse, 100);

    System.out.println();
    System.out.println("| measurement | LogStream (wall) | GNU tool (wall) | throughput ratio, wall | CPU: ours / tool = ratio | matches (ours = tool) | peak heap, ours | target |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    System.out.println(p.markdown("≥ 0.5x `grep -E -n`"));
    if (z != null) {
      System.out.println(z.markdown("≥ 0.8x `zstdcat | grep -E -n`"));
    } else {
      System.out.println("| regex search, zstd | (zstd CLI missing: not measured) | | | | | | |");
    }
    System.out.println(busy.markdown("none (shows the engine on many candidate lines)"));
    System.out.println();
    System.out.println("| tail over loopback HTTP | lines | requests | bytes fetched | peak heap, ours | target |");
    System.out.println("|---|---|---|---|---|---|");
    System.out.printf(Locale.ROOT, "| tail 100 of a %d-byte sparse object | %d | %d | %d | %.1f MiB | ≤ 1 MiB in ≤ 2 requests |%n",
        t.objectSize, t.lines, t.requests, t.bytes, t.peakHeap / 1048576.0);
    boolean ok = p.ratio() >= 0.5 && (z == null || z.ratio() >= 0.8) && t.requests <= 2 && t.bytes <= (1 << 20)
        && p.matchesEqual && (z == null || z.matchesEqual)
        && Math.max(p.peakHeap, Math.max(z == null ? 0 : z.peakHeap, t.peakHeap)) < 64L * 1024 * 1024;
    System.out.println();
    System.out.println(ok ? "ALL TARGETS MET" : "SOME TARGETS MISSED");
  }

  // --- comparisons -------------------------------------------------------------------------------

  interface Tool {
    long[] run() throws Exception; // {matches, wall nanos, cpu nanos}
  }

  record Row(String name, long bytes, long oursNanos, long toolNanos, long oursCpu, long toolCpu,
      long oursMatches, long toolMatches, boolean matchesEqual, long peakHeap) {
    double ratio() {
      return (double) toolNanos / oursNanos;
    }

    double cpuRatio() {
      return (double) toolCpu / oursCpu;
    }

    String markdown(String target) {
      return String.format(Locale.ROOT,
          "| %s | %.2f s (%.0f MB/s) | %.2f s (%.0f MB/s) | **%.2fx** | %.2f s / %.2f s = %.2fx | %d = %d %s | %.1f MiB | %s |",
          name, oursNanos / 1e9, bytes / 1e6 / (oursNanos / 1e9), toolNanos / 1e9, bytes / 1e6 / (toolNanos / 1e9),
          ratio(), oursCpu / 1e9, toolCpu / 1e9, cpuRatio(), oursMatches, toolMatches, matchesEqual ? "✓" : "✗ MISMATCH",
          peakHeap / 1048576.0, target);
    }
  }

  /** Median of {@code runs} alternating runs of each side, after one warm-up run of each. */
  static Row compare(String name, String regex, Path file, Tool tool, int runs) throws Exception {
    long plainBytes = Files.size(file.getFileName().toString().endsWith(".zst")
        ? file.resolveSibling(file.getFileName().toString().replace(".zst", "")) : file);
    ours(regex, file);
    tool.run();
    long[] oursTimes = new long[runs];
    long[] toolTimes = new long[runs];
    long[] oursCpu = new long[runs];
    long[] toolCpu = new long[runs];
    long oursMatches = -1;
    long toolMatches = -1;
    long peak = 0;
    for (int i = 0; i < runs; i++) {
      resetPeakHeap();
      long[] o = ours(regex, file);
      peak = Math.max(peak, peakHeap());
      long[] g = tool.run();
      oursMatches = o[0];
      oursTimes[i] = o[1];
      oursCpu[i] = o[2];
      toolMatches = g[0];
      toolTimes[i] = g[1];
      toolCpu[i] = g[2];
      System.out.printf(Locale.ROOT, "%s run %d: LogStream %.2f s wall %.2f s cpu (%d matches), tool %.2f s wall %.2f s cpu (%d matches), load %.1f%n",
          name, i + 1, o[1] / 1e9, o[2] / 1e9, o[0], g[1] / 1e9, g[2] / 1e9, g[0],
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    return new Row(name, plainBytes, median(oursTimes), median(toolTimes), median(oursCpu), median(toolCpu),
        oursMatches, toolMatches, oursMatches == toolMatches, peak);
  }

  static long[] ours(String regex, Path file) throws IOException {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long c0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    SearchResult r = LogStream.open(file.toString())
        .search(SearchQuery.regex(regex).withMaxMatches(SearchQuery.MAX_MATCHES));
    long t1 = System.nanoTime();
    long c1 = os.getProcessCpuTime();
    if (r.limitReached()) {
      throw new IllegalStateException("more than " + SearchQuery.MAX_MATCHES + " matches: counts would not compare");
    }
    return new long[] {r.matches().size(), t1 - t0, c1 - c0};
  }

  /**
   * Runs a shell pipeline ($1 = regex, $2 = file) under bash's {@code time}; counts its output
   * lines. Returns {matches, wall nanos, user+sys CPU nanos of the whole pipeline}.
   */
  static long[] timed(String pipeline, String regex, String file) throws IOException, InterruptedException {
    Path times = Files.createTempFile("bench-time", ".txt");
    try {
      // bash's `times` prints the user and system time of the shell, then of its children.
      String script = "set -o pipefail; " + pipeline + "; rc=$?; times > \"$3\"; exit $rc";
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder("bash", "-c", script, "bench", regex, file, times.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      long lines = 0;
      try (InputStream in = p.getInputStream()) {
        byte[] buf = new byte[1 << 16];
        int n;
        while ((n = in.read(buf)) > 0) {
          for (int i = 0; i < n; i++) {
            if (buf[i] == '\n') {
              lines++;
            }
          }
        }
      }
      int exit = p.waitFor();
      long t1 = System.nanoTime();
      if (exit > 1) {
        throw new IllegalStateException(pipeline + " exited with " + exit);
      }
      String[] children = Files.readAllLines(times).get(1).trim().split("\\s+");
      long cpu = seconds(children[0]) + seconds(children[1]);
      return new long[] {lines, t1 - t0, cpu};
    } finally {
      Files.deleteIfExists(times);
    }
  }

  /** Parses bash's {@code 1m2.345s} into nanoseconds. */
  static long seconds(String t) {
    int m = t.indexOf('m');
    double minutes = Double.parseDouble(t.substring(0, m));
    double secs = Double.parseDouble(t.substring(m + 1, t.length() - 1));
    return (long) ((minutes * 60 + secs) * 1e9);
  }

  static long median(long[] values) {
    long[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }

  // --- tail over HTTP ----------------------------------------------------------------------------

  record TailRow(long objectSize, int lines, long requests, long bytes, long peakHeap) {}

  static TailRow tailOverHttp(Path sparse, int n) throws IOException {
    AtomicLong requests = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext("/", ex -> serveRange(ex, sparse, requests, bytes));
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/" + sparse.getFileName();
      LogStream log = LogStream.builder()
          .sources(ByteSources.builder().add(HttpByteSourceProvider.defaults()).build())
          .build(url);
      resetPeakHeap();
      LogLines tail = log.tail(n);
      long peak = peakHeap();
      System.out.printf(Locale.ROOT, "tail %d over HTTP: %d lines, %d requests, %d bytes; last line: %s%n",
          n, tail.lines().size(), requests.get(), bytes.get(),
          tail.lines().isEmpty() ? "-" : tail.lines().get(tail.lines().size() - 1).text());
      return new TailRow(Files.size(sparse), tail.lines().size(), requests.get(), bytes.get(), peak);
    } finally {
      server.stop(0);
    }
  }

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

  static void serveRange(HttpExchange ex, Path file, AtomicLong requests, AtomicLong bytes) throws IOException {
    try (ex; FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      requests.incrementAndGet();
      long size = ch.size();
      String range = ex.getRequestHeaders().getFirst("Range");
      long first = 0;
      long last = size - 1;
      int status = 200;
      if (range != null) {
        Matcher m = RANGE.matcher(range);
        if (m.matches()) {
          first = Long.parseLong(m.group(1));
          last = m.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(m.group(2)));
          if (first >= size) {
            ex.getResponseHeaders().set("Content-Range", "bytes */" + size);
            ex.sendResponseHeaders(416, -1);
            return;
          }
          status = 206;
          ex.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + size);
        }
      }
      long length = last - first + 1;
      ex.sendResponseHeaders(status, length);
      OutputStream out = ex.getResponseBody();
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      long pos = first;
      try {
        while (pos <= last) {
          buf.clear().limit((int) Math.min(buf.capacity(), last - pos + 1));
          int r = ch.read(buf, pos);
          if (r <= 0) {
            break;
          }
          out.write(buf.array(), 0, r);
          bytes.addAndGet(r);
          pos += r;
        }
      } catch (IOException e) {
        // client went away
      }
    }
  }

  // --- heap --------------------------------------------------------------------------------------

  static void resetPeakHeap() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /** The sum of each heap pool's peak: an upper bound of the peak heap in use. */
  static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  // --- data --------------------------------------------------------------------------------------

  static void generatePlain(Path out, long targetBytes) throws IOException {
    if (Files.exists(out) && Files.size(out) >= targetBytes) {
      return;
    }
    System.out.println("generating " + out + " (" + targetBytes + " bytes)...");
    SplittableRandom r = new SplittableRandom(42);
    long written = 0;
    long line = 0;
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      StringBuilder sb = new StringBuilder(256);
      while (written < targetBytes) {
        sb.setLength(0);
        line++;
        DriverLogLines.next(r, line, sb);
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        o.write(b);
        written += b.length;
      }
    }
  }

  static void generateZstd(Path plain, Path zst, boolean cli) throws IOException, InterruptedException {
    if (Files.exists(zst) && Files.getLastModifiedTime(zst).compareTo(Files.getLastModifiedTime(plain)) >= 0) {
      return;
    }
    System.out.println("compressing " + zst + "...");
    if (cli) {
      Process p = new ProcessBuilder("zstd", "-q", "-f", "-3", "-T2", plain.toString(), "-o", zst.toString())
          .inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException("zstd failed");
      }
      return;
    }
    try (InputStream in = Files.newInputStream(plain);
        OutputStream o = new com.github.luben.zstd.ZstdOutputStream(
            new BufferedOutputStream(Files.newOutputStream(zst), 1 << 20), 3)) {
      in.transferTo(o);
    }
  }

  /** A 5 GiB file that is empty (a hole) except for 4 MiB of log lines at its end. */
  static void generateSparse(Path out, long size) throws IOException {
    if (Files.exists(out) && Files.size(out) == size) {
      return;
    }
    int tailBytes = 4 << 20;
    System.out.println("creating sparse " + out + "...");
    try (RandomAccessFile f = new RandomAccessFile(out.toFile(), "rw")) {
      f.setLength(0);
      StringBuilder sb = new StringBuilder(tailBytes + 1024);
      SplittableRandom r = new SplittableRandom(7);
      long line = 0;
      while (sb.length() < tailBytes) {
        DriverLogLines.next(r, ++line, sb);
      }
      // Start the text on a line boundary exactly tailBytes before the end.
      byte[] text = sb.toString().getBytes(StandardCharsets.UTF_8);
      int cut = text.length - tailBytes;
      while (cut < text.length && text[cut - 1] != '\n') {
        cut++;
      }
      byte[] tail = Arrays.copyOfRange(text, cut, text.length);
      f.seek(size - tail.length);
      f.write(tail);
    }
  }

  static void readAll(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      byte[] buf = new byte[1 << 20];
      while (in.read(buf) > 0) {
        // page cache warm-up
      }
    }
  }

  static boolean commandExists(String name) {
    try {
      return new ProcessBuilder("sh", "-c", "command -v " + name).start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  static String grepVersion() {
    try {
      Process p = new ProcessBuilder("grep", "--version").start();
      String first = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("grep");
      p.waitFor();
      return first;
    } catch (IOException | InterruptedException e) {
      return "grep (version unknown)";
    }
  }
}

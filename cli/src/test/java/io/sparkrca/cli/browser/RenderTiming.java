package io.sparkrca.cli.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How long headless Chromium takes to load and to paint HTML reports (the benchmark of issue 15
 * §3, run by {@code benchmarks/compare/run.sh}; not a test). One browser, a fresh page per load;
 * for each file and round: the time from navigation to the load event, then to a full-page
 * screenshot (layout and paint of everything, not only the first screen). Prints one {@code RENDER}
 * line per load, then the median per file.
 *
 * <pre>{@code java -cp cli/target/test-classes:<jackson> io.sparkrca.cli.browser.RenderTiming 5 a.html b.html}</pre>
 */
public final class RenderTiming {
  private RenderTiming() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: RenderTiming <rounds> <file.html>...");
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[0]);
    Path binary = HeadlessChromium.binary().orElseThrow(() -> new IllegalStateException("no chromium on the PATH"));
    try (HeadlessChromium browser = HeadlessChromium.start(binary)) {
      for (int a = 1; a < args.length; a++) {
        Path file = Path.of(args[a]).toAbsolutePath();
        List<Long> loads = new ArrayList<>();
        List<Long> painted = new ArrayList<>();
        int errors = 0;
        int requests = 0;
        // One untimed load first: the browser's own start-up is not the report's cost.
        for (int r = 0; r <= rounds; r++) {
          try (HeadlessChromium.Page page = browser.newPage()) {
            long t0 = System.nanoTime();
            HeadlessChromium.PageLog log = page.open(file);
            page.screenshot(1100);
            long total = (System.nanoTime() - t0) / 1_000_000;
            errors = log.consoleErrors().size();
            requests = (int) log.requests().stream().filter(u -> !u.equals(file.toUri().toString())).count();
            if (r > 0) {
              loads.add(log.loadMs());
              painted.add(total);
              System.out.printf(Locale.ROOT, "RENDER %s round=%d bytes=%d loadMs=%d paintedMs=%d%n", file.getFileName(),
                  r, Files.size(file), log.loadMs(), total);
            }
          }
        }
        loads.sort(null);
        painted.sort(null);
        System.out.printf(Locale.ROOT, "MEDIAN %s bytes=%d loadMs=%d paintedMs=%d maxPaintedMs=%d consoleErrors=%d "
            + "otherRequests=%d%n", file.getFileName(), Files.size(file), loads.get(loads.size() / 2),
            painted.get(painted.size() / 2), painted.get(painted.size() - 1), errors, requests);
      }
    }
  }
}

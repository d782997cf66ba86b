package io.sparkrca.cli.browser;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How long headless Chromium takes to load and to paint HTML reports (the benchmark of issue 15
 * §3, run by {@code benchmarks/compare/run.sh}; not a test). One browser, a fresh page per load;
 * for each file and round: the time from navigation to the load event, then to a full-page
 * screenshot (layout and paint of everything, not only the first screen). The files take turns
 * round by round (A B C, A B C, ...), so that on a shared machine a neighbour's burst slows every
 * page alike and the ratios between pages hold. Prints one {@code RENDER} line per load (with the
 * page's height and how many elements and SVG elements it has: the screenshot's cost grows with
 * the pixels it paints), then the median per file.
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
    List<Path> files = new ArrayList<>();
    for (int a = 1; a < args.length; a++) {
      files.add(Path.of(args[a]).toAbsolutePath());
    }
    Map<Path, List<Long>> loads = new LinkedHashMap<>();
    Map<Path, List<Long>> painted = new LinkedHashMap<>();
    Map<Path, int[]> facts = new LinkedHashMap<>();
    Path binary = HeadlessChromium.binary().orElseThrow(() -> new IllegalStateException("no chromium on the PATH"));
    try (HeadlessChromium browser = HeadlessChromium.start(binary)) {
      // Round 0 is an untimed load of each file: the browser's own start-up is not the report's cost.
      for (int r = 0; r <= rounds; r++) {
        for (Path file : files) {
          try (HeadlessChromium.Page page = browser.newPage()) {
            long t0 = System.nanoTime();
            HeadlessChromium.PageLog log = page.open(file);
            page.screenshot(1100);
            long total = (System.nanoTime() - t0) / 1_000_000;
            JsonNode dom = page.evaluate("[document.documentElement.scrollHeight, document.getElementsByTagName('*').length,"
                + " document.querySelectorAll('svg *').length]");
            int errors = log.consoleErrors().size();
            int requests = (int) log.requests().stream().filter(u -> !u.equals(file.toUri().toString())).count();
            facts.put(file, new int[] {dom.get(0).asInt(), dom.get(1).asInt(), dom.get(2).asInt(), errors, requests});
            if (r > 0) {
              loads.computeIfAbsent(file, f -> new ArrayList<>()).add(log.loadMs());
              painted.computeIfAbsent(file, f -> new ArrayList<>()).add(total);
              System.out.printf(Locale.ROOT, "RENDER %s round=%d bytes=%d heightPx=%d elements=%d svgElements=%d "
                  + "loadMs=%d paintedMs=%d%n", file.getFileName(), r, Files.size(file), dom.get(0).asInt(),
                  dom.get(1).asInt(), dom.get(2).asInt(), log.loadMs(), total);
            }
          }
        }
      }
    }
    for (Path file : files) {
      List<Long> l = new ArrayList<>(loads.get(file));
      List<Long> p = new ArrayList<>(painted.get(file));
      l.sort(null);
      p.sort(null);
      int[] f = facts.get(file);
      System.out.printf(Locale.ROOT, "MEDIAN %s bytes=%d heightPx=%d elements=%d svgElements=%d loadMs=%d paintedMs=%d "
          + "maxPaintedMs=%d consoleErrors=%d otherRequests=%d%n", file.getFileName(), Files.size(file), f[0], f[1], f[2],
          l.get(l.size() / 2), p.get(p.size() / 2), p.get(p.size() - 1), f[3], f[4]);
    }
  }
}

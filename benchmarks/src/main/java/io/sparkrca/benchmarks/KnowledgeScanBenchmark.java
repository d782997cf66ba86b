package io.sparkrca.benchmarks;

import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.io.ByteSource;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The whole failure knowledge base over one large driver log (issue #40 §2), run as a process of
 * its own so that it can be timed next to {@code sparkrca logs search} on the same file:
 *
 * <ul>
 *   <li>{@code generate FIXTURES OUT BYTES} writes a driver log of about {@code BYTES} from the real
 *       driver logs under {@code FIXTURES} (the testkit's {@code driver-stderr.log} files): their
 *       single-line INFO records, again and again with other numbers and a running clock, and
 *       now and then one of their other records (WARN and ERROR lines, stack traces, the failures
 *       of the knowledge base's families) as they were. Deterministic (seed 40).
 *   <li>{@code scan LOG} runs {@link LogEvidence#scan} with {@link LogSignatures#standard()} (every
 *       built-in signature and every knowledge-base family, one pass) and prints what it found.
 * </ul>
 *
 * Run through {@code benchmarks/kbscan/run.sh}, which builds, generates once and times both.
 *
 * <pre>{@code
 * java -cp sparkrca.jar:classes io.sparkrca.benchmarks.KnowledgeScanBenchmark scan driver-1g.log
 * }</pre>
 */
public final class KnowledgeScanBenchmark {
  /** One failure record (a WARN or ERROR line, or a record with continuation lines) in this many. */
  static final int NOISY_ONE_IN = 2500;

  private static final Pattern STAMP = Pattern.compile("^\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d ");

  private KnowledgeScanBenchmark() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 4 && args[0].equals("generate")) {
      generate(Path.of(args[1]), Path.of(args[2]), Long.parseLong(args[3]));
    } else if (args.length == 2 && args[0].equals("scan")) {
      scan(Path.of(args[1]));
    } else {
      System.err.println("usage: KnowledgeScanBenchmark generate FIXTURES_DIR OUT BYTES | scan LOG");
      System.exit(2);
    }
  }

  static void scan(Path log) {
    long t0 = System.nanoTime();
    LogEvidence e = LogEvidence.scan(ByteSource.of(log), LogRole.DRIVER, Optional.empty(), "benchmark",
        LogSignatures.standard());
    long t1 = System.nanoTime();
    System.out.printf(Locale.ROOT, "%s: %d lines, %d bytes, %d signatures, %d excerpts, %.2f s in the scan%n",
        log, e.linesScanned(), e.bytes(), LogSignatures.standard().signatures().size(), e.excerpts().size(),
        (t1 - t0) / 1e9);
    for (Map.Entry<String, Long> c : e.signatureCounts().entrySet()) {
      System.out.println("  " + c.getKey() + " " + c.getValue());
    }
  }

  /** Records (a stamped line and the lines that continue it) of every driver log under {@code fixtures}. */
  static void generate(Path fixtures, Path out, long bytes) throws IOException {
    List<String> quiet = new ArrayList<>();
    List<String> noisy = new ArrayList<>();
    List<Path> logs;
    try (Stream<Path> s = Files.walk(fixtures)) {
      logs = s.filter(p -> p.getFileName().toString().equals("driver-stderr.log")).sorted().toList();
    }
    if (logs.isEmpty()) {
      throw new IllegalArgumentException("no driver-stderr.log under " + fixtures + ": give the testkit's fixtures directory");
    }
    for (Path p : logs) {
      StringBuilder record = null;
      for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
        if (STAMP.matcher(line).find()) {
          add(record, quiet, noisy);
          record = new StringBuilder(line.substring(18)); // the level onwards; the clock is ours
        } else if (record != null) {
          record.append('\n').append(line);
        }
      }
      add(record, quiet, noisy);
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    SplittableRandom r = new SplittableRandom(40);
    long written = 0;
    long n = 0;
    StringBuilder sb = new StringBuilder(1 << 16);
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      while (written < bytes) {
        sb.setLength(0);
        long seconds = n / 2000; // 2,000 records a second: a busy driver
        sb.append("26/11/29 ").append(two(seconds / 3600 % 24)).append(':').append(two(seconds / 60 % 60))
            .append(':').append(two(seconds % 60)).append(' ');
        if (r.nextInt(NOISY_ONE_IN) == 0) {
          sb.append(noisy.get(r.nextInt(noisy.size())));
        } else {
          vary(quiet.get(r.nextInt(quiet.size())), r, sb);
        }
        sb.append('\n');
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        o.write(b);
        written += b.length;
        n++;
      }
    }
    System.out.printf(Locale.ROOT, "%s: %d bytes, %d records from %d logs (%d quiet kinds, %d noisy kinds)%n",
        out, written, n, logs.size(), quiet.size(), noisy.size());
  }

  private static void add(StringBuilder record, List<String> quiet, List<String> noisy) {
    if (record == null) {
      return;
    }
    String s = record.toString();
    (s.startsWith("INFO ") && s.indexOf('\n') < 0 ? quiet : noisy).add(s);
  }

  /** {@code record} with each run of digits replaced by another number of as many digits. */
  private static void vary(String record, SplittableRandom r, StringBuilder sb) {
    for (int i = 0; i < record.length(); i++) {
      char c = record.charAt(i);
      if (c >= '0' && c <= '9') {
        boolean first = i == 0 || !Character.isDigit(record.charAt(i - 1));
        boolean last = i + 1 == record.length() || !Character.isDigit(record.charAt(i + 1));
        sb.append((char) ('0' + (first && !last ? 1 + r.nextInt(9) : r.nextInt(10))));
      } else {
        sb.append(c);
      }
    }
  }

  private static String two(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }
}

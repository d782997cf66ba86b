package io.sparkrca.benchmarks.fleet;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.SourceEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Builds the fleets of the fleet benchmark (issue 18 §4), once, under {@code --out}:
 *
 * <ul>
 *   <li>{@code small/}: {@code --logs} event logs, copies of every testkit fixture in turn, each
 *       with a new application id (rewritten wherever the id occurs) and written zstd-compressed as
 *       {@code <id>.zstd} (rolling fixtures are flattened into one file), spread over dated
 *       subdirectories as a real event-log bucket often is;
 *   <li>{@code large/}: {@code --large} copies (hard links) of the replay benchmark's amplified log
 *       family member given with {@code --large-seed}, one name each.
 * </ul>
 *
 * <p>Usage: {@code MakeFleet --fixtures testkit/fixtures --out DIR --logs 2000 --large 20
 * --large-seed FILE}. Skips a fleet whose {@code .fleet-done} marker (hidden, so scans skip it)
 * names the same settings.
 */
public final class MakeFleet {
  private static final Pattern APP_ID = Pattern.compile("\"App ID\":\"([^\"]+)\"");

  private MakeFleet() {}

  public static void main(String[] args) throws IOException {
    java.util.Map<String, String> a = new java.util.HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    Path fixtures = Path.of(a.get("--fixtures"));
    Path out = Path.of(a.get("--out"));
    int logs = Integer.parseInt(a.getOrDefault("--logs", "2000"));
    small(fixtures, out.resolve("small"), logs);
    if (a.containsKey("--large-seed")) {
      large(Path.of(a.get("--large-seed")), out.resolve("large"), Integer.parseInt(a.getOrDefault("--large", "20")));
    }
  }

  private static void small(Path fixtures, Path dir, int count) throws IOException {
    String stamp = "logs=" + count + " fixtures=" + fixtures.toAbsolutePath();
    if (done(dir, stamp)) {
      System.out.println("small fleet up to date: " + dir);
      return;
    }
    List<String> texts = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    try (Stream<Path> s = Files.walk(fixtures, 4)) {
      for (Path log : (Iterable<Path>) s.filter(p -> p.getParent() != null
          && p.getParent().getFileName().toString().equals("eventlog")).sorted()::iterator) {
        String text = decode(log);
        Matcher m = APP_ID.matcher(text);
        if (m.find()) {
          texts.add(text);
          ids.add(m.group(1));
        }
      }
    }
    if (texts.isEmpty()) {
      throw new IllegalStateException("no fixture event logs under " + fixtures);
    }
    clear(dir); // a fleet of another size must not keep the old one's logs
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      int f = i % texts.size();
      String id = "app-20260101" + String.format("%06d", i / 100) + "-" + String.format("%04d", i);
      Path day = Files.createDirectories(dir.resolve("2026-01-" + String.format("%02d", 1 + (i % 28))));
      Path target = day.resolve(id + ".zstd");
      try (OutputStream o = new ZstdOutputStream(Files.newOutputStream(target), 1)) {
        o.write(texts.get(f).replace(ids.get(f), id).getBytes(StandardCharsets.UTF_8));
      }
      bytes += Files.size(target);
    }
    Files.writeString(dir.resolve(".fleet-done"), stamp);
    System.out.println("small fleet: " + count + " logs, " + bytes + " bytes (zstd) from " + texts.size()
        + " fixtures in " + dir);
  }

  private static void large(Path seed, Path dir, int count) throws IOException {
    String stamp = "large=" + count + " seed=" + seed.toAbsolutePath() + " size=" + Files.size(seed);
    if (done(dir, stamp)) {
      System.out.println("large fleet up to date: " + dir);
      return;
    }
    clear(dir);
    String name = seed.getFileName().toString();
    String ext = name.contains(".") ? name.substring(name.indexOf('.')) : "";
    for (int i = 0; i < count; i++) {
      Path target = dir.resolve("app-20260201000000-" + String.format("%04d", i) + ext);
      Files.deleteIfExists(target);
      try {
        Files.createLink(target, seed.toRealPath());
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(seed, target);
      }
    }
    Files.writeString(dir.resolve(".fleet-done"), stamp);
    System.out.println("large fleet: " + count + " links to " + seed + " in " + dir);
  }

  private static void clear(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(dir);
  }

  private static boolean done(Path dir, String stamp) throws IOException {
    Path marker = dir.resolve(".fleet-done");
    return Files.exists(marker) && Files.readString(marker).equals(stamp);
  }

  /** The decoded text of a log, a rolling directory's event files concatenated in order. */
  private static String decode(Path log) throws IOException {
    ByteSources sources = ByteSources.defaults();
    List<String> files = new ArrayList<>();
    if (Files.isDirectory(log)) {
      List<SourceEntry> entries = sources.list(log.toString());
      files.addAll(EventLogRef.ofRollingDirectory(log.toString(), entries).files());
    } else {
      files.add(log.toString());
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (String f : files) {
      try (InputStream in = DecodedStream.open(ByteSource.of(Path.of(f)), false)) {
        in.transferTo(all);
      }
    }
    return all.toString(StandardCharsets.UTF_8);
  }
}

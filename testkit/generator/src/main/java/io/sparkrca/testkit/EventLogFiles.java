package io.sparkrca.testkit;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.ning.compress.lzf.LZFInputStream;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;
import org.xerial.snappy.SnappyInputStream;

/**
 * Reads the lines of an event log as Spark wrote it: one file (plain or compressed, possibly
 * {@code .inprogress}) or a rolling {@code eventlog_v2_<app>} directory of {@code events_<n>_*}
 * files. The codec is taken from the file name, as Spark's own reader does. This reader serves
 * the generator's verification only; sparkrca's real reader lives in core.
 */
public final class EventLogFiles {
  private static final Pattern ROLLING_FILE = Pattern.compile("events_(\\d+)_.*");
  // Spark's LZ4 codec uses lz4-java's default seed for the stream checksum.
  private static final int LZ4_SEED = 0x9747b28c;

  private EventLogFiles() {}

  /** The event logs (files or rolling directories) directly under {@code dir}. */
  public static List<Path> logsIn(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> Files.isDirectory(p) || !p.getFileName().toString().endsWith(".crc"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The data files of one log in reading order (the file itself, or the rolling parts by index). */
  public static List<Path> dataFiles(Path log) {
    if (!Files.isDirectory(log)) {
      return List.of(log);
    }
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> s = Files.list(log)) {
      s.filter(p -> ROLLING_FILE.matcher(p.getFileName().toString()).matches()).forEach(parts::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    parts.sort(Comparator.comparingLong(EventLogFiles::rollingIndex));
    return parts;
  }

  private static long rollingIndex(Path p) {
    Matcher m = ROLLING_FILE.matcher(p.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(p.toString());
    }
    return Long.parseLong(m.group(1));
  }

  /**
   * Whether a log is still marked in progress, as Spark leaves it when the driver dies before it
   * could finish it: a single file named {@code *.inprogress}, or a rolling directory whose {@code
   * appstatus_*} file is {@code appstatus_<app>.inprogress}.
   */
  public static boolean inProgress(Path log) {
    if (!Files.isDirectory(log)) {
      return log.getFileName().toString().endsWith(".inprogress");
    }
    try (Stream<Path> s = Files.list(log)) {
      return s.map(p -> p.getFileName().toString())
          .anyMatch(n -> n.startsWith("appstatus_") && n.endsWith(".inprogress"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The codec named by a data file's extension: none, zstd, lz4, snappy, lzf or gzip. */
  public static String codecOf(Path file) {
    String name = file.getFileName().toString();
    if (name.endsWith(".inprogress")) {
      name = name.substring(0, name.length() - ".inprogress".length());
    }
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1);
    return switch (ext) {
      case "zstd", "zst" -> "zstd";
      case "lz4" -> "lz4";
      case "snappy" -> "snappy";
      case "lzf" -> "lzf";
      case "gz" -> "gzip";
      default -> "none";
    };
  }

  /** Opens one data file, decompressed. */
  public static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    return switch (codecOf(file)) {
      case "zstd" -> new ZstdInputStreamNoFinalizer(raw).setContinuous(true);
      case "lz4" ->
          // Spark writes one LZ4 block stream per file; like Spark's reader, read past an
          // empty block in case streams were concatenated.
          LZ4BlockInputStream.newBuilder()
              .withDecompressor(LZ4Factory.fastestInstance().safeDecompressor())
              .withChecksum(XXHashFactory.fastestInstance().newStreamingHash32(LZ4_SEED).asChecksum())
              .withStopOnEmptyBlock(false)
              .build(raw);
      case "snappy" -> new SnappyInputStream(raw);
      case "lzf" -> new LZFInputStream(raw);
      case "gzip" -> new GZIPInputStream(raw);
      default -> raw;
    };
  }

  /** Feeds every line of the log, across rolling parts, to {@code sink}. */
  public static void forEachLine(Path log, Consumer<String> sink) throws IOException {
    for (Path f : dataFiles(log)) {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(open(f), StandardCharsets.UTF_8), 1 << 16)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          sink.accept(line);
        }
      }
    }
  }
}

package io.sparkrca.historyserver.internal;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSourceProvider;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * An application's event log as the History Server serves it ({@code applications/<id>/logs}: a
 * zip of the log file, or of a rolling log's directory), downloaded up to a size cap into one
 * temporary file and read in place: entries are streamed out of the zip, never extracted. Closing
 * it deletes the file.
 */
public final class EventLogArchive implements Closeable {
  private static final String SCHEME = "shs-eventlog-zip:/";

  private final Path file;
  private final ZipFile zip;
  private final TreeMap<String, ZipArchiveEntry> entries = new TreeMap<>();
  private final String source;

  private EventLogArchive(Path file, ZipFile zip, String source) {
    this.file = file;
    this.zip = zip;
    this.source = source;
    for (ZipArchiveEntry e : Collections.list(zip.getEntries())) {
      if (!e.isDirectory() && safe(e.getName())) {
        entries.put(e.getName(), e);
      }
    }
  }

  /** Downloads {@code path} of {@code client}'s server, at most the settings' event-log cap. */
  public static EventLogArchive download(RestClient client, String path) {
    Path tmp;
    try {
      tmp = Files.createTempFile("sparkrca-shs-eventlog-", ".zip");
    } catch (IOException e) {
      throw new SparkRcaException("cannot create a temporary file for the event log of " + client.name(path) + ": " + e.getMessage(), e);
    }
    try {
      try {
        // A body that breaks off is fetched again by the transport, into the file opened afresh.
        client.fetchTo(path, () -> open(client, path, tmp), client.settings().maxEventLogBytes(), "event-log download");
      } catch (RestClient.BrokenBody e) {
        throw new CorruptInputException("GET " + client.name(path) + ": " + e.getMessage() + " on each of "
            + (client.settings().http().maxRetries() + 1) + " attempts; the event log was not used", e);
      } catch (InputNotFoundException e) {
        throw new InputNotFoundException(client.name(path),
            "the History Server has no event log for this application (a driver UI serves none; check the id and attempt)", e);
      }
      ZipFile zip;
      try {
        zip = ZipFile.builder().setPath(tmp).get();
      } catch (IOException e) {
        throw new CorruptInputException(client.name(path) + " is not a readable zip of an event log (" + e.getMessage() + ")", e);
      }
      EventLogArchive archive = new EventLogArchive(tmp, zip, client.name(path));
      if (archive.entries.isEmpty()) {
        // Spark's live UI answers this request 200 with an empty zip (the error it means to send is
        // never returned), so an empty archive is "no event log here", not an empty application.
        archive.close();
        throw new InputNotFoundException(client.name(path), "the server sent an event-log zip with nothing in it, as a "
            + "running driver UI does (it serves no event log); read the log from the application's spark.eventLog.dir, "
            + "or from a History Server once it lists the application");
      }
      return archive;
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  /** {@code tmp} emptied for a download; a failure is final (writing, not the server, failed). */
  private static OutputStream open(RestClient client, String path, Path tmp) {
    try {
      return Files.newOutputStream(tmp);
    } catch (IOException e) {
      throw new SparkRcaException("cannot write the event log of " + client.name(path) + " to " + tmp + ": " + e.getMessage(), e);
    }
  }

  /** The entries, by name. */
  public List<String> entryNames() {
    return List.copyOf(entries.keySet());
  }

  /** Replays the event log the archive holds. */
  public ReplayedApplication replay() {
    ByteSources sources = ByteSources.builder().add(new Provider()).build();
    EventLogReader reader = EventLogs.reader().sources(sources).build();
    List<EventLogRef> logs = reader.find(SCHEME);
    if (logs.size() != 1) {
      throw new CorruptInputException(source + " holds " + logs.size() + " event logs (" + entries.keySet()
          + "), expected one");
    }
    return reader.replay(logs.get(0));
  }

  @Override
  public void close() {
    try {
      zip.close();
    } catch (IOException ignored) {
      // deleted below anyway
    }
    deleteQuietly(file);
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      p.toFile().deleteOnExit();
    }
  }

  private static boolean safe(String name) {
    return !name.startsWith("/") && !name.contains("..") && !name.contains("\\") && !name.isEmpty();
  }

  /** The archive's entries as byte sources, under {@value #SCHEME}. */
  private final class Provider implements ByteSourceProvider {
    @Override
    public boolean supports(String uri) {
      return uri.startsWith(SCHEME);
    }

    private String entryName(String uri) {
      String n = uri.substring(SCHEME.length());
      while (n.endsWith("/")) {
        n = n.substring(0, n.length() - 1);
      }
      return n;
    }

    @Override
    public ByteSource open(String uri) throws IOException {
      ZipArchiveEntry e = entries.get(entryName(uri));
      if (e == null) {
        throw new InputNotFoundException(source + "!/" + entryName(uri), "the archive has no such entry");
      }
      return new EntrySource(e, source + "!/" + e.getName());
    }

    @Override
    public List<SourceEntry> list(String uri) {
      String dir = entryName(uri);
      String prefix = dir.isEmpty() ? "" : dir + "/";
      TreeSet<String> dirs = new TreeSet<>();
      List<SourceEntry> out = new ArrayList<>();
      for (ZipArchiveEntry e : entries.values()) {
        String n = e.getName();
        if (!n.startsWith(prefix)) {
          continue;
        }
        String rest = n.substring(prefix.length());
        int slash = rest.indexOf('/');
        if (slash >= 0) {
          dirs.add(rest.substring(0, slash));
        } else {
          out.add(new SourceEntry(SCHEME + n, rest, false,
              e.getSize() >= 0 ? OptionalLong.of(e.getSize()) : OptionalLong.empty()));
        }
      }
      for (String d : dirs) {
        out.add(new SourceEntry(SCHEME + prefix + d, d, true, OptionalLong.empty()));
      }
      return out;
    }

    @Override
    public boolean isDirectory(String uri) {
      String dir = entryName(uri);
      if (dir.isEmpty()) {
        return true;
      }
      String prefix = dir + "/";
      String next = entries.ceilingKey(prefix);
      return next != null && next.startsWith(prefix);
    }
  }

  /** One entry, streamed out of the zip (a ranged read skips to its offset). */
  private final class EntrySource implements ByteSource {
    private final ZipArchiveEntry entry;
    private final String name;

    EntrySource(ZipArchiveEntry entry, String name) {
      this.entry = entry;
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public OptionalLong size() {
      return entry.getSize() >= 0 ? OptionalLong.of(entry.getSize()) : OptionalLong.empty();
    }

    @Override
    public InputStream openStream(long offset) throws IOException {
      InputStream in = zip.getInputStream(entry);
      long left = offset;
      while (left > 0) {
        long s = in.skip(left);
        if (s <= 0) {
          if (in.read() < 0) {
            break; // past the end: an empty stream
          }
          s = 1;
        }
        left -= s;
      }
      return in;
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      try (InputStream in = openStream(offset)) {
        return in.readNBytes(length);
      }
    }
  }
}

package io.sparkrca.core.eventlog;

import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The applications of an event-log directory, listed the way the History Server lists them
 * (attempts of one application merged, newest first; applications by end time, newest first).
 * Listing reads only each log's start and end events; applications are replayed on demand and a
 * few replayed applications are cached.
 *
 * <pre>{@code
 * EventLogHistory h = EventLogs.reader().build().history("/tmp/spark-events");
 * h.applications().forEach(a -> System.out.println(a.id()));
 * h.skipped().forEach(System.err::println); // logs that could not be read, and why
 * }</pre>
 */
public final class EventLogHistory implements SparkHistory {
  static final int CACHED_APPS = 4;

  private final EventLogReader reader;
  private final List<EventLogRef> logs;
  private final Optional<String> location;
  private final int cachedApps;
  private List<Entry> listing;
  private final List<String> skipped = new ArrayList<>();
  // What each listed log looked like (its files' sizes and times) when it was listed.
  private final Map<EventLogRef, String> fingerprints = new java.util.HashMap<>();
  private final Map<EventLogRef, ReplayedApplication> cache;

  EventLogHistory(EventLogReader reader, List<EventLogRef> logs) {
    this(reader, logs, Optional.empty(), CACHED_APPS);
  }

  EventLogHistory(EventLogReader reader, List<EventLogRef> logs, Optional<String> location, int cachedApps) {
    this.reader = reader;
    this.logs = List.copyOf(logs);
    this.location = location;
    this.cachedApps = cachedApps;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<EventLogRef, ReplayedApplication> eldest) {
        return size() > EventLogHistory.this.cachedApps;
      }
    };
  }

  /**
   * The history of the same location as it is now, for a long-running reader such as a server:
   * new logs are listed, logs that grew or changed (a running application's, a rolling log's new
   * file) are listed and replayed again, and the listing and cached replays of unchanged logs are
   * reused. Costs one directory listing and one size and time look-up per log file.
   *
   * @throws io.sparkrca.core.error.InvalidRequestException for a history made from a list of logs
   *     rather than a location
   */
  public synchronized EventLogHistory refresh() {
    String where = location.orElseThrow(() -> new io.sparkrca.core.error.InvalidRequestException(
        "this history was made from a list of logs, not a location, so it cannot be refreshed"));
    EventLogHistory next = new EventLogHistory(reader, reader.find(where), location, cachedApps);
    listing();
    Map<EventLogRef, Entry> old = new java.util.HashMap<>();
    for (Entry e : listing) {
      old.put(e.ref, e);
    }
    List<Entry> entries = new ArrayList<>();
    for (EventLogRef ref : next.logs) {
      String print = fingerprint(ref);
      Entry previous = old.get(ref);
      if (previous != null && print.equals(fingerprints.get(ref))) {
        entries.add(previous);
        ReplayedApplication replayed = cache.get(ref);
        if (replayed != null) {
          next.cache.put(ref, replayed);
        }
      } else {
        list(ref, entries, next.skipped);
      }
      next.fingerprints.put(ref, print);
    }
    next.listing = entries;
    return next;
  }

  private String fingerprint(EventLogRef ref) {
    StringBuilder sb = new StringBuilder();
    for (String file : ref.files()) {
      try {
        io.sparkrca.core.io.ByteSource b = reader.sources().open(file);
        sb.append(file).append(':').append(b.size().orElse(-1)).append(':')
            .append(b.lastModified().map(java.time.Instant::toEpochMilli).orElse(-1L)).append(';');
      } catch (java.io.IOException | SparkRcaException e) {
        sb.append(file).append(":?;"); // unreadable now: listed again, and says why there
      }
    }
    return sb.toString();
  }

  /** The logs found. */
  public List<EventLogRef> logs() {
    return logs;
  }

  /** Logs left out of the listing because they could not be read, with the reason. */
  public synchronized List<String> skipped() {
    listing();
    return List.copyOf(skipped);
  }

  @Override
  public synchronized List<ApplicationInfo> applications() {
    Map<String, List<Entry>> byApp = new LinkedHashMap<>();
    for (Entry e : listing()) {
      byApp.computeIfAbsent(e.appId, k -> new ArrayList<>()).add(e);
    }
    List<ApplicationInfo> apps = new ArrayList<>();
    for (Map.Entry<String, List<Entry>> app : byApp.entrySet()) {
      List<Entry> attempts = new ArrayList<>(app.getValue());
      attempts.sort(Comparator.comparing((Entry e) -> e.attempt.startTime()).reversed());
      List<ApplicationAttemptInfo> infos = new ArrayList<>();
      for (Entry e : attempts) {
        infos.add(e.attempt);
      }
      Entry last = app.getValue().get(app.getValue().size() - 1);
      apps.add(
          new ApplicationInfo(
              app.getKey(), last.name, Optional.empty(), Optional.empty(), Optional.empty(),
              Optional.empty(), infos));
    }
    apps.sort(
        Comparator.comparingLong((ApplicationInfo a) -> a.attempts().get(0).endTimeEpoch())
            .thenComparing(ApplicationInfo::id)
            .reversed());
    return apps;
  }

  @Override
  public synchronized Optional<ReplayedApplication> application(
      String appId, Optional<String> attemptId) {
    for (Entry e : listing()) {
      if (e.appId.equals(appId) && e.attempt.attemptId().equals(attemptId)) {
        return Optional.of(replay(e.ref));
      }
    }
    return Optional.empty();
  }

  private ReplayedApplication replay(EventLogRef ref) {
    ReplayedApplication app = cache.get(ref);
    if (app == null) {
      app = reader.replay(ref);
      cache.put(ref, app);
    }
    return app;
  }

  private List<Entry> listing() {
    if (listing == null) {
      List<Entry> entries = new ArrayList<>();
      for (EventLogRef ref : logs) {
        try {
          if (location.isPresent()) {
            fingerprints.put(ref, fingerprint(ref));
          }
        } catch (SparkRcaException e) {
          skipped.add(ref.uri() + ": " + e.getMessage());
          continue;
        }
        list(ref, entries, skipped);
      }
      listing = entries;
    }
    return listing;
  }

  /**
   * Lists one log, or says in {@code skipped} why not: it could not be read, or it has no
   * application start event (cut before it, as a log copied while Spark was still writing its
   * environment can be). The History Server does not list such a log either; saying so is what
   * keeps an empty answer from looking like an empty directory.
   */
  private void list(EventLogRef ref, List<Entry> entries, List<String> skipped) {
    try {
      ListingScanner.Listing l = reader.scanListing(ref);
      if (l.attempt().startTime().toEpochMilli() < 0) {
        skipped.add(ref.uri() + ": has no application start event (the log was cut before it, or is not a whole "
            + "event log), so it is not listed, as the History Server would not list it");
        return;
      }
      entries.add(new Entry(ref, l.appId(), l.name(), l.attempt()));
    } catch (SparkRcaException e) {
      skipped.add(ref.uri() + ": " + e.getMessage());
    }
  }

  private static final class Entry {
    final EventLogRef ref;
    final String appId;
    final String name;
    final ApplicationAttemptInfo attempt;

    Entry(EventLogRef ref, String appId, String name, ApplicationAttemptInfo attempt) {
      this.ref = Objects.requireNonNull(ref);
      this.appId = appId;
      this.name = name;
      this.attempt = attempt;
    }
  }
}

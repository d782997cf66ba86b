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
  private static final int CACHED_APPS = 4;

  private final EventLogReader reader;
  private final List<EventLogRef> logs;
  private List<Entry> listing;
  private final List<String> skipped = new ArrayList<>();
  private final Map<EventLogRef, ReplayedApplication> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<EventLogRef, ReplayedApplication> eldest) {
          return size() > CACHED_APPS;
        }
      };

  EventLogHistory(EventLogReader reader, List<EventLogRef> logs) {
    this.reader = reader;
    this.logs = List.copyOf(logs);
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
          ListingScanner.Listing l = reader.scanListing(ref);
          entries.add(new Entry(ref, l.appId(), l.name(), l.attempt()));
        } catch (SparkRcaException e) {
          skipped.add(ref.uri() + ": " + e.getMessage());
        }
      }
      listing = entries;
    }
    return listing;
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

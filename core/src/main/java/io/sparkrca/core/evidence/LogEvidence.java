package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one log told: whose it is, how much of it was read, how often each failure signature
 * occurred, and bounded excerpts of the occurrences (the first few and the last of each
 * signature), with line numbers and times. A log is scanned once, as a stream, whatever its size.
 *
 * <pre>{@code
 * for (LogEvidence log : evidence.executorLogs()) {
 *   System.out.println(log.uri() + " (executor " + log.executorId().orElse("?") + "): "
 *       + log.count("JAVA_HEAP_OOM") + " heap OOMs");
 * }
 * }</pre>
 *
 * @param uri the log (credentials removed)
 * @param role whose log it is
 * @param channel stdout, stderr or unknown
 * @param executorId the executor's id, for an executor log whose id could be told
 * @param classifiedBy how the role was decided, e.g. {@code "given as a driver log"} or {@code
 *     "content: 'Starting executor ID 1'"}
 * @param bytes the size as stored, or -1 when unknown
 * @param codec the compression it was read with ({@code none}, {@code gzip}, ...)
 * @param linesScanned how many lines were read
 * @param signatureCounts occurrences of each signature id (every one, not only those excerpted)
 * @param excerpts the excerpts kept, in log order
 * @param excerptsCapped whether occurrences were left out of {@link #excerpts()} at the caps
 * @param firstTime the first time a line carried, when any did
 * @param lastTime the last time a line carried, when any did
 * @param lastLines the last lines of the log (at most {@value #MAX_LAST_LINES}): where a dying
 *     process usually says why
 * @param notes how reading went (a cut-off stream, a resolved driver output)
 */
public record LogEvidence(
    String uri,
    LogRole role,
    LogChannel channel,
    Optional<String> executorId,
    String classifiedBy,
    long bytes,
    String codec,
    long linesScanned,
    Map<String, Long> signatureCounts,
    List<LogExcerpt> excerpts,
    boolean excerptsCapped,
    Optional<LogTime> firstTime,
    Optional<LogTime> lastTime,
    List<String> lastLines,
    List<String> notes) {
  /** The most trailing lines kept. */
  public static final int MAX_LAST_LINES = 20;

  public LogEvidence {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(classifiedBy, "classifiedBy");
    Objects.requireNonNull(codec, "codec");
    signatureCounts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(signatureCounts));
    excerpts = List.copyOf(excerpts);
    Objects.requireNonNull(firstTime, "firstTime");
    Objects.requireNonNull(lastTime, "lastTime");
    lastLines = List.copyOf(lastLines);
    notes = List.copyOf(notes);
  }

  /**
   * Scans a log that a provider holds (a pod's log tail, a container's previous log) for {@code
   * signatures}, exactly as {@link EvidenceCollector} scans the logs it is given: in one streaming
   * pass, with bounded excerpts and the last lines. {@code executorId} and {@code classifiedBy}
   * state whose log it is when the provider knows (a pod's {@code spark-exec-id} label); the
   * source's name is the log's URI in the evidence (give it without credentials).
   *
   * <pre>{@code
   * LogEvidence log = LogEvidence.scan(ByteSource.of("k8s://spark/pods/etl-exec-1/log", bytes),
   *     LogRole.EXECUTOR, Optional.of("1"), "pod label spark-exec-id=1", LogSignatures.standard());
   * }</pre>
   */
  public static LogEvidence scan(io.sparkrca.core.io.ByteSource source, LogRole role, Optional<String> executorId,
      String classifiedBy, LogSignatures signatures) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(classifiedBy, "classifiedBy");
    Objects.requireNonNull(signatures, "signatures");
    LogEvidence l;
    try {
      l = io.sparkrca.core.evidence.internal.LogScanner.scan(source, Optional.of(role), signatures);
    } catch (java.io.IOException e) {
      throw io.sparkrca.core.error.IoErrors.translate(source.name(), e);
    }
    return new LogEvidence(l.uri(), role, l.channel(), executorId.isPresent() ? executorId : l.executorId(),
        classifiedBy.isEmpty() ? l.classifiedBy() : classifiedBy, l.bytes(), l.codec(), l.linesScanned(),
        l.signatureCounts(), l.excerpts(), l.excerptsCapped(), l.firstTime(), l.lastTime(), l.lastLines(), l.notes());
  }

  /** How many times signature {@code id} occurred. */
  public long count(String id) {
    return signatureCounts.getOrDefault(id, 0L);
  }

  /** The excerpts where signature {@code id} matched, in log order. */
  public List<LogExcerpt> excerpts(String id) {
    return excerpts.stream().filter(e -> e.matched(id)).toList();
  }
}

package io.sparkrca.kubernetes;

import io.sparkrca.core.evidence.LogEvidence;
import java.util.Objects;
import java.util.Optional;

/**
 * The tail of one container's log, current or previous ({@code previous=true}: the run before a
 * restart), read with a bound on lines and bytes, and what scanning it for the standard failure
 * signatures found.
 *
 * <pre>{@code
 * for (LogTail t : logs.logs()) {
 *   System.out.println(t.pod() + (t.previous() ? " (previous)" : "") + ": " + t.scan().signatureCounts());
 * }
 * }</pre>
 *
 * @param pod the pod
 * @param container the container
 * @param previous whether it is the previous run's log
 * @param executorId the executor ({@code driver} for the driver)
 * @param text the lines read, redacted
 * @param cut whether the byte cap cut the tail (older lines left out)
 * @param scan the signatures found in it, as for any other log
 */
public record LogTail(String pod, String container, boolean previous, Optional<String> executorId, String text,
    boolean cut, LogEvidence scan) {
  public LogTail {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(scan, "scan");
  }
}

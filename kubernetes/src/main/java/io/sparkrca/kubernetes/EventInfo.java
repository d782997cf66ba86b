package io.sparkrca.kubernetes;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One Kubernetes event about an application's pod, its node or its SparkApplication
 * ({@code OOMKilling}, {@code Evicted}, {@code FailedScheduling}, {@code BackOff}, {@code
 * Preempted}, {@code NodeNotReady}, {@code Killing}, ...). The API server keeps events for an hour
 * by default, so a finished application's events may be gone.
 *
 * <pre>{@code
 * events.events().stream().filter(EventInfo::warning).forEach(e -> System.out.println(e.reason() + ": " + e.message()));
 * }</pre>
 *
 * @param namespace where the event is stored (node events are in {@code default})
 * @param name the event object's name
 * @param involvedKind {@code Pod}, {@code Node}, {@code SparkApplication}
 * @param involvedName the pod, node or application it is about
 * @param type {@code Normal} or {@code Warning}
 * @param reason the reason
 * @param message the message, redacted
 * @param count how many times it happened
 * @param first when it first happened
 * @param last when it last happened
 * @param source the component that reported it (and its host)
 */
public record EventInfo(String namespace, String name, String involvedKind, String involvedName, String type,
    String reason, String message, int count, Optional<Instant> first, Optional<Instant> last, String source) {
  public EventInfo {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(involvedKind, "involvedKind");
    Objects.requireNonNull(involvedName, "involvedName");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(last, "last");
    Objects.requireNonNull(source, "source");
  }

  /** Whether it is a warning. */
  public boolean warning() {
    return type.equals("Warning");
  }

  /** When it happened: the last time, else the first. */
  public Optional<Instant> time() {
    return last.or(() -> first);
  }
}

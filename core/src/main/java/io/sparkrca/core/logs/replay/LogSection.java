package io.sparkrca.core.logs.replay;

import io.sparkrca.core.evidence.LogRole;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One log as it was read: a file, or one section of a file that holds several (a container's
 * {@code stderr} in {@code yarn logs} output, one pod's lines in a Cloud Logging export or a
 * {@code kubectl logs --prefix} capture), with its layout, whose it is, and what reading it found.
 *
 * <pre>{@code
 * app.sections().forEach(s -> System.out.println(s.name() + ": " + s.role() + " " + s.layout()));
 * }</pre>
 *
 * @param log the file, credentials removed
 * @param name the section's name: the log itself, or e.g. {@code container_..._000002/stderr}
 * @param layout how its lines were read, e.g. {@code log4j yy/MM/dd HH:mm:ss} or {@code Spark
 *     structured JSON}; wrappers are named first ({@code YARN aggregated > log4j ...})
 * @param role whose log it is, told by its content (then the name)
 * @param executorId the executor's id when it is an executor's log
 * @param host the host it ran on, when the log says
 * @param lines the lines of the section
 * @param records the records whose header was recognised
 * @param notes what went wrong or is worth knowing (unreadable lines, a cut-off end)
 */
public record LogSection(
    String log,
    String name,
    String layout,
    LogRole role,
    Optional<String> executorId,
    Optional<String> host,
    long lines,
    long records,
    List<String> notes) {
  public LogSection {
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(host, "host");
    notes = List.copyOf(notes);
  }
}

package io.sparkrca.core.app.internal;

import io.sparkrca.core.app.TaskFailureGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Folds failed task attempts into {@link TaskFailureGroup}s, bounded: at most {@link
 * io.sparkrca.core.app.ApplicationFacts#MAX_FAILURE_GROUPS} groups, {@link
 * TaskFailureGroup#MAX_LISTED} partitions, executors and hosts per group. Attempts that failed the
 * same way fold together even when they ran on different executors or hosts: the executor id, IP
 * addresses, ports and container ids in the text do not split a group (one executor loss reason on
 * four executors is one cause, not four).
 *
 * <p>Used by the event-log replay and by {@link FactsFromModel}, so both sources fold alike.
 */
public final class TaskFailureFolder {
  private static final Pattern EXECUTOR_ID = Pattern.compile("\\(executor [^ )]+ ");
  private static final Pattern REMOTE_EXECUTOR = Pattern.compile("executor\\(Id: [^)]*\\)");
  private static final Pattern ADDRESS =
      Pattern.compile("(?:[A-Za-z0-9.-]*/)?\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d+)?");
  private static final Pattern CONTAINER = Pattern.compile("container_[A-Za-z0-9_]+");

  private final int maxGroups;
  private final Map<String, Builder> groups = new LinkedHashMap<>();
  private long dropped;

  public TaskFailureFolder(int maxGroups) {
    this.maxGroups = maxGroups;
  }

  /** One failed or killed attempt. {@code detail} is asked for only for a group's first attempt. */
  public void add(
      String reason, String exceptionClass, String description, Supplier<String> detail,
      String source, long line, long time, long taskId, int stageId, int stageAttemptId, int index,
      int attempt, String executorId, String host) {
    String key = key(reason, description);
    Builder g = groups.get(key);
    if (g == null) {
      if (groups.size() >= maxGroups) {
        dropped++;
        return;
      }
      String text = detail.get();
      if (text != null && text.length() > TaskFailureGroup.MAX_DETAIL_CHARS) {
        text = text.substring(0, TaskFailureGroup.MAX_DETAIL_CHARS);
      }
      g = new Builder(reason, exceptionClass, description, text, source, line, time, taskId, stageId,
          stageAttemptId, index, attempt, executorId == null ? "" : executorId, host == null ? "" : host);
      groups.put(key, g);
    }
    g.count++;
    g.stageIds.add(stageId);
    if (g.partitions.size() < TaskFailureGroup.MAX_LISTED) {
      g.partitions.add(index);
    }
    if (executorId != null && g.executors.size() < TaskFailureGroup.MAX_LISTED) {
      g.executors.add(executorId);
    }
    if (host != null && g.hosts.size() < TaskFailureGroup.MAX_LISTED) {
      g.hosts.add(host);
    }
  }

  /** Failed attempts that fitted no kept group. */
  public long dropped() {
    return dropped;
  }

  /** The groups in order of first occurrence. */
  public List<TaskFailureGroup> groups() {
    List<TaskFailureGroup> out = new ArrayList<>(groups.size());
    for (Builder g : groups.values()) {
      out.add(new TaskFailureGroup(
          g.reason, g.exceptionClass, g.description, g.count, g.source, g.line, g.time, g.taskId,
          g.stageId, g.stageAttemptId, g.index, g.attempt, g.executorId, g.host,
          new ArrayList<>(g.stageIds), new ArrayList<>(g.partitions), new ArrayList<>(g.executors),
          new ArrayList<>(g.hosts), g.detail));
    }
    return out;
  }

  /** The folding key: the reason and its description without executor ids, addresses, containers. */
  static String key(String reason, String description) {
    String d = description == null ? "" : description;
    d = EXECUTOR_ID.matcher(d).replaceAll("(executor * ");
    d = REMOTE_EXECUTOR.matcher(d).replaceAll("executor(Id: *)");
    d = ADDRESS.matcher(d).replaceAll("*");
    d = CONTAINER.matcher(d).replaceAll("container_*");
    return reason + '\u0000' + d;
  }

  private static final class Builder {
    final String reason;
    final String exceptionClass;
    final String description;
    final String detail;
    final String source;
    final long line;
    final long time;
    final long taskId;
    final int stageId;
    final int stageAttemptId;
    final int index;
    final int attempt;
    final String executorId;
    final String host;
    long count;
    final TreeSet<Integer> stageIds = new TreeSet<>();
    final TreeSet<Integer> partitions = new TreeSet<>();
    final LinkedHashSet<String> executors = new LinkedHashSet<>();
    final LinkedHashSet<String> hosts = new LinkedHashSet<>();

    Builder(String reason, String exceptionClass, String description, String detail, String source,
        long line, long time, long taskId, int stageId, int stageAttemptId, int index, int attempt,
        String executorId, String host) {
      this.reason = reason;
      this.exceptionClass = exceptionClass;
      this.description = description;
      this.detail = detail;
      this.source = source;
      this.line = line;
      this.time = time;
      this.taskId = taskId;
      this.stageId = stageId;
      this.stageAttemptId = stageAttemptId;
      this.index = index;
      this.attempt = attempt;
      this.executorId = executorId;
      this.host = host;
    }
  }
}

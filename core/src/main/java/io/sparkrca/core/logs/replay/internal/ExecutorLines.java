package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.redaction.Redactor;

/**
 * Executors: registered, granted, lost and exited, from the lines of each cluster manager and
 * backend, Spark 2.4 to 4.x:
 *
 * <ul>
 *   <li>the driver's backend: {@code Registered executor NettyRpcEndpointRef(...) (10.0.0.5:45678)
 *       with ID 3}, {@code Requesting driver to remove executor 3 for reason ...}; the block
 *       manager's {@code Registering block manager host:port with 434.4 MiB RAM, BlockManagerId(3, host, port, None)};
 *   <li>{@code TaskSchedulerImpl}: {@code Lost executor 3 on host: reason} (the removal reason the
 *       History Server shows), {@code Executor 3 on host killed by driver.}, decommissions,
 *       {@code Initial job has not accepted any resources};
 *   <li>standalone: {@code Executor added: app-.../1 on worker-... (host:port) with 1 core(s)},
 *       {@code Granted executor ID app-.../1 on hostPort ... with 1 core(s), 512.0 MiB RAM}, {@code
 *       Executor updated: app-.../1 is now EXITED (Command exited with code 52)}, {@code Executor
 *       app-.../1 removed: ...};
 *   <li>YARN: {@code Launching container container_... on host h for executor with ID 3}, {@code
 *       Completed container container_... on host: h (state: COMPLETE, exit status: 143)}, {@code
 *       Container killed by YARN for exceeding physical memory limits ...}, {@code Container marked
 *       as failed: ...}, {@code Container from a bad node: ...}, preemptions;
 *   <li>Kubernetes: {@code The executor with id 3 exited with exit code 137(SIGKILL, possible container OOM).};
 *   <li>{@code HeartbeatReceiver}'s {@code Removing executor 1 with no recent heartbeats: ...};
 *   <li>the executor's own log: {@code Starting executor ID 3 on host h} (which also says whose log
 *       it is), {@code Driver commanded a shutdown}, {@code RECEIVED SIGNAL TERM}, {@code Executor
 *       self-exiting due to : ...}.
 * </ul>
 *
 * <pre>{@code
 * Pending p = executorLines.backend(section, head, scan);
 * }</pre>
 */
final class ExecutorLines {
  private static final byte[] REGISTERED_EXECUTOR = Scan.lit("Registered executor ");
  private static final byte[] WITH_ID = Scan.lit(") with ID ");
  private static final byte[] REQUESTING_REMOVE = Scan.lit("Requesting driver to remove executor ");
  private static final byte[] ASKED_REMOVE = Scan.lit("Asked to remove executor ");
  private static final byte[] FOR_REASON = Scan.lit(" for reason ");
  private static final byte[] WITH_REASON = Scan.lit(" with reason ");
  private static final byte[] REGISTERING_BLOCK_MANAGER = Scan.lit("Registering block manager ");
  private static final byte[] BLOCK_MANAGER_ID = Scan.lit("BlockManagerId(");
  private static final byte[] WITH = Scan.lit(" with ");
  private static final byte[] LOST_EXECUTOR = Scan.lit("Lost executor ");
  private static final byte[] ON = Scan.lit(" on ");
  private static final byte[] EXECUTOR = Scan.lit("Executor ");
  private static final byte[] KILLED_BY_DRIVER = Scan.lit(" killed by driver");
  private static final byte[] DECOMMISSION = Scan.lit("ecommission");
  private static final byte[] INITIAL_JOB = Scan.lit("Initial job has not accepted any resources");
  private static final byte[] EXECUTOR_ADDED = Scan.lit("Executor added: ");
  private static final byte[] EXECUTOR_UPDATED = Scan.lit("Executor updated: ");
  private static final byte[] IS_NOW = Scan.lit(" is now ");
  private static final byte[] GRANTED = Scan.lit("Granted executor ID ");
  private static final byte[] HOST_PORT = Scan.lit(" on hostPort ");
  private static final byte[] REMOVED = Scan.lit(" removed: ");
  private static final byte[] LAUNCHING_CONTAINER = Scan.lit("Launching container ");
  private static final byte[] ON_HOST = Scan.lit(" on host ");
  private static final byte[] FOR_EXECUTOR_WITH_ID = Scan.lit("for executor with ID ");
  private static final byte[] COMPLETED_CONTAINER = Scan.lit("Completed container ");
  private static final byte[] EXIT_STATUS = Scan.lit("exit status: ");
  private static final byte[] CONTAINER_KILLED = Scan.lit("Container killed by YARN");
  private static final byte[] CONTAINER_FAILED = Scan.lit("Container marked as failed: ");
  private static final byte[] CONTAINER_BAD_NODE = Scan.lit("Container from a bad node: ");
  private static final byte[] CONTAINER = Scan.lit("Container ");
  private static final byte[] PREEMPTED = Scan.lit(" was preempted");
  private static final byte[] EXECUTOR_WITH_ID = Scan.lit("The executor with id ");
  private static final byte[] NO_HEARTBEATS = Scan.lit("Removing executor ");
  private static final byte[] STARTING_EXECUTOR = Scan.lit("Starting executor ID ");
  private static final byte[] ON_HOST_SPACE = Scan.lit(" on host ");
  private static final byte[] SHUTDOWN = Scan.lit("Driver commanded a shutdown");
  private static final byte[] SIGNAL = Scan.lit("RECEIVED SIGNAL ");
  private static final byte[] SELF_EXITING = Scan.lit("Executor self-exiting");

  private final ModelState m;

  ExecutorLines(ModelState m) {
    this.m = m;
  }

  /** A driver backend's line ({@code ...DriverEndpoint}, {@code ...SchedulerBackend}, {@code ...ClientEndpoint}). */
  Pending backend(Section s, RecordHead h, Scan c) {
    if (c.skip(REGISTERED_EXECUTOR)) {
      int with = c.indexOf(WITH_ID, c.pos);
      if (with < 0) {
        return null;
      }
      int open = lastOpen(c, with);
      String address = open < 0 ? null : c.text(open + 1, with);
      c.pos = with + WITH_ID.length;
      String id = untilDelimiter(c);
      ExecutorState e = m.executor(id);
      e.added = h.time;
      e.active = true;
      e.addSection = s.index;
      e.addLine = h.line;
      if (e.host == null && address != null) {
        int colon = address.lastIndexOf(':');
        e.host = colon > 0 ? address.substring(0, colon) : address;
      }
      m.event(LogEvent.Kind.EXECUTOR_ADDED, id, h.time, h.message(), null, null, null, s, h.line);
      return Pending.DONE;
    }
    if (c.skip(REQUESTING_REMOVE) || c.skip(ASKED_REMOVE)) {
      String id = untilSpace(c);
      String reason = c.skip(FOR_REASON) || c.skip(WITH_REASON) ? c.rest() : "";
      ExecutorState e = m.executor(id);
      if (e.removeReason == null && !reason.isEmpty()) {
        e.removeReason = reason;
      }
      return Pending.DONE;
    }
    if (c.skip(EXECUTOR_ADDED)) {
      String id = appExecutor(c.until(' '));
      int open = c.indexOf('(', c.pos);
      int close = open < 0 ? -1 : c.indexOf(')', open);
      ExecutorState e = m.executor(id);
      if (close > open && e.hostPort == null) {
        String hostPort = c.text(open + 1, close);
        e.host = host(hostPort);
      }
      if (c.find(WITH)) {
        e.cores = Math.max(e.cores, c.integer());
      }
      return Pending.DONE;
    }
    if (c.skip(EXECUTOR_UPDATED)) {
      String id = appExecutor(c.until(' '));
      if (id == null || !c.skip(Scan.lit("is now "))) {
        return Pending.DONE;
      }
      String state = untilSpace(c);
      if (!"RUNNING".equals(state) && !"LAUNCHING".equals(state)) {
        String message = h.message();
        Integer code = exitCode(message);
        ExecutorState e = m.executor(id);
        if (code != null) {
          e.exitCode = code;
        }
        m.event(LogEvent.Kind.EXECUTOR_EXITED, id, h.time, message, code, null, null, s, h.line);
      }
      return Pending.DONE;
    }
    if (c.skip(GRANTED)) {
      String id = appExecutor(c.until(' '));
      ExecutorState e = m.executor(id);
      if (c.skip(Scan.lit("on hostPort "))) {
        String hostPort = untilSpace(c);
        e.host = host(hostPort);
      }
      if (c.skip(Scan.lit("with "))) {
        e.cores = Math.max(e.cores, c.integer());
      }
      return Pending.DONE;
    }
    if (c.skip(EXECUTOR)) {
      // standalone: "Executor app-.../1 removed: Command exited with code 52"
      String id = appExecutor(c.until(' '));
      int removed = c.indexOf(Scan.lit("removed: "), c.pos);
      if (id != null && removed == c.pos) {
        c.pos = removed + 9;
        ExecutorState e = m.executor(id);
        if (e.removeReason == null) {
          e.removeReason = c.rest();
        }
        return Pending.DONE;
      }
      return decommission(s, h, c);
    }
    return decommission(s, h, c);
  }

  /** A {@code TaskSchedulerImpl} line about executors. */
  Pending taskScheduler(Section s, RecordHead h, Scan c) {
    if (c.skip(LOST_EXECUTOR)) {
      String id = untilSpace(c);
      int colon = c.indexOf(Scan.lit(": "), c.pos);
      String reason = colon < 0 ? "" : c.text(colon + 2, c.end).strip();
      ExecutorState e = m.executor(id);
      removed(e, s, h, reason);
      Integer code = exitCode(reason);
      if (code != null) {
        e.exitCode = code;
      }
      String message = h.message();
      long time = h.time;
      long line = h.line;
      // Kubernetes' reason goes on for lines: the container statuses
      return (sec, continuation) -> {
        String full = Pending.join(message, continuation);
        if (!continuation.isEmpty()) {
          e.removeReason = Redactor.standard().redactText(Pending.join(reason, continuation));
        }
        m.event(LogEvent.Kind.EXECUTOR_REMOVED, id, time, full.length() > 2000 ? full.substring(0, 2000) : full,
            code != null ? code : exitCode(continuation), null, null, sec, line);
      };
    }
    if (c.skip(EXECUTOR)) {
      String id = untilSpace(c);
      if (c.indexOf(KILLED_BY_DRIVER, c.pos) >= 0) {
        removed(m.executor(id), s, h, "Executor killed by driver.");
        m.event(LogEvent.Kind.EXECUTOR_REMOVED, id, h.time, h.message(), null, null, null, s, h.line);
        return Pending.DONE;
      }
      if (c.indexOf(DECOMMISSION, c.pos) >= 0) {
        m.event(LogEvent.Kind.DECOMMISSIONED, id, h.time, h.message(), null, null, null, s, h.line);
        return Pending.DONE;
      }
      return null;
    }
    if (c.at(INITIAL_JOB)) {
      m.event(LogEvent.Kind.RESOURCES_NOT_ACCEPTED, null, h.time, h.message(), null, null, null, s, h.line);
      return Pending.DONE;
    }
    return decommission(s, h, c);
  }

  /** A {@code BlockManagerMasterEndpoint} line: where each executor's block manager is, and its memory. */
  Pending blockManager(Section s, RecordHead h, Scan c) {
    if (!c.skip(REGISTERING_BLOCK_MANAGER)) {
      return null;
    }
    String hostPort = untilSpace(c);
    long bytes = c.skip(Scan.lit("with ")) ? c.size() : -1;
    if (!c.find(BLOCK_MANAGER_ID)) {
      return Pending.DONE;
    }
    String id = c.until(',');
    if (id == null) {
      return Pending.DONE;
    }
    ExecutorState e = m.executor(id.strip());
    e.hostPort = hostPort;
    e.host = host(hostPort);
    if (bytes > 0) {
      e.maxMemory = bytes;
    }
    seen(e, s, h);
    return Pending.DONE;
  }

  /** A {@code YarnAllocator} line. */
  Pending yarnAllocator(Section s, RecordHead h, Scan c) {
    if (c.skip(LAUNCHING_CONTAINER)) {
      String container = untilSpace(c);
      String host = c.skip(Scan.lit("on host ")) ? untilSpace(c) : null;
      if (c.find(FOR_EXECUTOR_WITH_ID)) {
        String id = untilSpace(c);
        m.containerToExecutor.put(container, id);
        ExecutorState e = m.executor(id);
        e.container = container;
        if (e.host == null) {
          e.host = host;
        }
      }
      return Pending.DONE;
    }
    if (c.skip(COMPLETED_CONTAINER)) {
      String container = untilSpace(c);
      m.lastCompletedContainer = container;
      Integer code = null;
      if (c.find(EXIT_STATUS)) {
        // YARN's own statuses are negative: -104 killed for physical memory, -100 preempted...
        boolean negative = c.skip('-');
        long n = c.number();
        code = n < 0 ? null : (int) (negative ? -n : n);
      }
      String id = m.containerToExecutor.get(container);
      if (id != null && code != null) {
        m.executor(id).exitCode = code;
      }
      if (code != null && code != 0) {
        m.event(LogEvent.Kind.EXECUTOR_EXITED, id, h.time, h.message(), code, null, null, s, h.line);
      }
      return Pending.DONE;
    }
    if (c.at(CONTAINER_KILLED) || c.at(CONTAINER_FAILED) || c.at(CONTAINER_BAD_NODE)
        || c.at(CONTAINER) && c.indexOf(PREEMPTED, c.pos) >= 0) {
      String message = h.message();
      String container = containerIn(message);
      if (container == null) {
        container = m.lastCompletedContainer; // "Container killed by YARN ..." follows its "Completed container" line
      }
      String id = container == null ? null : m.containerToExecutor.get(container);
      Integer code = exitCode(message);
      if (id != null) {
        ExecutorState e = m.executor(id);
        if (e.removeReason == null) {
          e.removeReason = message;
        }
      }
      m.event(LogEvent.Kind.EXECUTOR_EXITED, id, h.time, message, code, null, null, s, h.line);
      return Pending.DONE;
    }
    return null;
  }

  /** A {@code HeartbeatReceiver} line. */
  Pending heartbeat(Section s, RecordHead h, Scan c) {
    if (c.skip(NO_HEARTBEATS)) {
      String id = untilSpace(c);
      m.event(LogEvent.Kind.HEARTBEAT_TIMEOUT, id, h.time, h.message(), null, null, null, s, h.line);
      return Pending.DONE;
    }
    return null;
  }

  /** An {@code Executor} line in an executor's own log that says whose log it is. */
  Pending executorStart(Section s, RecordHead h, Scan c) {
    if (!c.skip(STARTING_EXECUTOR)) {
      return null;
    }
    String id = untilSpace(c);
    String host = c.skip(Scan.lit("on host ")) ? c.rest().strip() : null;
    if ("driver".equals(id)) {
      tell(s, LogRole.DRIVER, null, "its content: 'Starting executor ID driver' (local mode)");
    } else {
      tell(s, LogRole.EXECUTOR, id, "its content: 'Starting executor ID " + id + "'");
    }
    if (host != null && s.host == null) {
      s.host = host;
    }
    ExecutorState e = m.executor(id);
    if (e.host == null) {
      e.host = host;
    }
    seen(e, s, h);
    return Pending.DONE;
  }

  /** An executor backend's line in the executor's own log. */
  Pending executorBackend(Section s, RecordHead h, Scan c) {
    if (s.role == LogRole.UNKNOWN || s.roleBy.startsWith("its name")) {
      tell(s, LogRole.EXECUTOR, s.executorId, "its content: the executor backend's lines");
    }
    if (c.at(SHUTDOWN) || c.at(SIGNAL) || c.at(SELF_EXITING)) {
      m.event(LogEvent.Kind.EXECUTOR_SHUTDOWN, s.executorId, h.time, h.message(), null, null, null, s, h.line);
      return h.isError() ? null : Pending.DONE;
    }
    return null;
  }

  /** Any line saying {@code The executor with id 3 exited with exit code 137}. */
  Pending kubernetes(Section s, RecordHead h, Scan c) {
    int at = c.indexOf(EXECUTOR_WITH_ID, c.pos);
    if (at < 0) {
      return null;
    }
    c.pos = at + EXECUTOR_WITH_ID.length;
    String id = untilSpace(c);
    String message = h.message();
    Integer code = exitCode(message);
    m.event(LogEvent.Kind.EXECUTOR_EXITED, id, h.time, message.strip(), code, null, null, s, h.line);
    if (code != null) {
      m.executor(id).exitCode = code;
    }
    return Pending.DONE;
  }

  private Pending decommission(Section s, RecordHead h, Scan c) {
    if (c.indexOf(DECOMMISSION, c.pos) >= 0 && c.indexOf(Scan.lit("xecutor"), 0) >= 0) {
      String message = h.message();
      m.event(LogEvent.Kind.DECOMMISSIONED, executorIn(message), h.time, message, null, null, null, s, h.line);
      return Pending.DONE;
    }
    return null;
  }

  /** An executor's first line, when no registration line came before it: its add time and line. */
  private static void seen(ExecutorState e, Section s, RecordHead h) {
    if (e.added == TimeParser.NO_TIME) {
      e.added = h.time;
      e.addSection = s.index;
      e.addLine = h.line;
    }
  }

  static void tell(Section s, LogRole role, String executorId, String by) {
    s.role = role;
    if (executorId != null) {
      s.executorId = executorId;
    }
    s.roleBy = by;
  }

  private void removed(ExecutorState e, Section s, RecordHead h, String reason) {
    e.active = false;
    e.removed = h.time;
    e.removeSection = s.index;
    e.removeLine = h.line;
    if (!reason.isEmpty()) {
      e.removeReason = Redactor.standard().redactText(reason);
    }
  }

  /** The exit code a reason gives: {@code exited with code 52}, {@code exit code 137}, {@code Exit status: 143}, {@code exitCode: 15}. */
  static Integer exitCode(String text) {
    if (text == null) {
      return null;
    }
    for (String marker : new String[] {"exited with code ", "exit code ", "Exit status: ", "exit status: ", "exitCode: ", "exitCode="}) {
      int i = text.indexOf(marker);
      if (i >= 0) {
        int p = i + marker.length();
        int q = p;
        if (q < text.length() && text.charAt(q) == '-') {
          q++;
        }
        while (q < text.length() && Character.isDigit(text.charAt(q))) {
          q++;
        }
        if (q > p && (q > p + 1 || text.charAt(p) != '-')) {
          try {
            return Integer.parseInt(text.substring(p, q));
          } catch (NumberFormatException e) {
            return null;
          }
        }
      }
    }
    return null;
  }

  /** {@code app-20240101-0001/3} as the executor id {@code 3}. */
  private static String appExecutor(String token) {
    if (token == null) {
      return null;
    }
    int slash = token.lastIndexOf('/');
    return slash >= 0 ? token.substring(slash + 1) : token;
  }

  private static String host(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return colon > 0 && hostPort.indexOf(']') < colon ? hostPort.substring(0, colon) : hostPort;
  }

  private static String containerIn(String message) {
    int i = message.indexOf("container_");
    if (i < 0) {
      return null;
    }
    int j = i;
    while (j < message.length() && (Character.isLetterOrDigit(message.charAt(j)) || message.charAt(j) == '_')) {
      j++;
    }
    return message.substring(i, j);
  }

  private static String executorIn(String message) {
    int i = message.indexOf("xecutor ");
    if (i < 0) {
      return null;
    }
    int p = i + 8;
    int q = p;
    while (q < message.length() && !Character.isWhitespace(message.charAt(q)) && message.charAt(q) != ',' && message.charAt(q) != ':') {
      q++;
    }
    return q > p ? message.substring(p, q) : null;
  }

  private static int lastOpen(Scan c, int before) {
    for (int i = before - 1; i >= c.pos; i--) {
      if (c.b[i] == '(') {
        return i;
      }
    }
    return -1;
  }

  private static String untilSpace(Scan c) {
    int start = c.pos;
    while (c.pos < c.end && c.b[c.pos] != ' ') {
      c.pos++;
    }
    String s = c.text(start, c.pos);
    c.skip(' ');
    return s;
  }

  private static String untilDelimiter(Scan c) {
    int start = c.pos;
    while (c.pos < c.end && c.b[c.pos] != ' ' && c.b[c.pos] != ',') {
      c.pos++;
    }
    return c.text(start, c.pos);
  }
}

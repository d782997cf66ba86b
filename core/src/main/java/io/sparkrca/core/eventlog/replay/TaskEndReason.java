package io.sparkrca.core.eventlog.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * The parsed {@code Task End Reason} of a task end event, reused between events. It renders the
 * error message exactly as Spark's {@code TaskEndReason.toErrorString} does.
 */
final class TaskEndReason {
  String reason = "Success";
  String className;
  String description;
  final List<String> stackTrace = new ArrayList<>();
  boolean stackTracePresent;
  String fullStackTrace;
  boolean hasBlockManager;
  String bmExecutorId;
  String bmHost;
  int bmPort;
  int shuffleId;
  long mapId;
  int mapIndex = Integer.MIN_VALUE;
  int reduceId;
  String message;
  String killReason;
  int commitJobId = -1;
  int commitPartitionId = -1;
  int commitAttemptNumber = -1;
  boolean exitCausedByApp = true;
  String lostExecutorId;
  String lossReason;

  void reset() {
    reason = "Success";
    className = null;
    description = null;
    stackTrace.clear();
    stackTracePresent = false;
    fullStackTrace = null;
    hasBlockManager = false;
    bmExecutorId = null;
    bmHost = null;
    bmPort = 0;
    shuffleId = 0;
    mapId = 0;
    mapIndex = Integer.MIN_VALUE;
    reduceId = 0;
    message = null;
    killReason = null;
    commitJobId = -1;
    commitPartitionId = -1;
    commitAttemptNumber = -1;
    exitCausedByApp = true;
    lostExecutorId = null;
    lossReason = null;
  }

  /** Whether anything but the reason's name differs from {@link #reset()}'s state. */
  boolean hasDetails() {
    return className != null || description != null || !stackTrace.isEmpty() || stackTracePresent
        || fullStackTrace != null || hasBlockManager || bmExecutorId != null || bmHost != null
        || bmPort != 0 || shuffleId != 0 || mapId != 0 || mapIndex != Integer.MIN_VALUE
        || reduceId != 0 || message != null || killReason != null || commitJobId != -1
        || commitPartitionId != -1 || commitAttemptNumber != -1 || !exitCausedByApp
        || lostExecutorId != null || lossReason != null;
  }

  boolean isSuccess() {
    return "Success".equals(reason);
  }

  boolean isKilled() {
    return "TaskKilled".equals(reason);
  }

  boolean isCommitDenied() {
    return "TaskCommitDenied".equals(reason);
  }

  boolean isResubmitted() {
    return "Resubmitted".equals(reason);
  }

  String killReasonOrDefault() {
    return killReason == null ? "unknown reason" : killReason;
  }

  /** The History Server's {@code errorMessage} for this reason; null for success. */
  String errorMessage() {
    switch (reason) {
      case "Success":
        return null;
      case "TaskKilled":
        return killReasonOrDefault();
      case "Resubmitted":
        return "Resubmitted (resubmitted due to lost executor)";
      case "FetchFailed":
        String bm =
            hasBlockManager
                ? "BlockManagerId(" + bmExecutorId + ", " + bmHost + ", " + bmPort + ", None)"
                : "null";
        String mapIndexText = mapIndex == Integer.MIN_VALUE ? "Unknown" : Integer.toString(mapIndex);
        return "FetchFailed(" + bm + ", shuffleId=" + shuffleId + ", mapIndex=" + mapIndexText
            + ", mapId=" + mapId + ", reduceId=" + reduceId + ", message=\n"
            + (message == null ? "Unknown reason" : message) + "\n)";
      case "ExceptionFailure":
        if (fullStackTrace != null) {
          return fullStackTrace;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(className).append(": ").append(description == null ? "" : description).append('\n');
        for (int i = 0; i < stackTrace.size(); i++) {
          if (i > 0) {
            sb.append('\n');
          }
          sb.append("        ").append(stackTrace.get(i));
        }
        return sb.toString();
      case "TaskResultLost":
        return "TaskResultLost (result lost from block manager)";
      case "TaskCommitDenied":
        return commitDeniedText();
      case "ExecutorLostFailure":
        return "ExecutorLostFailure (executor "
            + (lostExecutorId == null ? "Unknown" : lostExecutorId)
            + " exited "
            + (exitCausedByApp ? "caused by one of the running tasks" : "unrelated to the running tasks")
            + ")"
            + (lossReason == null ? "" : " Reason: " + lossReason);
      case "UnknownReason":
        return "UnknownReason";
      default:
        return reason;
    }
  }

  String commitDeniedText() {
    return "TaskCommitDenied (Driver denied task commit) for job: " + commitJobId + ", partition: "
        + commitPartitionId + ", attemptNumber: " + commitAttemptNumber;
  }

  /** A short "Class: message" for summaries: the exception, or the reason and its detail. */
  String shortDescription() {
    // One line, whatever the reason: multi-line messages (a kill reason quoting a stage failure,
    // an exception message with a plan) are in the full error message.
    switch (reason) {
      case "ExceptionFailure":
        if (className != null) {
          return firstLine(className + (description == null || description.isEmpty() ? "" : ": " + description));
        }
        return firstLine(fullStackTrace == null ? "" : fullStackTrace);
      case "FetchFailed":
        return "FetchFailed: " + (message == null ? "Unknown reason" : firstLine(message));
      case "ExecutorLostFailure":
        return firstLine(errorMessage());
      case "TaskKilled":
        return "TaskKilled: " + firstLine(killReasonOrDefault());
      default:
        String m = errorMessage();
        return m == null ? reason : firstLine(m);
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl >= 0 ? s.substring(0, nl) : s;
  }
}

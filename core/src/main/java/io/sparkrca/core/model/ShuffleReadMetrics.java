package io.sparkrca.core.model;

/** Shuffle read metrics of a task. */
public record ShuffleReadMetrics(
    long remoteBlocksFetched,
    long localBlocksFetched,
    long fetchWaitTime,
    long remoteBytesRead,
    long remoteBytesReadToDisk,
    long localBytesRead,
    long recordsRead,
    long remoteReqsDuration,
    ShufflePushReadMetrics shufflePushReadMetrics) {

  /** Local plus remote bytes: what the UI calls "Shuffle Read". */
  public long totalBytesRead() {
    return localBytesRead + remoteBytesRead;
  }
}

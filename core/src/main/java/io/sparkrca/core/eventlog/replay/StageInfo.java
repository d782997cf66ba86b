package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.AccumulableInfo;
import java.util.List;
import java.util.Optional;

/** Spark's {@code StageInfo} as an event carries it. */
record StageInfo(
    int stageId,
    int attemptId,
    String name,
    int numTasks,
    List<Integer> rddIds,
    List<RddInfo> rddInfos,
    List<Integer> parentIds,
    String details,
    Optional<Long> submissionTime,
    Optional<Long> completionTime,
    Optional<String> failureReason,
    List<AccumulableInfo> accumulables,
    long accumulatedMemorySpill,
    long accumulatedDiskSpill,
    int resourceProfileId,
    boolean isShufflePushEnabled,
    int shuffleMergerCount) {}

package io.sparkrca.rules;

/**
 * One flagged stage attempt of a violation.
 *
 * <pre>{@code
 * violation.stages().forEach(f -> System.out.println(f.stageId() + "." + f.stageAttemptId() + ": " + f.detail()));
 * }</pre>
 *
 * @param stageId the stage
 * @param stageAttemptId the attempt (0 for the first)
 * @param detail the rule's rendered detail, or {@code Rule expression matched.}
 */
public record StageFinding(long stageId, int stageAttemptId, String detail) {}

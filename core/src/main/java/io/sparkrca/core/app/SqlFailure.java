package io.sparkrca.core.app;

/**
 * A SQL execution (query) that ended with an error: Spark 3.4+ writes the error on the execution's
 * end event, and it is often the only place that names the cause of a failure outside any task
 * (a failed job commit, an analysis error in a later query).
 *
 * <pre>{@code
 * app.facts().sqlFailures().forEach(f -> System.out.println(f.executionId() + ": " + f.errorMessage()));
 * }</pre>
 *
 * @param errorMessage the error as Spark recorded it (a stack trace, possibly long), at most
 *     {@value TaskFailureGroup#MAX_DETAIL_CHARS} characters
 * @param time when the execution ended (epoch ms), or -1
 * @param line the line of its end event in {@code source}, 0 when the source has no lines
 */
public record SqlFailure(
    long executionId, String description, String errorMessage, long time, String source, long line) {}

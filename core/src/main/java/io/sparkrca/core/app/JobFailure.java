package io.sparkrca.core.app;

/**
 * A job that ended with an error, with the exception Spark recorded on its end event: its message
 * and stack trace, which name what ended it when no task failed (a job cancelled because its
 * {@code SparkContext} was stopped, and by which thread).
 *
 * <pre>{@code
 * app.facts().jobFailures().forEach(f -> System.out.println("job " + f.jobId() + ": " + f.error()));
 * }</pre>
 *
 * @param error the exception's message, then its stack trace one {@code at} frame a line, at most
 *     {@value TaskFailureGroup#MAX_DETAIL_CHARS} characters; empty when the log records none
 * @param time when the job ended (epoch ms), or -1
 * @param line the line of its end event in {@code source}, 0 when the source has no lines
 */
public record JobFailure(int jobId, String error, long time, String source, long line) {}

package io.sparkrca.core.eventlog.replay;

/**
 * A log line that could not be applied, and why.
 *
 * @param source the file it came from
 * @param lineNumber 1-based, within that file
 * @param reason e.g. "not JSON: Unexpected character ('x')" or "'Task ID' should be a number"
 */
public record BadLine(String source, long lineNumber, String reason) {}

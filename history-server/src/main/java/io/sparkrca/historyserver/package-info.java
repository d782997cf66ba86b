/**
 * A provider that reads applications from a running Spark History Server or a live driver UI
 * through the {@code /api/v1} REST API, with authentication headers, custom CAs, discovery and
 * bounded fetch profiles. It yields the same core model as event-log replay.
 */
package io.sparkrca.historyserver;

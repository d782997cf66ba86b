/**
 * The application model: immutable records that mirror the Spark History Server REST API v1
 * ({@code /api/v1}) field for field, so that every source (event-log replay, a History Server, a
 * Dataproc {@code sparkApplications} call, a live driver UI) yields the same values, and so that
 * {@link io.sparkrca.core.json.SparkJson} writes exactly the JSON the History Server writes.
 *
 * <p>Conventions: optional values are {@link java.util.Optional}; absent optionals are omitted from
 * JSON, as the History Server omits {@code None}. Times are {@link java.time.Instant}s written as
 * {@code 2015-02-03T16:42:59.720GMT}. Collections are never null and are unmodifiable.
 */
package io.sparkrca.core.model;

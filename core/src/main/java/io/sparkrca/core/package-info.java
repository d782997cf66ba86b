/**
 * The sparkrca core: the application model (mirroring the Spark History Server REST API v1),
 * byte sources, event-log reading and replay, and the provider interfaces other modules plug into.
 * It depends on no cloud SDK.
 */
package io.sparkrca.core;

/**
 * The Spark History Server REST API ({@code /api/v1}) answered from any {@link
 * io.sparkrca.core.app.SparkHistory}: {@link io.sparkrca.core.api.RestRouter}.
 */
package io.sparkrca.core.api;

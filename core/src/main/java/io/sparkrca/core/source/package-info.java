/**
 * Where applications come from: the {@link io.sparkrca.core.source.SparkHistoryProvider} SPI
 * through which a source (event logs, a History Server, Dataproc, ...) yields the one application
 * model, {@link io.sparkrca.core.source.SourceSettings} shared by every source, and {@link
 * io.sparkrca.core.source.SparkSources}, which picks the provider for a URI.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("/tmp/spark-events/app-1.zstd");
 * }</pre>
 */
package io.sparkrca.core.source;

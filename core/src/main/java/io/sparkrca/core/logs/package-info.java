/**
 * {@link io.sparkrca.core.logs.LogStream}: read, tail, search and slice logs of any size, local or
 * remote, compressed or not, in bounded memory. Results are immutable records ({@link
 * io.sparkrca.core.logs.LogLines}, {@link io.sparkrca.core.logs.SearchResult}, ...).
 *
 * <pre>{@code
 * LogStream log = LogStream.open("/var/log/spark/driver.log.gz");
 * SearchResult r = log.search(SearchQuery.regex("OutOfMemoryError").withContext(2));
 * }</pre>
 */
package io.sparkrca.core.logs;

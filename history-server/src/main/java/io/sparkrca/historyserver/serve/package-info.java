/**
 * {@link io.sparkrca.historyserver.serve.HistoryApiServer}: the Spark History Server's REST API
 * served over event logs, without a History Server.
 *
 * <pre>{@code
 * HistoryApiServer s = HistoryApiServer.builder("/tmp/spark-events").port(0).build().start();
 * }</pre>
 */
package io.sparkrca.historyserver.serve;

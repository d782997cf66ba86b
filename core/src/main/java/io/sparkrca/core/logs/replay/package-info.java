/**
 * An application rebuilt from the logs Spark writes, for when there is no event log: {@link
 * io.sparkrca.core.logs.replay.LogReplay} reads driver and executor logs of any layout (log4j 1
 * and 2 patterns of Spark 2.4 to 4.x, Spark 4's structured JSON, YARN aggregated logs, Airflow task
 * logs, {@code kubectl logs}, Dataproc driver output, Cloud Logging exports) into a {@link
 * io.sparkrca.core.logs.replay.LogApplication}, which answers like any {@link
 * io.sparkrca.core.app.SparkApplication} and cites the line each fact came from.
 *
 * <pre>{@code
 * LogApplication app = LogReplay.builder().build().read(List.of("driver.log", "executor-logs/"));
 * System.out.println(app.outcome().status() + ": " + app.outcome().reason());
 * }</pre>
 */
package io.sparkrca.core.logs.replay;

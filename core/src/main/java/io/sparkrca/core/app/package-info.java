/**
 * The source-independent view of applications: {@link io.sparkrca.core.app.SparkApplication} (one
 * attempt, answering the History Server's questions) and {@link io.sparkrca.core.app.SparkHistory}
 * (a set of applications), with their query types.
 */
package io.sparkrca.core.app;

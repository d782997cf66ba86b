/**
 * sparkrca on Spark itself: {@link io.sparkrca.spark.FleetJob} analyses a whole fleet of event logs
 * as a Spark job over any Hadoop file system, {@link io.sparkrca.spark.RcaListener} diagnoses the
 * application it is attached to when it ends, and {@link io.sparkrca.spark.HadoopByteSourceProvider}
 * lets core read logs through Hadoop's file systems.
 */
package io.sparkrca.spark;

package io.sparkrca.spark.examples;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.spark.FleetJob;
import io.sparkrca.spark.HadoopByteSourceProvider;
import org.apache.spark.sql.SparkSession;

/** The Javadoc examples of {@code io.sparkrca.spark}, compiled (see {@link JavadocExamplesTest}). */
class SparkExamples {
  /** The example of {@code FleetJob}. */
  void fleetJob(SparkSession spark) throws Exception {
    FleetJob.Result r = FleetJob.builder()
        .root("gs://bucket/spark-events/")
        .output("gs://bucket/sparkrca/fleet")
        .build()
        .run(spark);
    System.out.println(r.rows() + " applications, " + r.errors() + " unreadable");
  }

  /** The example of {@code HadoopByteSourceProvider}. */
  void hadoopByteSourceProvider(SparkSession spark) throws Exception {
    ByteSources sources = ByteSources.builder()
        .add(new HadoopByteSourceProvider(spark.sparkContext().hadoopConfiguration()))
        .build();
    FleetLogs.Listing logs = FleetLogs.discover(sources, "s3a://bucket/spark-events/");
  }
}

package io.sparkrca.gcp.examples;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.logs.LogLines;
import io.sparkrca.core.logs.LogStream;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.storage.GcsByteSourceProvider;
import io.sparkrca.gcp.storage.GcsUri;

/** The Javadoc examples of {@code io.sparkrca.gcp.storage}, compiled (see {@link JavadocExamplesTest}). */
class StorageExamples {
  /** The example of {@code GcsByteSourceProvider}. */
  void gcsByteSourceProvider() throws Exception {
    ByteSources bytes = ByteSources.builder().add(GcsByteSourceProvider.of(GcpSettings.defaults())).build();
    LogLines last = LogStream.builder().sources(bytes).build("gs://bucket/logs/driver.log").tail(100);
  }

  /** The example of {@code GcsUri}. */
  void gcsUri() throws Exception {
    GcsUri u = GcsUri.parse("https://storage.googleapis.com/my-bucket/logs/driver.log");
    u.bucket();   // "my-bucket"
    u.object();   // "logs/driver.log"
    u.toString(); // "gs://my-bucket/logs/driver.log"
  }
}

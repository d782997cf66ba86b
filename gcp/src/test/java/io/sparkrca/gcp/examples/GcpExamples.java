package io.sparkrca.gcp.examples;

import io.sparkrca.gcp.GcpSettings;

/** The Javadoc examples of {@code io.sparkrca.gcp}, compiled (see {@link JavadocExamplesTest}). */
class GcpExamples {
  /** The example of {@code GcpSettings}. */
  void gcpSettings() throws Exception {
    GcpSettings gcp = GcpSettings.builder().project("my-project").region("europe-west1").build();
    GcpSettings fake = GcpSettings.builder().project("p").region("r")
        .sparkApplicationsEndpoint("http://127.0.0.1:8089").storageEndpoint("http://127.0.0.1:4443").build();
  }
}

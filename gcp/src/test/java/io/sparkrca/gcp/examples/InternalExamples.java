package io.sparkrca.gcp.examples;

import com.google.cloud.dataproc.v1.BatchControllerSettings;
import io.sparkrca.gcp.internal.Deadlines;
import java.time.Duration;

/** The Javadoc examples of {@code io.sparkrca.gcp.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code Deadlines}. */
  void deadlines() throws Exception {
    BatchControllerSettings.Builder b = BatchControllerSettings.newBuilder();
    b.applyToAllUnaryMethods(Deadlines.within(Duration.ofSeconds(60)));
  }
}

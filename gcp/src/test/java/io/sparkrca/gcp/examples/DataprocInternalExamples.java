package io.sparkrca.gcp.examples;

import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.gcp.dataproc.internal.DataprocReads;
import java.util.Map;

/** The Javadoc examples of {@code io.sparkrca.gcp.dataproc.internal}, compiled (see {@link JavadocExamplesTest}). */
class DataprocInternalExamples {
  /** The example of {@code DataprocReads}. */
  void dataprocReads() throws Exception {
    String json = new DataprocReads().read("dataproc_view",
        new ReadArguments("dataproc_view", Map.of("batch", "b-1", "action", "stages")), SourceSettings.defaults());
  }
}

package io.sparkrca.historyserver.examples;

import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.historyserver.internal.HistoryServerReads;
import java.util.Map;

/** The Javadoc examples of {@code io.sparkrca.historyserver.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code HistoryServerReads}. */
  void historyServerReads() throws Exception {
    String json = new HistoryServerReads().read("shs_profile",
        new ReadArguments("shs_profile", Map.of("app", "app-1", "profile", "failure")), SourceSettings.defaults());
  }
}

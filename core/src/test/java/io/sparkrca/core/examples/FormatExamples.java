package io.sparkrca.core.examples;

import io.sparkrca.core.format.Formats;
import io.sparkrca.core.model.StageData;

/** The Javadoc examples of {@code io.sparkrca.core.format}, compiled (see {@link JavadocExamplesTest}). */
class FormatExamples {
  /** The example of {@code Formats}. */
  void formats(StageData stage) throws Exception {
    String size = Formats.humanBytes(stage.diskBytesSpilled());
  }

  /** The example of {@code io.sparkrca.core.format}. */
  void overview() throws Exception {
    String spill = Formats.humanBytes(1536);   // "1.5 KiB"
    String took = Formats.humanMillis(90_000); // "1.5 min"
  }
}

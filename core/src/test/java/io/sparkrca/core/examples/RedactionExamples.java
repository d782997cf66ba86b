package io.sparkrca.core.examples;

import io.sparkrca.core.redaction.Redactor;

/** The Javadoc examples of {@code io.sparkrca.core.redaction}, compiled (see {@link JavadocExamplesTest}). */
class RedactionExamples {
  /** The example of {@code Redactor}. */
  void redactor() throws Exception {
    Redactor r = Redactor.standard();
    r.redactProperty("spark.hadoop.fs.s3a.secret.key", "abc");   // "*********(redacted)"
    r.redactText("jdbc:postgresql://h/db?user=a&password=hunter2"); // "...password=*********(redacted)"
    Redactor.redactUri("https://user:pw@host/x");                // "https://***@host/x"
  }
}

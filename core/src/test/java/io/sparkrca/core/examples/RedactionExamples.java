package io.sparkrca.core.examples;

import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.redaction.SecretPatterns;

/** The Javadoc examples of {@code io.sparkrca.core.redaction}, compiled (see {@link JavadocExamplesTest}). */
class RedactionExamples {
  /** The example of {@code Redactor}. */
  void redactor() throws Exception {
    Redactor r = Redactor.standard();
    r.redactProperty("spark.hadoop.fs.s3a.secret.key", "abc");   // "*********(redacted)"
    r.redactText("jdbc:postgresql://h/db?user=a&password=hunter2"); // "...password=*********(redacted)"
    Redactor.redactUri("https://user:pw@host/x");                // "https://***@host/x"
  }

  /** The example of {@code Redactor.redactValue}. */
  void redactValue() throws Exception {
    Redactor.standard().redactValue("insert into t select 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'");
        // "insert into t select '*********(redacted)'"
  }

  /** The example of {@code SecretPatterns}. */
  void secretPatterns() throws Exception {
    SecretPatterns.redact("spark.app.name=nightly AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW");
        // "spark.app.name=nightly *********(redacted)"
    for (SecretPatterns.Kind k : SecretPatterns.catalogue()) {
      System.out.println(k.name() + ": " + k.format());
    }
  }

  /** The example of {@code Redactor.redactJson}. */
  void redactJson() throws Exception {
    Redactor.standard().redactJson("{\"description\": \"load dapi0123456789abcdef0123456789abcdef\"}");
        // {"description" : "load *********(redacted)"} (pretty-printed)
  }
}

package io.sparkrca.gcp.examples;

import com.google.cloud.dataproc.v1.BatchControllerSettings;
import io.sparkrca.gcp.internal.CappedBody;
import io.sparkrca.gcp.internal.Deadlines;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The Javadoc examples of {@code io.sparkrca.gcp.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code CappedBody}. */
  void cappedBody(HttpClient http, HttpRequest request) throws Exception {
    HttpResponse<byte[]> r = http.send(request, CappedBody.handler(64L << 20));
  }

  /** The example of {@code Deadlines}. */
  void deadlines() throws Exception {
    BatchControllerSettings.Builder b = BatchControllerSettings.newBuilder();
    b.applyToAllUnaryMethods(Deadlines.within(Duration.ofSeconds(60)));
  }
}

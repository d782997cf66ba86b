package io.sparkrca.kubernetes.examples;

import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.kubernetes.internal.KubernetesReads;
import java.util.Map;

/** The Javadoc examples of {@code io.sparkrca.kubernetes.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code KubernetesReads}. */
  void kubernetesReads() throws Exception {
    String json = new KubernetesReads().read("k8s_pods",
        new ReadArguments("k8s_pods", Map.of("appId", "spark-1")), SourceSettings.defaults());
  }
}

/**
 * The Kubernetes provider (fabric8 kubernetes-client): a Spark application's driver and executor
 * pods (by Spark's {@code spark-app-selector}, {@code spark-role} and {@code spark-exec-id}
 * labels), each container's termination record (OOMKilled, exit 137, signal, times), resource
 * limits, evictions and preemptions, the nodes' conditions, the events, the Spark Operator's
 * SparkApplication, and the current and previous container logs, read-only, with kubectl's
 * credentials. {@link io.sparkrca.kubernetes.KubernetesEvidence} hands them to an analysis;
 * {@link io.sparkrca.kubernetes.SparkPods} shows them.
 *
 * <pre>{@code
 * try (SparkPods k8s = SparkPods.connect(KubernetesSettings.builder().namespace("spark").build())) {
 *   System.out.println(k8s.pods(SparkPods.Target.of(appId)).toMarkdown());
 * }
 * }</pre>
 */
package io.sparkrca.kubernetes;

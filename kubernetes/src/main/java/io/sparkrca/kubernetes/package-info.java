/**
 * A Kubernetes provider (fabric8 client): Spark driver and executor pods, their termination
 * reasons and exit codes, cluster events and previous-container logs.
 */
package io.sparkrca.kubernetes;

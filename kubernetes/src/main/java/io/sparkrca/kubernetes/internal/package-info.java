/** Internals of the Kubernetes provider: the fabric8 client, the API calls and their errors, mapping, rendering. */
package io.sparkrca.kubernetes.internal;

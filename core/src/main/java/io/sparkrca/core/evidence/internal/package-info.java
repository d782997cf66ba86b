/** Implementation details of {@link io.sparkrca.core.evidence}: not an API, may change without notice. */
package io.sparkrca.core.evidence.internal;

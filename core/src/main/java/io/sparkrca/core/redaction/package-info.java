/** Redaction of secrets in properties, URIs and free text, applied to every output. */
package io.sparkrca.core.redaction;

/**
 * The standard analyzers of {@link io.sparkrca.rules.rca.RcaEngine} and their helpers: not an
 * API, may change without notice.
 */
package io.sparkrca.rules.rca.internal;

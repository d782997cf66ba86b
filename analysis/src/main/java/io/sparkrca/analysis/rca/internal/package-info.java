/**
 * The standard analyzers of {@link io.sparkrca.analysis.rca.RcaEngine} and their helpers: not an
 * API, may change without notice.
 */
package io.sparkrca.analysis.rca.internal;

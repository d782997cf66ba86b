/**
 * Implementation details of {@link io.sparkrca.core.app}: not an API, may change without notice.
 * Public only so that the event-log replay and the model-derived facts share one way of folding
 * failures.
 */
package io.sparkrca.core.app.internal;

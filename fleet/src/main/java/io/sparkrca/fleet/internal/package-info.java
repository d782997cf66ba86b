/** Internals of fleet analysis: the row encodings and the bounds. Not API. */
package io.sparkrca.fleet.internal;

/** Internals of the History Server provider: the REST client, its cache, the event-log archive. */
package io.sparkrca.historyserver.internal;

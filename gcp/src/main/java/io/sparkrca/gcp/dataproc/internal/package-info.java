/** Internals of the Dataproc provider: its reads by name for a front door that holds it at run time only. */
package io.sparkrca.gcp.dataproc.internal;

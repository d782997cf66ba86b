/**
 * Google Cloud providers: Dataproc Serverless batches and sessions, Dataproc cluster jobs, the
 * Dataproc {@code sparkApplications} REST API, Cloud Logging, and a Cloud Storage byte source for
 * {@code gs://} URIs. Credentials come from Application Default Credentials, in one place.
 */
package io.sparkrca.gcp;

/**
 * Runnable examples of embedding sparkrca: summarising an event log from Java, an Airflow
 * operator calling the CLI, and a health assertion in a test. Not published.
 */
package io.sparkrca.examples;

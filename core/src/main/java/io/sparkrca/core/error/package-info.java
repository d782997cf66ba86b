/**
 * sparkrca's small exception hierarchy. All are unchecked and extend {@link
 * io.sparkrca.core.error.SparkRcaException}; each message names the input and says what to do.
 */
package io.sparkrca.core.error;

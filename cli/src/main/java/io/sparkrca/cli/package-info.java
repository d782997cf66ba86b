/** The {@code sparkrca} command line. */
package io.sparkrca.cli;

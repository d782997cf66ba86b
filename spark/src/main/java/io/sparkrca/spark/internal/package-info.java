/** Internals of sparkrca-spark: row conversion, task planning, configuration shipping. Not an API. */
package io.sparkrca.spark.internal;

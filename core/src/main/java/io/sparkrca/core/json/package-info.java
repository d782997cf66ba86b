/** JSON in the Spark History Server's dialect ({@link io.sparkrca.core.json.SparkJson}). */
package io.sparkrca.core.json;

/**
 * {@code ClassInspector}: looks inside a Spark job's JARs, classes and scripts (by ranged reads,
 * never extracting to disk), disassembles classes with ASM, ranks string constants, builds call
 * graphs and points at Spark anti-patterns in bytecode and source.
 */
package io.sparkrca.inspector;

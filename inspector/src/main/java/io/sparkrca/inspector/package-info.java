/**
 * {@code ClassInspector}: looks inside a Spark job's JARs, classes and scripts (by ranged reads,
 * never extracting to disk), disassembles classes with ASM, ranks string constants, builds call
 * graphs and points at Spark anti-patterns in bytecode and source.
 *
 * <pre>{@code
 * ClassInspector inspector = ClassInspector.create();
 * System.out.println(inspector.inspect("gs://bucket/app.jar").toText());          // overview
 * System.out.println(inspector.inspect("gs://bucket/app.jar", "Job").toText());   // one class
 * inspector.toBuilder().findingsOnly(true).build().inspect("gs://bucket/app.jar")
 *     .findings().forEach(f -> System.out.println(f.location() + ": " + f.remediation()));
 * }</pre>
 *
 * <p>Results are {@link io.sparkrca.inspector.Inspection}s: {@link
 * io.sparkrca.inspector.ArchiveOverview}, {@link io.sparkrca.inspector.ClassView}, {@link
 * io.sparkrca.inspector.SourceView} and {@link io.sparkrca.inspector.FindingsReport}, each
 * rendered as text or JSON. Hostile input is bounded by {@link
 * io.sparkrca.inspector.InspectorLimits}.
 */
package io.sparkrca.inspector;

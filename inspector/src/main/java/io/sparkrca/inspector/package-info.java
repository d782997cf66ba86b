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
 *
 * <p>Archive overviews are exact: they read the whole central directory (and the manifest and a
 * few class headers), which is nothing for a spring-boot fat jar and 3-8% of a flat shaded jar of
 * small classes. {@link io.sparkrca.inspector.ClassInspector.Builder#overviewSampling(double)}
 * bounds that for huge directories; the overview then says its counts are estimates.
 */
package io.sparkrca.inspector;

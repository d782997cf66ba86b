/**
 * Not an API: the inspector's implementation of core's {@link
 * io.sparkrca.core.evidence.CodeInspectionProvider}, which {@link
 * io.sparkrca.core.evidence.EvidenceCollector} finds with {@link java.util.ServiceLoader} when
 * this module is on the class path. Its types are public only because ServiceLoader needs a
 * public class with a public no-argument constructor; they may change in any release. Use {@code
 * EvidenceCollector.builder().code(uri)} to have code inspected, or {@link
 * io.sparkrca.inspector.ClassInspector} to inspect it directly.
 *
 * <pre>{@code
 * Evidence e = EvidenceCollector.builder().application(eventLog).code("gs://b/app.jar").build().collect();
 * e.code().forEach(c -> System.out.println(c.summary()));
 * }</pre>
 */
package io.sparkrca.inspector.internal;

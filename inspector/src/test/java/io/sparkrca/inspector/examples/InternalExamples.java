package io.sparkrca.inspector.examples;

import io.sparkrca.core.evidence.CodeEvidence;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.inspector.internal.ClassInspectorProvider;
import java.util.List;
import java.util.OptionalInt;

/** The Javadoc examples of {@code io.sparkrca.inspector.internal}, compiled (see {@link JavadocExamplesTest}). */
class InternalExamples {
  /** The example of {@code ClassInspectorProvider}. */
  void classInspectorProvider() throws Exception {
    CodeEvidence code = new ClassInspectorProvider().inspect("gs://b/app.jar", SourceSettings.defaults(),
        List.of(new StackFrame("com.x.Job", "parse", "Job.java", OptionalInt.of(42))));
    code.locations().forEach(l -> System.out.println(l.file() + ":" + l.line().orElse(0) + " " + l.note()));
  }

  /** The example of {@code io.sparkrca.inspector.internal}. */
  void overview(String eventLog) throws Exception {
    Evidence e = EvidenceCollector.builder().application(eventLog).code("gs://b/app.jar").build().collect();
    e.code().forEach(c -> System.out.println(c.summary()));
  }
}

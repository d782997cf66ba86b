package io.sparkrca.inspector.examples;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.inspector.AmbiguousEntryException;
import io.sparkrca.inspector.AntiPattern;
import io.sparkrca.inspector.ArchiveOverview.ClassVersion;
import io.sparkrca.inspector.ArchiveOverview.EntrySize;
import io.sparkrca.inspector.ArchiveOverview.PackageCount;
import io.sparkrca.inspector.ArchiveOverview.Relocation;
import io.sparkrca.inspector.ArchiveOverview.ScalaTarget;
import io.sparkrca.inspector.ArchiveOverview;
import io.sparkrca.inspector.ClassInspector;
import io.sparkrca.inspector.ClassView.Call;
import io.sparkrca.inspector.ClassView.CallKind;
import io.sparkrca.inspector.ClassView;
import io.sparkrca.inspector.EntryNotFoundException;
import io.sparkrca.inspector.Finding;
import io.sparkrca.inspector.FindingsReport;
import io.sparkrca.inspector.Inspection;
import io.sparkrca.inspector.InspectorLimits;
import io.sparkrca.inspector.InspectorRemedies;
import io.sparkrca.inspector.NotCodeException;
import io.sparkrca.inspector.SourceView;
import io.sparkrca.inspector.StringConstant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/** The Javadoc examples of {@code io.sparkrca.inspector}, compiled (see {@link JavadocExamplesTest}). */
class InspectorExamples {
  /** The example of {@code AmbiguousEntryException}. */
  void ambiguousEntryException(ClassInspector inspector) throws Exception {
    try {
      inspector.inspect("app.jar", "Job");
    } catch (AmbiguousEntryException e) {
      e.candidates().forEach(System.err::println); // com/a/Job.class, com/b/Job.class
    }
  }

  /** The example of {@code AntiPattern}. */
  void antiPattern() throws Exception {
    for (Finding f : ClassInspector.create().inspect("job.py").findings()) {
      if (f.pattern() == AntiPattern.ACTION_IN_LOOP) { System.out.println(f.remediation()); }
    }
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverview() throws Exception {
    ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect("gs://b/app.jar");
    System.out.println(o.mainClass().orElse("no Main-Class") + ", " + o.classes() + " classes");
    o.packages().forEach(p -> System.out.println(p.name() + " " + p.classes()));
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewSample(ArchiveOverview overview) throws Exception {
    overview.sample().ifPresent(s -> System.out.printf("sampled %.0f%% of the directory%n",
        100 * s.fractionRead()));
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewPackageCount() throws Exception {
    new PackageCount("com.example", 2, 0);  // "com.example (2 classes)"
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewNestedArchive(ArchiveOverview overview) throws Exception {
    overview.nestedArchives().forEach(n -> System.out.println(n.name() + " " + n.sizeBytes()));
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewRelocation() throws Exception {
    Relocation r = new Relocation("org.apache.hadoop.shaded", "com.google.common", 1500);
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewClassVersion() throws Exception {
    ClassVersion v = new ClassVersion(61, "Java 17", 5);
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewScalaTarget() throws Exception {
    ScalaTarget t = new ScalaTarget("2.13.16", "BOOT-INF/lib/scala-library-2.13.16.jar");
  }

  /** The example of {@code ArchiveOverview}. */
  void archiveOverviewEntrySize() throws Exception {
    EntrySize e = new EntrySize("BOOT-INF/lib/spark-core_2.13-3.5.9.jar", 14866085, 14866085);
  }

  /** The example of {@code ClassInspector}. */
  void classInspector() throws Exception {
    ClassInspector inspector = ClassInspector.create();
    Inspection result = inspector.inspect("gs://bucket/jobs/app.jar!/com/example/Job.class");
    System.out.println(result.toText());
  }

  /** The example of {@code ClassInspector}. */
  void classInspectorBuilt() throws Exception {
    ClassInspector inspector = ClassInspector.builder()
        .maxLines(500)
        .followInnerClasses(false)
        .limits(InspectorLimits.defaults().withMaxEntryBytes(8 << 20))
        .build();
    FindingsReport report =
        (FindingsReport) inspector.toBuilder().findingsOnly(true).build().inspect("app.jar");
  }

  /** The example of {@code ClassInspector}. */
  void classInspectorRemote(String token) throws Exception {
    ClassInspector remote = ClassInspector.builder()
        .sources(ByteSources.builder().add(HttpByteSourceProvider.of(HttpSettings.builder()
            .header("Authorization", "Bearer " + token)
            .readTimeout(Duration.ofSeconds(20))
            .build())).build())
        .build();
  }

  /** The example of {@code ClassInspector}. */
  void classInspectorDiff() throws Exception {
    CodeDiff d = ClassInspector.create().diff("releases/1.4/app.jar", "releases/1.5/app.jar");
    d.changed().forEach(c -> System.out.println(c.name() + ": +" + c.addedStrings()));
  }

  /** The example of {@code ClassInspector}. */
  void classInspectorBuilder() throws Exception {
    ClassInspector i = ClassInspector.builder().maxLines(100).findingsOnly(true).build();
  }

  /** The example of {@code ClassInspector}. */
  void classInspectorOverviewSampling() throws Exception {
    ClassInspector quick = ClassInspector.builder().overviewSampling(0.015).build();
    ArchiveOverview o = (ArchiveOverview) quick.inspect("https://repo.example.com/assembly.jar");
    if (o.estimated()) { System.out.println("counts estimated from a sample"); }
  }

  /** The example of {@code ClassView}. */
  void classView() throws Exception {
    ClassView v = (ClassView) ClassInspector.create().inspect("app.jar", "com.example.Job");
    ClassView.ClassDetail job = v.classes().get(0);
    job.methods().forEach(m -> System.out.println(m.declaration() + " -> " + m.calls().size()));
  }

  /** The example of {@code ClassView}. */
  void classViewClassDetail(ClassView.ClassDetail detail) throws Exception {
    detail.strings().forEach(s -> System.out.println(s.kind() + " " + s.value()));
  }

  /** The example of {@code ClassView}. */
  void classViewMethodSummary(ClassView.MethodSummary m) throws Exception {
    m.calls().stream().filter(c -> c.kind() == ClassView.CallKind.LAMBDA).forEach(System.out::println);
  }

  /** The example of {@code ClassView}. */
  void classViewCall() throws Exception {
    Call c = new Call(CallKind.INVOKE, "java.io.PrintStream.println(java.lang.String)",
        OptionalInt.of(5), Optional.empty());
  }

  /** The example of {@code ClassView}. */
  void classViewCallKind(Call call) throws Exception {
    if (call.kind() == CallKind.LAMBDA) { System.out.println(call.target()); }
  }

  /** The example of {@code EntryNotFoundException}. */
  void entryNotFoundException(ClassInspector inspector) throws Exception {
    try {
      inspector.inspect("app.jar", "com.example.SparkJb");
    } catch (EntryNotFoundException e) {
      System.err.println("did you mean " + e.nearest());
    }
  }

  /** The example of {@code Finding}. */
  void finding(Inspection inspection) throws Exception {
    Finding f = inspection.findings().get(0);
    System.out.println(f.file() + ":" + f.line().orElse(0) + " " + f.pattern().title());
    System.out.println("fix: " + f.remediation());
  }

  /** The example of {@code FindingsReport}. */
  void findingsReport() throws Exception {
    FindingsReport r = (FindingsReport) ClassInspector.builder().findingsOnly(true).build().inspect("app.jar");
    r.findings().forEach(f -> System.out.println(f));
  }

  /** The example of {@code InspectorRemedies}. */
  void inspectorRemedies(Inspection inspection) throws Exception {
    String text = inspection.toText(r -> r.id().equals(InspectorRemedies.LINE_BUDGET.id()) ? "Ask for more lines." : r.words());
  }

  /** The example of {@code Inspection}. */
  void inspection() throws Exception {
    Inspection result = ClassInspector.create().inspect("app.jar!/com/example/Job.class");
    System.out.println(result.toText());
    result.findings().forEach(f -> System.out.println(f.location() + ": " + f.remediation()));
  }

  /** The example of {@code InspectorLimits}. */
  void inspectorLimits() throws Exception {
    InspectorLimits tight = InspectorLimits.defaults().withMaxEntryBytes(4 << 20);
    ClassInspector inspector = ClassInspector.builder().limits(tight).build();
  }

  /** The example of {@code NotCodeException}. */
  void notCodeException(ClassInspector inspector) throws Exception {
    try {
      inspector.inspect("driver.log");
    } catch (NotCodeException e) {
      if (e.kind() == NotCodeException.Kind.EVENT_LOG) {
        EventLogs.replay(Path.of(e.input()));
      }
    }
  }

  /** The example of {@code SourceView}. */
  void sourceView() throws Exception {
    SourceView s = (SourceView) ClassInspector.builder().maxLines(50).build().inspect("job.py");
    System.out.println(s.totalLines() + " lines; " + s.findings().size() + " findings");
  }

  /** The example of {@code StringConstant}. */
  void stringConstant(ClassView classView) throws Exception {
    classView.classes().get(0).strings().stream()
        .filter(s -> s.kind() == StringConstant.Kind.PATH)
        .forEach(s -> System.out.println(s.value() + " line " + s.line().orElse(0)));
  }

  /** The example of {@code StringConstant}. */
  void stringConstantKind(StringConstant constant) throws Exception {
    if (constant.kind() == StringConstant.Kind.SQL) { System.out.println(constant.value()); }
  }

  /** The example of {@code io.sparkrca.inspector}. */
  void overview() throws Exception {
    ClassInspector inspector = ClassInspector.create();
    System.out.println(inspector.inspect("gs://bucket/app.jar").toText());          // overview
    System.out.println(inspector.inspect("gs://bucket/app.jar", "Job").toText());   // one class
    inspector.toBuilder().findingsOnly(true).build().inspect("gs://bucket/app.jar")
        .findings().forEach(f -> System.out.println(f.location() + ": " + f.remediation()));
  }
}

package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * One class disassembled with ASM, plus the classes it leads to (inner classes, Scala
 * {@code $anonfun$} closures, lambda bodies reached through invokedynamic), each with its ranked
 * string constants, a per-method call graph and a {@code javap -c -p}-like listing. The text
 * rendering respects a line budget and says where it cut.
 *
 * <pre>{@code
 * ClassView v = (ClassView) ClassInspector.create().inspect("app.jar", "com.example.Job");
 * ClassView.ClassDetail job = v.classes().get(0);
 * job.methods().forEach(m -> System.out.println(m.declaration() + " -> " + m.calls().size()));
 * }</pre>
 *
 * @param source the archive (or class file) and entry
 * @param classes the requested class first, then the ones followed from it
 * @param findings Spark anti-patterns in all of them (at most 50 of each pattern, 200 in all)
 * @param findingsOmitted how many more findings that cap left out
 * @param omittedClasses classes that would have been followed but were over the cap
 * @param lineBudget the most lines {@link #toText()} prints
 * @param notes what was skipped or malformed
 */
public record ClassView(
    String source,
    List<ClassDetail> classes,
    List<Finding> findings,
    int findingsOmitted,
    List<String> omittedClasses,
    int lineBudget,
    List<String> notes) implements Inspection {

  /** Copies the lists and checks that no component is null. */
  public ClassView {
    Objects.requireNonNull(source, "source");
    classes = List.copyOf(classes);
    findings = List.copyOf(findings);
    omittedClasses = List.copyOf(omittedClasses);
    notes = List.copyOf(notes);
  }

  /** A view whose findings were not cut. */
  public ClassView(String source, List<ClassDetail> classes, List<Finding> findings,
      List<String> omittedClasses, int lineBudget, List<String> notes) {
    this(source, classes, findings, 0, omittedClasses, lineBudget, notes);
  }

  @Override
  public String toText(Function<? super Remedy, String> words) {
    return TextRender.classView(this, words);
  }

  @Override
  public String toJson() {
    return JsonRender.classView(this);
  }

  /**
   * One class.
   *
   * <pre>{@code
   * detail.strings().forEach(s -> System.out.println(s.kind() + " " + s.value()));
   * }</pre>
   *
   * @param entry the archive entry (or file) it came from
   * @param name the dotted class name
   * @param followedBecause why it is shown: {@code requested}, {@code inner class}, {@code lambda
   *     body of ...}
   * @param majorVersion class-file major version
   * @param minorVersion class-file minor version
   * @param java the Java release of that version, e.g. {@code Java 17}
   * @param sourceFile the SourceFile attribute
   * @param declaration the class declaration with generics, e.g. {@code public class
   *     com.x.Job<T> extends com.x.Base<T> implements java.io.Serializable}
   * @param scala whether scalac compiled it (a ScalaSignature or ScalaSig is present)
   * @param fields the field declarations, with constant values
   * @param methods the methods with their calls
   * @param strings string constants, most interesting first (capped)
   * @param lowInterestStrings how many literals were judged noise and left out
   * @param listing the {@code javap -c -p}-like disassembly lines
   * @param malformed why the class could be read only in part, when it is malformed
   */
  public record ClassDetail(
      String entry,
      String name,
      String followedBecause,
      int majorVersion,
      int minorVersion,
      String java,
      Optional<String> sourceFile,
      String declaration,
      boolean scala,
      List<String> fields,
      List<MethodSummary> methods,
      List<StringConstant> strings,
      int lowInterestStrings,
      List<String> listing,
      Optional<String> malformed) {

    /** Copies the lists and checks that no component is null. */
    public ClassDetail {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(followedBecause, "followedBecause");
      Objects.requireNonNull(java, "java");
      Objects.requireNonNull(sourceFile, "sourceFile");
      Objects.requireNonNull(declaration, "declaration");
      fields = List.copyOf(fields);
      methods = List.copyOf(methods);
      strings = List.copyOf(strings);
      listing = List.copyOf(listing);
      Objects.requireNonNull(malformed, "malformed");
    }
  }

  /**
   * One method and what it calls.
   *
   * <pre>{@code
   * m.calls().stream().filter(c -> c.kind() == ClassView.CallKind.LAMBDA).forEach(...);
   * }</pre>
   *
   * @param name the method name ({@code <init>}, {@code <clinit>} included)
   * @param descriptor the JVM descriptor
   * @param declaration the Java-like declaration with generics
   * @param firstLine the first source line, from the LineNumberTable
   * @param instructions how many bytecode instructions it has
   * @param calls its outgoing calls, lambda bodies and field accesses, deduplicated, in order
   */
  public record MethodSummary(
      String name,
      String descriptor,
      String declaration,
      OptionalInt firstLine,
      int instructions,
      List<Call> calls) {

    /** Copies the list and checks that no component is null. */
    public MethodSummary {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(descriptor, "descriptor");
      Objects.requireNonNull(declaration, "declaration");
      Objects.requireNonNull(firstLine, "firstLine");
      calls = List.copyOf(calls);
    }
  }

  /**
   * An edge of the per-method call graph.
   *
   * <pre>{@code
   * new Call(CallKind.INVOKE, "java.io.PrintStream.println(java.lang.String)",
   *     OptionalInt.of(5), Optional.empty())
   * }</pre>
   *
   * @param kind a call, a lambda body, or a field access
   * @param target the target, dotted, e.g. {@code org.apache.spark.sql.Dataset.count()}
   * @param line the line of its first occurrence
   * @param spark what it is in Spark terms ({@code action}, {@code transformation}, {@code
   *     cache}...), when it is a Spark API call
   */
  public record Call(CallKind kind, String target, OptionalInt line, Optional<String> spark) {
    /** Checks that no component is null. */
    public Call {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(line, "line");
      Objects.requireNonNull(spark, "spark");
    }
  }

  /**
   * The kinds of call-graph edges.
   *
   * <pre>{@code
   * if (call.kind() == CallKind.LAMBDA) { ... }
   * }</pre>
   */
  public enum CallKind {
    /** invokevirtual, invokestatic, invokespecial, invokeinterface. */
    INVOKE,
    /** An invokedynamic whose bootstrap arguments name an implementation method. */
    LAMBDA,
    /** Any other invokedynamic (string concatenation, records, pattern switches). */
    DYNAMIC,
    /** getfield/getstatic. */
    FIELD_READ,
    /** putfield/putstatic. */
    FIELD_WRITE
  }
}

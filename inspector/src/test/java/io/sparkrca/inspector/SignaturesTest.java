package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Python code inspector's descriptor vectors, plus malformed input and generic signatures. */
class SignaturesTest {
  @Test
  void fieldDescriptorsBecomeJavaTypes() {
    assertThat(Signatures.type("I")).isEqualTo("int");
    assertThat(Signatures.type("[Ljava/lang/String;")).isEqualTo("java.lang.String[]");
    assertThat(Signatures.type("[[J")).isEqualTo("long[][]");
  }

  @Test
  void methodDescriptorsSplitIntoParametersAndReturnType() {
    assertThat(Signatures.params("(Ljava/lang/String;I)Z")).containsExactly("java.lang.String", "int");
    assertThat(Signatures.returnType("(Ljava/lang/String;I)Z")).isEqualTo("boolean");
    assertThat(Signatures.params("()V")).isEmpty();
    assertThat(Signatures.returnType("()V")).isEqualTo("void");
  }

  @Test
  void malformedDescriptorsDegradeToQuestionMarksInsteadOfFailing() {
    assertThat(Signatures.type("X")).isEqualTo("?");
    assertThat(Signatures.type("[Ljava/lang/String")).isEqualTo("?[]");
    assertThat(Signatures.returnType("(I")).isEqualTo("?");
    assertThat(Signatures.params("(I")).containsExactly("int");
  }

  @Test
  void genericSignaturesRenderWithBoundsAndWildcards() {
    Signatures.ClassSig c = Signatures.classSignature(
        "<K:Ljava/lang/Object;V::Ljava/lang/Comparable<TV;>;>Ljava/lang/Object;Ljava/util/Map<TK;TV;>;")
        .orElseThrow();
    Signatures.MethodSig m = Signatures.methodSignature(
        "<T:Ljava/lang/Number;>(Ljava/util/List<+TT;>;Ljava/util/Map$Entry<*-Ljava/lang/String;>;)[TT;^Ljava/io/IOException;")
        .orElseThrow();

    assertThat(c.typeParameters()).isEqualTo("<K, V extends java.lang.Comparable<V>>");
    assertThat(c.interfaces()).containsExactly("java.util.Map<K, V>");
    assertThat(m.typeParameters()).isEqualTo("<T extends java.lang.Number>");
    assertThat(m.params()).containsExactly("java.util.List<? extends T>",
        "java.util.Map$Entry<?, ? super java.lang.String>");
    assertThat(m.returnType()).isEqualTo("T[]");
    assertThat(m.exceptions()).isEqualTo(List.of("java.io.IOException"));
    assertThat(Signatures.classSignature("<T:")).isEmpty();
  }

  @Test
  void manifestContinuationLinesAreJoinedAndTheMainSectionEndsAtABlankLine() {
    String mf = "Manifest-Version: 1.0\r\nMain-Class: com.example.a.very.long.package.name.that.was.wr\r\n"
        + " apped.Main\r\nCreated-By: test\r\n\r\nName: com/x/\r\nMain-Class: not.This\r\n";

    assertThat(Manifests.mainAttributes(mf))
        .containsEntry("Main-Class", "com.example.a.very.long.package.name.that.was.wrapped.Main")
        .containsEntry("Created-By", "test")
        .doesNotContainKey("Name");
  }
}

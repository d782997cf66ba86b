package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.ByteSource;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntryResolutionTest {
  @TempDir Path dir;

  /** The Python code inspector's fixture: stub class bytes are enough to resolve names. */
  private ZipArchive fixture() throws Exception {
    byte[] jar = TestJars.jar(Optional.of("com.example.SparkJob"), TestJars.entries(
        "com/example/SparkJob.class", Fixtures.STUB,
        "com/example/SparkJob$1.class", Fixtures.STUB,
        "com/example/SparkJob$Helper.class", Fixtures.STUB,
        "com/other/Helper.class", Fixtures.STUB,
        "com/example/Helper.class", Fixtures.STUB,
        "config/spark.properties", "spark.sql.shuffle.partitions=200\n"));
    return ZipArchive.open(ByteSource.of("app.jar", jar), new ReadContext(InspectorLimits.defaults()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"com/example/SparkJob.class", "com.example.SparkJob",
      "com/example/SparkJob", "SparkJob", "/com\\example\\SparkJob.class", "  SparkJob  ",
      "com.example.sparkjob", "sparkjob"})
  void pathsClassNamesBareNamesAndOtherCasesResolveToTheClass(String name) throws Exception {
    assertThat(EntryResolver.resolve(fixture(), name).entry().name())
        .isEqualTo("com/example/SparkJob.class");
  }

  @Test
  void normalisingStripsOneLeadingSlashAndTurnsBackslashes() {
    assertThat(EntryResolver.normalize("/com\\example\\Main.class")).isEqualTo("com/example/Main.class");
  }

  @Test
  void aBareNameInSeveralPackagesIsAmbiguousAndListsThem() throws Exception {
    assertThatThrownBy(() -> EntryResolver.resolve(fixture(), "Helper"))
        .isInstanceOf(AmbiguousEntryException.class)
        .hasMessageContaining("com/example/Helper.class")
        .hasMessageContaining("com/other/Helper.class")
        .satisfies(e -> assertThat(((AmbiguousEntryException) e).candidates()).hasSize(2));
  }

  @Test
  void aMissingClassNamesTheNearestEntries() throws Exception {
    assertThatThrownBy(() -> EntryResolver.resolve(fixture(), "com.example.SparkJb"))
        .isInstanceOf(EntryNotFoundException.class)
        .hasMessageContaining("not found")
        .hasMessageContaining("com.example.SparkJob")
        .satisfies(e -> assertThat(((EntryNotFoundException) e).nearest())
            .first().isEqualTo("com.example.SparkJob"));
  }

  @Test
  void aFullyQualifiedMissingClassIsNotFoundEvenIfItsSimpleNameExistsElsewhere() throws Exception {
    assertThatThrownBy(() -> EntryResolver.resolve(fixture(), "com.example.Missing"))
        .isInstanceOf(EntryNotFoundException.class);
  }

  @Test
  void resourcesResolveByPathAndBareName() throws Exception {
    assertThat(EntryResolver.resolve(fixture(), "config/spark.properties").entry().name())
        .isEqualTo("config/spark.properties");
    assertThat(EntryResolver.resolve(fixture(), "spark.properties").entry().name())
        .isEqualTo("config/spark.properties");
  }

  @Test
  void innerClassesAreFollowedAndCanBeSwitchedOff() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    String followed = ClassInspector.create().inspect(jar + "!/com/example/WithClosure.class").toText();
    String alone = ClassInspector.builder().followInnerClasses(false).build()
        .inspect(jar + "!/com/example/WithClosure.class").toText();

    assertThat(followed).contains("com.example.WithClosure").contains("WithClosure$1.class")
        .contains("closure body");
    assertThat(alone).contains("com.example.WithClosure").doesNotContain("WithClosure$1.class");
  }

  @Test
  void theUriFragmentSelectsTheEntryAndEntryTakesPrecedence() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    ClassView byFragment = (ClassView) ClassInspector.create().inspect(jar + "!/com/example/SparkJob.class");
    ClassView byEntry = (ClassView) ClassInspector.create()
        .inspect(jar + "!/com/example/WithClosure.class", "com.example.SparkJob");

    assertThat(byFragment.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(byEntry.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(byEntry.notes()).anySatisfy(n -> assertThat(n).contains("takes precedence"));
  }

  @Test
  void aNonClassEntryPrintsAsNumberedText() throws Exception {
    Path jar = TestJars.write(dir, "app.jar", Fixtures.sparkJobJar());

    String text = ClassInspector.create().inspect(jar.toString(), "config/spark.properties").toText();

    assertThat(text).contains("=== Inspecting Entry 'config/spark.properties' in " + jar + " ===")
        .contains("   1 | spark.sql.shuffle.partitions=200");
  }

  @Test
  void aNestedJarEntryIsReachedThroughTwoFragments() throws Exception {
    byte[] lib = TestJars.jar(Optional.empty(), Fixtures.compile("com.example.SparkJob", Fixtures.SPARK_JOB));
    Path jar = TestJars.write(dir, "boot.jar", TestJars.zip(
        TestJars.entries("BOOT-INF/lib/lib-1.0.jar", lib), true));

    ClassView v = (ClassView) ClassInspector.create()
        .inspect(jar + "!/BOOT-INF/lib/lib-1.0.jar!/com/example/SparkJob.class");
    ArchiveOverview nested = (ArchiveOverview) ClassInspector.create().inspect(jar + "!/BOOT-INF/lib/lib-1.0.jar");

    assertThat(v.classes().get(0).name()).isEqualTo("com.example.SparkJob");
    assertThat(v.source()).isEqualTo(jar + "!/BOOT-INF/lib/lib-1.0.jar!/com/example/SparkJob.class");
    assertThat(nested.classes()).isEqualTo(1);
  }

  @Test
  void anEntryOnAPlainFileIsRefused() throws Exception {
    Path py = TestJars.write(dir, "job.py", "print('hello')\n".getBytes());

    assertThatThrownBy(() -> ClassInspector.create().inspect(py.toString(), "Main"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("can only be named inside a .jar/.zip archive");
  }
}

package io.sparkrca.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.testing.Architecture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture of the whole tree, read from every module's main sources: dependencies point
 * one way, so no packages or modules use each other in a circle; a module's {@code internal}
 * packages are its own; and every package lives in one module (a split package cannot be a
 * Java module's).
 */
class ArchitectureTest {
  private static Architecture tree;

  @BeforeAll
  static void read() {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assumeTrue(Files.isDirectory(root.resolve("core/src/main/java")), "the project tree is not next to core: " + root);
    tree = Architecture.of(root);
  }

  @Test
  void noPackagesUseEachOtherInACircle() {
    assertThat(tree.packageCycles()).as("package cycles (each group uses itself through the others)").isEmpty();
  }

  @Test
  void noModulesUseEachOtherInACircle() {
    assertThat(tree.moduleCycles()).as("module cycles").isEmpty();
  }

  @Test
  void noModuleUsesAnotherModulesInternalPackage() {
    assertThat(tree.foreignInternalUses())
        .as("a module's internal packages are its own: make what the other module needs public API")
        .isEmpty();
  }

  @Test
  void everyPackageLivesInOneModule() {
    assertThat(tree.splitPackages()).as("packages split across modules").isEmpty();
    assertThat(tree.modules()).as("the tree was read").containsKeys("io.sparkrca.core.app", "io.sparkrca.analysis.rca");
  }
}

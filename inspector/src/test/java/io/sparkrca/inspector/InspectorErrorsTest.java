package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #11: {@link ClassInspector} fails with a SparkRcaException subclass naming the input or
 * the parameter (it no longer declares IOException), and its builder refuses bad values with an
 * {@link InvalidRequestException}. Real files; no mocks.
 */
class InspectorErrorsTest {
  @TempDir Path dir;

  private Path jar() throws IOException {
    byte[] cls;
    try (InputStream in = InspectorErrorsTest.class.getResourceAsStream("InspectorErrorsTest.class")) {
      cls = in.readAllBytes();
    }
    return TestJars.write(dir, "app.jar", TestJars.jar(Optional.of("io.sparkrca.inspector.InspectorErrorsTest"),
        TestJars.entries("io/sparkrca/inspector/InspectorErrorsTest.class", cls)));
  }

  @Test
  void aMissingArchiveIsNotFoundNamingIt() {
    Path missing = dir.resolve("missing.jar");

    assertThatThrownBy(() -> ClassInspector.create().inspect(missing.toString()))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining(missing.toString());
    assertThatThrownBy(() -> ClassInspector.create().inspect(missing + "!/com/x/Job.class"))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aDirectoryIsRefusedNamingIt() throws IOException {
    Path classes = Files.createDirectory(dir.resolve("classes"));

    assertThatThrownBy(() -> ClassInspector.create().inspect(classes.toString()))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining(classes.toString())
        .hasMessageContaining("is a directory");
  }

  @Test
  void aCutOffArchiveIsCorruptNamingIt() throws IOException {
    byte[] whole = Files.readAllBytes(jar());
    Path cut = Files.write(dir.resolve("cut.jar"), Arrays.copyOf(whole, whole.length / 2));

    assertThatThrownBy(() -> ClassInspector.create().inspect(cut.toString()))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining(cut.toString());
  }

  @Test
  void aDriverLogIsNotCodeNamingIt() {
    Path driverLog = TestkitFixtures.get("3.5.9", "bad-record").driverLog();

    assertThatThrownBy(() -> ClassInspector.create().inspect(driverLog.toString()))
        .isInstanceOf(NotCodeException.class)
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining(driverLog.toString());
  }

  @Test
  void aMissingEntryAndAStartLinePastTheEndAreNamed() throws IOException {
    Path archive = jar();
    Path script = Files.writeString(dir.resolve("job.py"), "print('hello')\n");

    assertThatThrownBy(() -> ClassInspector.create().inspect(archive.toString(), "com.example.Nope"))
        .isInstanceOf(EntryNotFoundException.class)
        .hasMessageContaining("com.example.Nope")
        .hasMessageContaining(archive.toString())
        .hasMessageNotContaining("--");
    assertThatThrownBy(() -> ClassInspector.builder().startLine(5).build().inspect(script.toString()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(script.toString())
        .hasMessageContaining("start line 5");
  }

  @Test
  void builderValuesOutOfRangeAreInvalidRequestsNamingTheParameter() {
    assertThatThrownBy(() -> ClassInspector.builder().maxLines(0))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("maxLines must be at least 1, was 0");
    assertThatThrownBy(() -> ClassInspector.builder().startLine(-3))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("startLine");
    assertThatThrownBy(() -> ClassInspector.builder().maxFollowedClasses(-1))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("maxFollowedClasses");
    assertThatThrownBy(() -> ClassInspector.builder().overviewSampling(1.5))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("overviewSampling").hasMessageContaining("1.5");
    assertThatThrownBy(() -> InspectorLimits.defaults().withMaxEntryBytes(0))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("inspector limit");
    assertThatThrownBy(() -> ClassInspector.create().inspect(" "))
        .isInstanceOf(SparkRcaException.class).hasMessageContaining("no URI given");
  }
}

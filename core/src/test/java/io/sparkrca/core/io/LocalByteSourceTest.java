package io.sparkrca.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalByteSourceTest {
  @TempDir Path dir;

  @Test
  void streamsFromAnOffset() throws IOException {
    Path f = Files.writeString(dir.resolve("driver.log"), "0123456789", StandardCharsets.US_ASCII);
    try (InputStream in = ByteSource.of(f).openStream(6)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("6789");
    }
  }

  @Test
  void aMissingFileIsNotFoundByName() {
    Path missing = dir.resolve("missing.log");
    assertThatThrownBy(() -> ByteSource.of(missing).openStream(0))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aDirectoryIsRefusedAsSuch() {
    assertThatThrownBy(() -> ByteSource.of(dir).openStream(0))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("is a directory, not a file");
  }
}

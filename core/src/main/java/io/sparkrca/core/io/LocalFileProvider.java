package io.sparkrca.core.io;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** Reads plain paths and {@code file:} URIs. Always registered, last. */
final class LocalFileProvider implements ByteSourceProvider {

  @Override
  public boolean supports(String uri) {
    if (uri.startsWith("file:")) {
      return true;
    }
    int colon = uri.indexOf(':');
    int slash = uri.indexOf('/');
    // No scheme, or a Windows drive letter ("C:\..."), means a local path.
    return colon < 0 || colon == 1 || (slash >= 0 && slash < colon);
  }

  @Override
  public ByteSource open(String uri) {
    return new LocalByteSource(toPath(uri));
  }

  @Override
  public boolean isDirectory(String uri) {
    return Files.isDirectory(toPath(uri));
  }

  @Override
  public List<SourceEntry> list(String uri) throws IOException {
    Path dir = toPath(uri);
    if (!Files.exists(dir)) {
      throw new InputNotFoundException(dir.toString(), "check the path");
    }
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<SourceEntry> entries = new ArrayList<>();
    try (Stream<Path> children = Files.list(dir)) {
      for (Path p : (Iterable<Path>) children.sorted(Comparator.comparing(Path::toString))::iterator) {
        boolean isDir = Files.isDirectory(p);
        OptionalLong size = isDir ? OptionalLong.empty() : OptionalLong.of(Files.size(p));
        entries.add(new SourceEntry(p.toString(), p.getFileName().toString(), isDir, size));
      }
    }
    return entries;
  }

  static Path toPath(String uri) {
    try {
      return uri.startsWith("file:") ? Paths.get(URI.create(uri)) : Paths.get(uri);
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      // InvalidPathException is an IllegalArgumentException too.
      throw new InvalidRequestException(
          "Not a valid local path or file: URI: " + Redactor.redactUri(uri) + " ("
              + Redactor.redactUri(String.valueOf(e.getMessage())) + "); write it as a path, or as "
              + "file:/absolute/path with special characters percent-encoded",
          e);
    }
  }
}

package io.sparkrca.historyserver.testing;

import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Lays testkit fixtures' event logs out as History Server log directories: as few directories as
 * possible, each holding every log once and no two logs of one application (the cut-off copy of
 * {@code bad-record} has the same id as the original, and a History Server would merge them).
 */
public final class FixtureDirectories {
  private FixtureDirectories() {}

  /** One log directory and the fixtures whose logs it holds. */
  public record Group(Path dir, List<TestkitFixtures.Fixture> fixtures) {}

  /**
   * Copies the logs of {@code fixtures} under {@code root}.
   *
   * @param forRealServer whether a real History Server reads them: it cannot read gzip, so a
   *     gzipped log is written decompressed, as the testkit showed it to the server
   */
  public static List<Group> layOut(List<TestkitFixtures.Fixture> fixtures, Path root, boolean forRealServer) {
    List<Group> groups = new ArrayList<>();
    List<Set<String>> ids = new ArrayList<>();
    List<List<TestkitFixtures.Fixture>> members = new ArrayList<>();
    for (TestkitFixtures.Fixture f : fixtures) {
      String id = f.label().path("application").path("id").asText();
      int g = 0;
      while (g < ids.size() && ids.get(g).contains(id)) {
        g++;
      }
      if (g == ids.size()) {
        ids.add(new HashSet<>());
        members.add(new ArrayList<>());
      }
      ids.get(g).add(id);
      members.get(g).add(f);
    }
    try {
      for (int g = 0; g < members.size(); g++) {
        Path dir = Files.createDirectories(root.resolve("logs-" + g));
        for (TestkitFixtures.Fixture f : members.get(g)) {
          Path log = f.eventLog();
          String name = log.getFileName().toString();
          if (forRealServer && name.endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(log))) {
              Files.copy(in, dir.resolve(name.substring(0, name.length() - 3)));
            }
          } else {
            copyTree(log, dir.resolve(name));
          }
        }
        groups.add(new Group(dir, List.copyOf(members.get(g))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return groups;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    if (Files.isDirectory(from)) {
      Files.createDirectories(to);
      try (Stream<Path> s = Files.list(from)) {
        for (Path p : s.toList()) {
          copyTree(p, to.resolve(p.getFileName().toString()));
        }
      }
    } else {
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
    }
  }
}

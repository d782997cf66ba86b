package io.sparkrca.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line of the generator. Options (all optional):
 *
 * <pre>
 *   --fixtures DIR      where spark-&lt;version&gt;/ fixture directories go (default testkit/fixtures)
 *   --readme FILE       README whose corpus table to regenerate (default testkit/README.md)
 *   --versions A,B      Spark versions (default: all)
 *   --scenarios A,B     scenario names (default: all, in catalog order)
 *   --no-history-server skip the History Server snapshots
 *   --keep-rejected DIR copy the logs of a run that did not show its fault (or timed out) to DIR
 *   --readme-only       only regenerate the README tables from the committed labels
 * </pre>
 *
 * Normally run through Maven: {@code mvn -B -pl testkit/generator -am -Pregenerate verify}.
 */
public final class GeneratorMain {
  private static final Logger LOG = LoggerFactory.getLogger(GeneratorMain.class);

  private GeneratorMain() {}

  public static void main(String[] args) throws Exception {
    Path testkit = SparkDistribution.locate(SparkDistribution.VERSIONS.get(0)).home().getParent().getParent();
    Path fixtures = testkit.resolve("fixtures");
    Path readme = testkit.resolve("README.md");
    List<String> versions = SparkDistribution.VERSIONS;
    List<Scenario> scenarios = ScenarioCatalog.all();
    boolean shs = true;
    boolean readmeOnly = false;
    Path keepRejected = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--fixtures" -> fixtures = Path.of(args[++i]);
        case "--readme" -> readme = Path.of(args[++i]);
        case "--versions" -> versions = split(args[++i]);
        case "--scenarios" -> scenarios = split(args[++i]).stream().map(ScenarioCatalog::byName).toList();
        case "--no-history-server" -> shs = false;
        case "--keep-rejected" -> keepRejected = Path.of(args[++i]);
        case "--readme-only" -> readmeOnly = true;
        default -> {
          if (!args[i].isBlank()) {
            throw new IllegalArgumentException("unknown option " + args[i]);
          }
        }
      }
    }
    if (readmeOnly) {
      CorpusReadme.update(readme, fixtures);
      return;
    }
    Path temp = Files.createTempDirectory("sparkrca-testkit-");
    try {
      Generator g = new Generator(fixtures, temp, shs).keepRejectedRunsIn(keepRejected);
      List<SparkDistribution> sparks = versions.stream().map(SparkDistribution::locate).toList();
      long t0 = System.nanoTime();
      List<Generator.Generated> out = g.generateAll(sparks, scenarios);
      LOG.info("Generated {} fixtures in {} s", out.size(), (System.nanoTime() - t0) / 1_000_000_000L);
      if (Files.exists(readme)) {
        CorpusReadme.update(readme, fixtures);
        LOG.info("Updated {}", readme);
      }
    } finally {
      TempDir.deleteTree(temp);
    }
  }

  private static List<String> split(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}

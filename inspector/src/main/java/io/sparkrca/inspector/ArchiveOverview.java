package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The overview of a JAR/ZIP archive, built from its central directory and a handful of small
 * ranged reads (the manifest, a few class headers): what it runs, what it contains, what it
 * bundles and what it targets.
 *
 * <p><b>Exact by default.</b> Every count is exact: the whole central directory is read, so the
 * bytes an overview reads are at least the directory's size. That is a tiny share of a
 * spring-boot fat jar (nested jars are single entries: 0.01% of a 200 MB one) but not of a flat
 * shaded jar of small classes, whose directory is 3-8% of the file (one ~100-byte record per
 * ~3 KB compressed class). An inspector built with {@link
 * ClassInspector.Builder#overviewSampling(double)} may instead read a bounded sample of such a
 * directory; the overview then has a {@link #sample()}, its file, class and size totals are
 * <em>estimates</em>, its package class counts are the classes seen (lower bounds), whatever lies
 * only in the unread parts is missing, and both renderings say so.
 *
 * <pre>{@code
 * ArchiveOverview o = (ArchiveOverview) ClassInspector.create().inspect("gs://b/app.jar");
 * System.out.println(o.mainClass().orElse("no Main-Class") + ", " + o.classes() + " classes");
 * o.packages().forEach(p -> System.out.println(p.name() + " " + p.classes()));
 * }</pre>
 *
 * @param source the archive's URI, credentials removed
 * @param sizeBytes the archive's size
 * @param entries the central-directory entries listed
 * @param declaredEntries the entries its end record declares
 * @param files entries that are not directories
 * @param directories directory entries
 * @param classes {@code .class} entries
 * @param uncompressedBytes the declared uncompressed size of all entries
 * @param compressedBytes the compressed size of all entries
 * @param mainClass the manifest's Main-Class (continuation lines joined)
 * @param manifest the manifest's main attributes worth knowing (Main-Class, Start-Class,
 *     Created-By, Build-Jdk-Spec, Implementation-*, Spring-Boot-*, Multi-Release...)
 * @param packages every package with its class and source-file counts, most classes first
 * @param keyEntries the manifest, META-INF files, top-level files and configuration, by name
 * @param keyEntriesTotal how many key entries exist (the list is capped)
 * @param nestedArchives jars inside the archive ({@code BOOT-INF/lib}, {@code lib/}, ...)
 * @param relocations shaded/relocated copies of libraries
 * @param bundledArtifacts Maven artifacts bundled, from {@code META-INF/maven/} names
 * @param classVersions the class-file versions of the sampled classes
 * @param scala the Scala version the archive targets, when it has Scala
 * @param largestEntries the largest entries by uncompressed size
 * @param warnings findings about the packaging that often cause failures (bundled Spark or
 *     Scala, unrelocated libraries that clash with Spark's)
 * @param notes what was skipped or suspicious while reading
 * @param drillIn how to look further, as data (see {@link InspectorRemedies#drillIn})
 * @param sample present when only a sample of the central directory was read: the totals
 *     ({@code files}, {@code directories}, {@code classes}, {@code uncompressedBytes}, {@code
 *     compressedBytes}) are then estimates, package class counts are the classes seen (the true
 *     counts are at least that), {@code entries} is the number of entries read, and the lists
 *     and warnings hold only what the sample held
 */
public record ArchiveOverview(
    String source,
    long sizeBytes,
    int entries,
    long declaredEntries,
    int files,
    int directories,
    int classes,
    long uncompressedBytes,
    long compressedBytes,
    Optional<String> mainClass,
    Map<String, String> manifest,
    List<PackageCount> packages,
    List<String> keyEntries,
    int keyEntriesTotal,
    List<NestedArchive> nestedArchives,
    List<Relocation> relocations,
    List<String> bundledArtifacts,
    List<ClassVersion> classVersions,
    Optional<ScalaTarget> scala,
    List<EntrySize> largestEntries,
    List<String> warnings,
    List<String> notes,
    Remedy drillIn,
    Optional<DirectorySample> sample) implements Inspection {

  /** Copies the collections and checks that no component is null. */
  public ArchiveOverview {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(mainClass, "mainClass");
    manifest = Collections.unmodifiableMap(new LinkedHashMap<>(manifest));
    packages = List.copyOf(packages);
    keyEntries = List.copyOf(keyEntries);
    nestedArchives = List.copyOf(nestedArchives);
    relocations = List.copyOf(relocations);
    bundledArtifacts = List.copyOf(bundledArtifacts);
    classVersions = List.copyOf(classVersions);
    Objects.requireNonNull(scala, "scala");
    largestEntries = List.copyOf(largestEntries);
    warnings = List.copyOf(warnings);
    notes = List.copyOf(notes);
    Objects.requireNonNull(drillIn, "drillIn");
    Objects.requireNonNull(sample, "sample");
  }

  /**
   * Whether this overview comes from a sampled central directory (see {@link #sample()}): totals
   * estimated, package counts lower bounds, lists and warnings partial.
   */
  public boolean estimated() {
    return sample.isPresent();
  }

  /** An overview has no findings: ask for {@code findings} to scan the classes. */
  @Override
  public List<Finding> findings() {
    return List.of();
  }

  @Override
  public String toText(Function<? super Remedy, String> words) {
    return TextRender.overview(this, words);
  }

  @Override
  public String toJson() {
    return JsonRender.overview(this);
  }

  /**
   * How much of a huge central directory a sampled overview read. The windows are evenly
   * spaced ranged reads, the first at the directory's start (where jar tools put the manifest
   * and the application's own classes) and the last at its end.
   *
   * <pre>{@code
   * overview.sample().ifPresent(s -> System.out.printf("sampled %.0f%% of the directory%n",
   *     100 * s.fractionRead()));
   * }</pre>
   *
   * @param directoryBytes the central directory's size
   * @param bytesRead the directory bytes read
   * @param windows the ranged reads the directory was sampled with
   * @param entriesRead the entries those windows held
   * @param declaredEntries the entries the end record declares (exact)
   * @param unreadClasses the estimated number of classes whose records were not read (in no
   *     package count)
   */
  public record DirectorySample(long directoryBytes, long bytesRead, int windows, int entriesRead,
      long declaredEntries, int unreadClasses) {

    /** The share of the central directory read, between 0 and 1. */
    public double fractionRead() {
      return directoryBytes == 0 ? 1 : (double) bytesRead / directoryBytes;
    }
  }

  /**
   * A package and how many classes (and plain source files) it holds.
   *
   * <pre>{@code
   * new PackageCount("com.example", 2, 0);  // "com.example (2 classes)"
   * }</pre>
   *
   * @param name the dotted package name, {@code (default package)} for the root
   * @param classes {@code .class} entries in it (in an {@link ArchiveOverview#estimated()} overview: the
   *     classes seen in the sample, a lower bound)
   * @param sources {@code .py}, {@code .scala}, {@code .java} and {@code .sql} files in it
   */
  public record PackageCount(String name, int classes, int sources) {
    /** Checks the name. */
    public PackageCount {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * A jar (or zip) inside the archive. Stored ones, as spring-boot writes them, can be inspected
   * in place with {@code app.jar!/BOOT-INF/lib/x.jar}.
   *
   * <pre>{@code
   * overview.nestedArchives().forEach(n -> System.out.println(n.name() + " " + n.sizeBytes()));
   * }</pre>
   *
   * @param name the entry name
   * @param sizeBytes its uncompressed size
   * @param stored whether it is stored uncompressed (readable in place by ranged reads)
   */
  public record NestedArchive(String name, long sizeBytes, boolean stored) {
    /** Checks the name. */
    public NestedArchive {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * A library copied under another package (maven-shade relocation, Spark's
   * {@code org.sparkproject}).
   *
   * <pre>{@code
   * new Relocation("org.apache.hadoop.shaded", "com.google.common", 1500)
   * }</pre>
   *
   * @param prefix the package prefix it was moved under
   * @param original the original package
   * @param classes how many classes were moved
   */
  public record Relocation(String prefix, String original, int classes) {
    /** Checks the names. */
    public Relocation {
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(original, "original");
    }
  }

  /**
   * How many sampled classes have one class-file version.
   *
   * <pre>{@code
   * new ClassVersion(61, "Java 17", 5)
   * }</pre>
   *
   * @param major the class-file major version (52 = Java 8, 61 = Java 17)
   * @param java the Java release it corresponds to
   * @param sampled how many sampled classes have it
   */
  public record ClassVersion(int major, String java, int sampled) {
    /** Checks the label. */
    public ClassVersion {
      Objects.requireNonNull(java, "java");
    }
  }

  /**
   * The Scala version an archive targets, and how it was found.
   *
   * <pre>{@code
   * new ScalaTarget("2.13.16", "BOOT-INF/lib/scala-library-2.13.16.jar")
   * }</pre>
   *
   * @param version a full version ({@code 2.13.16}) or a binary one ({@code 2.13})
   * @param evidence where the version comes from
   */
  public record ScalaTarget(String version, String evidence) {
    /** Checks the fields. */
    public ScalaTarget {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(evidence, "evidence");
    }
  }

  /**
   * An entry and its sizes.
   *
   * <pre>{@code
   * new EntrySize("BOOT-INF/lib/spark-core_2.13-3.5.9.jar", 14866085, 14866085)
   * }</pre>
   *
   * @param name the entry name
   * @param sizeBytes uncompressed size
   * @param compressedBytes compressed size
   */
  public record EntrySize(String name, long sizeBytes, long compressedBytes) {
    /** Checks the name. */
    public EntrySize {
      Objects.requireNonNull(name, "name");
    }
  }
}

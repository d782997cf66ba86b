package io.sparkrca.inspector;

/**
 * The caps that keep {@link ClassInspector} bounded on hostile or huge input: zip bombs, archives
 * with millions of entries, enormous classes. When a cap is hit the inspection stops that part and
 * says so in its notes (or, when nothing useful is left, fails with a clear message); it never
 * reads or allocates past a cap.
 *
 * <pre>{@code
 * InspectorLimits tight = InspectorLimits.defaults().withMaxEntryBytes(4 << 20);
 * ClassInspector inspector = ClassInspector.builder().limits(tight).build();
 * }</pre>
 *
 * @param maxEntries central-directory entries listed; the rest of a bigger archive is skipped
 * @param maxCentralDirectoryBytes the largest central directory read
 * @param maxEntryBytes the most bytes one entry may inflate to (a class, a text file, a manifest)
 * @param maxTotalInflatedBytes the most bytes inflated over one whole inspection
 * @param maxCompressionRatio the highest uncompressed/compressed ratio inflated past the first MiB
 * @param maxNestedArchiveBytes the largest compressed nested archive inflated (in memory when
 *     small, otherwise to a temporary file deleted when the inspection ends; stored nested
 *     archives, as spring-boot writes them, are read in place by ranged reads)
 * @param maxScannedClasses the most classes a findings scan of a whole archive reads
 * @param maxSourceBytes the most bytes of one plain source file analysed for anti-patterns
 */
public record InspectorLimits(
    int maxEntries,
    long maxCentralDirectoryBytes,
    long maxEntryBytes,
    long maxTotalInflatedBytes,
    int maxCompressionRatio,
    long maxNestedArchiveBytes,
    int maxScannedClasses,
    long maxSourceBytes) {

  /** Validates that every cap is positive. */
  public InspectorLimits {
    if (maxEntries < 1
        || maxCentralDirectoryBytes < 22
        || maxEntryBytes < 1
        || maxTotalInflatedBytes < 1
        || maxCompressionRatio < 1
        || maxNestedArchiveBytes < 1
        || maxScannedClasses < 1
        || maxSourceBytes < 1) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "every inspector limit must be at least 1 (maxCentralDirectoryBytes at least 22), got "
              + this);
    }
  }

  /**
   * Caps that fit the largest real Spark assemblies (a few hundred thousand entries, classes of a
   * few MiB) while refusing bombs: 500,000 entries, a 128 MiB central directory, 64 MiB per
   * entry, 512 MiB inflated in total, a compression ratio of 200, 256 MiB per compressed nested
   * archive, 5,000 scanned classes and 16 MiB of source.
   */
  public static InspectorLimits defaults() {
    return new InspectorLimits(
        500_000, 128L << 20, 64L << 20, 512L << 20, 200, 256L << 20, 5_000, 16L << 20);
  }

  /** A copy with another cap on the entries listed. */
  public InspectorLimits withMaxEntries(int value) {
    return new InspectorLimits(value, maxCentralDirectoryBytes, maxEntryBytes,
        maxTotalInflatedBytes, maxCompressionRatio, maxNestedArchiveBytes, maxScannedClasses,
        maxSourceBytes);
  }

  /** A copy with another cap on the bytes one entry may inflate to. */
  public InspectorLimits withMaxEntryBytes(long value) {
    return new InspectorLimits(maxEntries, maxCentralDirectoryBytes, value,
        maxTotalInflatedBytes, maxCompressionRatio, maxNestedArchiveBytes, maxScannedClasses,
        maxSourceBytes);
  }

  /** A copy with another cap on the bytes inflated over one inspection. */
  public InspectorLimits withMaxTotalInflatedBytes(long value) {
    return new InspectorLimits(maxEntries, maxCentralDirectoryBytes, maxEntryBytes, value,
        maxCompressionRatio, maxNestedArchiveBytes, maxScannedClasses, maxSourceBytes);
  }

  /** A copy with another cap on the compression ratio. */
  public InspectorLimits withMaxCompressionRatio(int value) {
    return new InspectorLimits(maxEntries, maxCentralDirectoryBytes, maxEntryBytes,
        maxTotalInflatedBytes, value, maxNestedArchiveBytes, maxScannedClasses, maxSourceBytes);
  }

  /** A copy with another cap on the size of one compressed nested archive. */
  public InspectorLimits withMaxNestedArchiveBytes(long value) {
    return new InspectorLimits(maxEntries, maxCentralDirectoryBytes, maxEntryBytes,
        maxTotalInflatedBytes, maxCompressionRatio, value, maxScannedClasses, maxSourceBytes);
  }

  /** A copy with another cap on the classes a findings scan reads. */
  public InspectorLimits withMaxScannedClasses(int value) {
    return new InspectorLimits(maxEntries, maxCentralDirectoryBytes, maxEntryBytes,
        maxTotalInflatedBytes, maxCompressionRatio, maxNestedArchiveBytes, value, maxSourceBytes);
  }
}

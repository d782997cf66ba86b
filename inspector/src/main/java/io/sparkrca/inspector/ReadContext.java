package io.sparkrca.inspector;

import io.sparkrca.core.error.CorruptInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state of one inspection: its limits, the bytes inflated so far (a budget shared by every
 * archive and nested archive the inspection opens), the notes it will report, and the temporary
 * files it inflated large compressed nested archives into, which {@link #close()} deletes.
 */
final class ReadContext implements AutoCloseable {
  private static final int MAX_NOTES = 100;

  final InspectorLimits limits;
  private long inflated;
  private final Set<String> notes = new LinkedHashSet<>();
  private int droppedNotes;
  private final List<Path> temporaryFiles = new ArrayList<>();

  ReadContext(InspectorLimits limits) {
    this.limits = limits;
  }

  /** Bytes still allowed to be inflated in this inspection. */
  long inflateAllowance() {
    return Math.max(0, limits.maxTotalInflatedBytes() - inflated);
  }

  void countInflated(long n, String what) {
    inflated += n;
    if (inflated > limits.maxTotalInflatedBytes()) {
      throw new CorruptInputException(
          what + ": this inspection inflated more than "
              + Texts.bytes(limits.maxTotalInflatedBytes())
              + " in total (the cap against zip bombs); inspect one entry at a time");
    }
  }

  long inflated() {
    return inflated;
  }

  void note(String note) {
    if (notes.size() < MAX_NOTES) {
      notes.add(note);
    } else if (!notes.contains(note)) {
      droppedNotes++;
    }
  }

  List<String> notes() {
    List<String> all = new ArrayList<>(notes);
    if (droppedNotes > 0) {
      all.add(droppedNotes + " more notes not shown");
    }
    return List.copyOf(all);
  }

  /**
   * A new empty temporary file, readable by this user only (the default of {@link
   * Files#createTempFile} on POSIX systems: a nested jar may hold credentials), deleted by {@link
   * #close()}.
   */
  Path temporaryFile(String prefix, String suffix) throws IOException {
    Path p = Files.createTempFile(prefix, suffix);
    temporaryFiles.add(p);
    return p;
  }

  /** Deletes the temporary files; one that cannot be deleted is left to the JVM's exit. */
  @Override
  public void close() {
    for (Path p : temporaryFiles) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException | RuntimeException e) {
        p.toFile().deleteOnExit(); // e.g. still open on Windows; nothing better is left to do
      }
    }
    temporaryFiles.clear();
  }
}

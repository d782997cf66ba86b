package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSource;
import java.io.IOException;
import java.nio.file.Path;

/** The Javadoc examples of {@code io.sparkrca.core.error}, compiled (see {@link JavadocExamplesTest}). */
class ErrorExamples {
  /** The example of {@code AccessDeniedException}. */
  void accessDeniedException() throws Exception {
    throw new AccessDeniedException("https://shs/api/v1", "HTTP 403",
        "send an Authorization header (HttpSettings.builder().header(...))");
  }

  /** The example of {@code CorruptInputException}. */
  void corruptInputException() throws Exception {
    throw new CorruptInputException("app-1.zstd: the zstd stream ends early (truncated); "
        + "copy the log again, or read it as in progress");
  }

  /** The example of {@code InputNotFoundException}. */
  void inputNotFoundException() throws Exception {
    throw new InputNotFoundException("/logs/app-1", "check the path, or list the directory first");
  }

  /** The example of {@code InvalidRequestException}. */
  void invalidRequestException() throws Exception {
    throw new InvalidRequestException("range: start 50 is after end 10; swap them");
  }

  /** The example of {@code IoErrors}. */
  void ioErrors(ByteSource source) throws Exception {
    byte[] head;
    try {
      head = source.read(0, 64);
    } catch (IOException e) {
      throw IoErrors.translate(source.name(), e);
    }
    byte[] same = IoErrors.call(source.name(), () -> source.read(0, 64)); // the same
  }

  /** The example of {@code SparkRcaException}. */
  void sparkRcaException() throws Exception {
    try {
      SparkApplication app = EventLogs.replay(Path.of("/logs/app-1"));
    } catch (SparkRcaException e) {
      System.err.println(e.getMessage()); // "Event log /logs/app-1 is empty: ..."
      e.remedy().ifPresent(r -> System.err.println("remedy: " + r.id()));
    }
  }

  /** The example of {@code Remedy}. */
  void remedy(String uri) throws Exception {
    try {
      EventLogs.reader().strict(true).build().replay(uri);
    } catch (SparkRcaException e) {
      System.err.println(e.message(r -> r.id().equals("replay.lenient") ? "run with --lenient" : r.words()));
    }
  }

  /** The example of {@code UnsupportedInputException}. */
  void unsupportedInputException() throws Exception {
    throw new UnsupportedInputException("app-1.bz2: codec 'bz2' is not one Spark writes; "
        + "decompress it first");
  }
}

package io.sparkrca.core.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Local files (single files, not directories) whose bytes remember which threads read them: for
 * tests of what runs where.
 *
 * <pre>{@code
 * ThreadRecordingFiles files = new ThreadRecordingFiles();
 * ByteSources sources = ByteSources.builder().add(files).build();
 * EventLogs.reader().sources(sources).threads(1).build().replay(path.toString());
 * assertThat(files.readers()).containsExactly(Thread.currentThread().getName());
 * }</pre>
 */
public final class ThreadRecordingFiles implements ByteSourceProvider {
  private final Set<String> readers = ConcurrentHashMap.newKeySet();

  /** The names of the threads that have read bytes of any file opened through this provider. */
  public Set<String> readers() {
    return Set.copyOf(readers);
  }

  @Override
  public boolean supports(String uri) {
    return Files.isRegularFile(Path.of(uri));
  }

  @Override
  public ByteSource open(String uri) {
    return new Recording(ByteSource.of(Path.of(uri)));
  }

  @Override
  public List<SourceEntry> list(String uri) {
    return List.of();
  }

  @Override
  public boolean isDirectory(String uri) {
    return false;
  }

  private void record() {
    readers.add(Thread.currentThread().getName());
  }

  private final class Recording implements ByteSource {
    private final ByteSource delegate;

    Recording(ByteSource delegate) {
      this.delegate = delegate;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public OptionalLong size() throws IOException {
      return delegate.size();
    }

    @Override
    public InputStream openStream(long offset) throws IOException {
      return new FilterInputStream(delegate.openStream(offset)) {
        @Override
        public int read() throws IOException {
          record();
          return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          record();
          return super.read(b, off, len);
        }
      };
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      record();
      return delegate.read(offset, length);
    }
  }
}

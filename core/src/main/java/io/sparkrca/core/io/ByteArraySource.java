package io.sparkrca.core.io;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;

/** A {@link ByteSource} over bytes in memory, for small inputs and tests. */
final class ByteArraySource implements ByteSource {
  private final String name;
  private final byte[] bytes;

  ByteArraySource(String name, byte[] bytes) {
    this.name = Objects.requireNonNull(name, "name");
    this.bytes = bytes.clone();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isLocal() {
    return true;
  }

  @Override
  public OptionalLong size() {
    return OptionalLong.of(bytes.length);
  }

  @Override
  public InputStream openStream(long offset) {
    int start = (int) Math.min(Math.max(0, offset), bytes.length);
    return new ByteArrayInputStream(bytes, start, bytes.length - start);
  }

  @Override
  public byte[] read(long offset, int length) {
    int start = (int) Math.min(Math.max(0, offset), bytes.length);
    int end = (int) Math.min((long) start + length, bytes.length);
    return Arrays.copyOfRange(bytes, start, end);
  }
}

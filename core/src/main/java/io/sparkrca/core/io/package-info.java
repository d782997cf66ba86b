/**
 * Byte sources and decoding: {@link io.sparkrca.core.io.ByteSource} (size, ranged read, stream)
 * for local files and, through {@link io.sparkrca.core.io.ByteSourceProvider}s, remote objects;
 * codec detection by name and magic bytes ({@link io.sparkrca.core.io.Compression}, {@link
 * io.sparkrca.core.io.DecodedStream}); and an allocation-free {@link
 * io.sparkrca.core.io.LineReader} with a line-length cap.
 */
package io.sparkrca.core.io;

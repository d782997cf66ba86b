/**
 * Byte sources and decoding: {@link io.sparkrca.core.io.ByteSource} (size, ranged read, stream)
 * for local files and, through {@link io.sparkrca.core.io.ByteSourceProvider}s, remote objects;
 * codec detection by name and magic bytes ({@link io.sparkrca.core.io.Compression}, {@link
 * io.sparkrca.core.io.DecodedStream}); an allocation-free {@link
 * io.sparkrca.core.io.LineReader} with a line-length cap; and the one HTTP client every remote
 * source sends through ({@link io.sparkrca.core.io.HttpTransport}, with {@link
 * io.sparkrca.core.io.HttpSettings} and the {@link io.sparkrca.core.io.HttpAuth} hook).
 */
package io.sparkrca.core.io;

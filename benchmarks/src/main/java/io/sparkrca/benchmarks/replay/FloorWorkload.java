package io.sparkrca.benchmarks.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The floor: decode the file (any codec) with sparkrca's {@link DecodedStream}, split lines with
 * its {@link LineReader} and run Jackson's streaming tokenizer over every line, building nothing
 * (no values are read, no objects kept). The factory has the replay's read constraints.
 */
public final class FloorWorkload implements Function<String, Supplier<Map<String, Object>>> {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNestingDepth(200)
                  .maxNumberLength(1000)
                  .build())
          .build();

  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    long lines = 0;
    long tokens = 0;
    String codec;
    try (DecodedStream in = DecodedStream.open(ByteSource.of(Path.of(file)), false);
        LineReader lr = new LineReader(in, 64 << 20)) {
      codec = in.compression().isCompressed() ? in.compression().codecName() : "none";
      while (lr.next()) {
        if (lr.length() == 0) {
          continue;
        }
        lines++;
        try (JsonParser p = FACTORY.createParser(lr.buffer(), lr.start(), lr.length())) {
          while (p.nextToken() != null) {
            tokens++;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long l = lines;
    long t = tokens;
    String c = codec;
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "floor");
      m.put("decodedAs", c);
      m.put("events", l);
      m.put("tokens", t);
      return m;
    };
  }
}

package io.sparkrca.inspector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The small programs the tests compile, shared across test classes. */
final class Fixtures {
  private Fixtures() {}

  static final String SPARK_JOB = """
      package com.example;
      public class SparkJob {
        private int retries;
        public static void main(String[] args) {
          System.out.println("gs://my-bucket/input/data.parquet");
        }
        public int add(int a, int b) {
          return a + b;
        }
      }
      """;

  static final String WITH_CLOSURE = """
      package com.example;
      public class WithClosure {
        public Runnable make() {
          return new Runnable() {
            public void run() {
              System.out.println("closure body");
            }
          };
        }
      }
      """;

  /** Bytes that start like a class file but are only a stub. */
  static final byte[] STUB = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE};

  private static final Map<Map<String, String>, Map<String, byte[]>> COMPILED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Compiles (once per distinct input) the sources, given as class name, source, ... */
  static Map<String, byte[]> compile(String... classNameThenSource) {
    Map<String, String> sources = new LinkedHashMap<>();
    for (int i = 0; i < classNameThenSource.length; i += 2) {
      sources.put(classNameThenSource[i], classNameThenSource[i + 1]);
    }
    return COMPILED.computeIfAbsent(sources, s -> TestJars.compile(s, List.of()));
  }

  /** The Python code inspector's test jar: a manifest, SparkJob, WithClosure (and its $1), compiled for real. */
  static byte[] sparkJobJar() {
    Map<String, byte[]> classes = compile("com.example.SparkJob", SPARK_JOB,
        "com.example.WithClosure", WITH_CLOSURE);
    Map<String, byte[]> entries = new LinkedHashMap<>(classes);
    entries.put("config/spark.properties", "spark.sql.shuffle.partitions=200\n".getBytes());
    return TestJars.jar(Optional.of("com.example.SparkJob"), entries);
  }
}

package io.sparkrca.core.model;

import java.util.Optional;

/** The driver JVM's Java version, Java home and Scala version. */
public record RuntimeInfo(
    Optional<String> javaVersion, Optional<String> javaHome, Optional<String> scalaVersion) {}

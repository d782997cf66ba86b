package io.sparkrca.cli;

/** Output formats a command can write. */
enum OutputFormat {
  markdown,
  json,
  text
}

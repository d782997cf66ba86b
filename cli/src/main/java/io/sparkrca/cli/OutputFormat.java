package io.sparkrca.cli;

import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;

/** Output formats a command can write; each command says which it supports ({@link Formatted}). */
enum OutputFormat {
  markdown,
  json,
  text,
  /** One self-contained page with charts, for the commands whose result has an HTML rendering. */
  html;

  /** {@code report} in this format. */
  String render(io.sparkrca.core.report.Report report) {
    return switch (this) {
      case markdown -> report.toMarkdown();
      case json -> report.toJson();
      case text -> report.toText();
      case html -> report.toHtml();
    };
  }

  /** The value as given on the command line, in any case; unknown values name the known ones. */
  static OutputFormat parse(String value) {
    try {
      return valueOf(value.trim().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not an output format");
    }
  }

  /** "markdown, json or text". */
  static String names(Collection<OutputFormat> formats) {
    java.util.List<String> names = formats.stream().map(Enum::name).collect(Collectors.toList());
    if (names.size() <= 1) {
      return String.join("", names);
    }
    return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
  }
}
